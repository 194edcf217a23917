import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { WrittenNodes } from '../src/core/node-writer';
import type { FacadeError } from './errors';
import type { ListPaging, RouteInput } from './route-table';

/**
 * Legacy lists know no paging: a client gets every matching row, up to the server's cap
 * (PAGE_SIZE_MAX). The facade asks for all of them in one operation, which the cost budget charges
 * for the rows it read (`actualQueryCost`), not for the cap. Only when the per-operation cost limit
 * (GRAPHQL_MAX_COST) refuses that page does it read smaller ones and write each as it comes: a
 * list read in one page is answered whole (with its Content-Length and ETag), a longer one in
 * chunks.
 */

/** What a list operation's root field answers: every List* operation selects these. */
export interface ListPage<Node> {
  /** Selected on the first page only (`$counted`). */
  readonly totalCount?: number;
  /** Written already where the route gave its `nodeWriter` and the read compiled. */
  readonly nodes: readonly Node[] | WrittenNodes;
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
}

/** The first page's variables: the whole list, counted when the answer shows the count. */
export function firstPage(input: RouteInput, counted: boolean) {
  return { first: input.ctx.config.pageSize.max, counted };
}

/** Paging over `after` cursors up to the server's cap, counting only the first page. */
export function listPaging<V extends object>(): ListPaging<V, ListPage<unknown>> {
  return {
    rows: (root) => root.nodes.length,
    next: (input, variables, root, read) => {
      const left = input.ctx.config.pageSize.max - read;
      if (!root.pageInfo.hasNextPage || root.pageInfo.endCursor === null || left <= 0)
        return undefined;
      return {
        ...variables,
        // The size of the page before, which the cost limit may have made smaller.
        first: Math.min((variables as { first: number }).first, left),
        after: root.pageInfo.endCursor,
        counted: false,
      };
    },
  };
}

/**
 * The page to ask for instead of one the per-operation cost limit refused (an operator may set
 * GRAPHQL_MAX_COST below what a legacy list's or a download's page costs): smaller in proportion
 * to the estimate over the limit, and by one row at least, so that asking again comes within it.
 * Undefined for any other error, or for a page of one row.
 */
function pageWithinCost<V>(variables: V, error: FacadeError): V | undefined {
  const { cost, maxCost } = error.details ?? {};
  const { first } = variables as { first?: number };
  if (typeof cost !== 'number' || typeof maxCost !== 'number' || !first || first <= 1)
    return undefined;
  return {
    ...variables,
    first: Math.max(1, Math.min(first - 1, Math.floor((first * maxCost) / cost))),
  };
}

/**
 * Runs a page's operation, asking again smaller (`pageWithinCost`) while the per-operation cost
 * limit refuses it. Answers the variables the outcome was read with, for the pages after it to
 * keep that size.
 */
export async function runWithinCost<V, T extends object>(
  asked: V,
  run: (variables: V) => Promise<T | { readonly error: FacadeError }>,
): Promise<{ variables: V; outcome: T | { readonly error: FacadeError } }> {
  for (let variables = asked; ;) {
    const outcome = await run(variables);
    const smaller = 'error' in outcome ? pageWithinCost(variables, outcome.error) : undefined;
    if (!smaller) return { variables, outcome };
    variables = smaller;
  }
}

/**
 * Writes `chunks` as the body, with back-pressure; a client that hangs up (before or during the
 * writing) ends the reading. The status and headers must be set before.
 */
export function writeChunks(res: Response, chunks: AsyncIterable<string>): Promise<void> {
  return pipeline(Readable.from(chunks), res);
}
