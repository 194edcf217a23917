import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { ListPaging, RouteInput } from './route-table';

/**
 * Legacy lists know no paging: a client gets every matching row, up to the server's cap
 * (PAGE_SIZE_MAX). The facade reads them a page at a time and writes each page as it comes, so a
 * request holds one page of rows, not the whole list. A list that fits in one page is answered
 * whole, as before (with its Content-Length and ETag); a longer one is written in chunks.
 */

/** Rows per operation: most lists fit in one, and one is small in memory. */
export const LIST_PAGE_SIZE = 1000;

/** What a list operation's root field answers: every List* operation selects these. */
export interface ListPage<Node> {
  /** Selected on the first page only (`$counted`). */
  readonly totalCount?: number;
  readonly nodes: readonly Node[];
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
}

/** The first page's variables: at most a page, counted when the answer shows the count. */
export function firstPage(input: RouteInput, counted: boolean) {
  return { first: Math.min(LIST_PAGE_SIZE, input.ctx.config.pageSize.max), counted };
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
        first: Math.min(LIST_PAGE_SIZE, left),
        after: root.pageInfo.endCursor,
        counted: false,
      };
    },
  };
}

/**
 * Writes `chunks` as the body, with back-pressure; a client that hangs up (before or during the
 * writing) ends the reading. The status and headers must be set before.
 */
export function writeChunks(res: Response, chunks: AsyncIterable<string>): Promise<void> {
  return pipeline(Readable.from(chunks), res);
}
