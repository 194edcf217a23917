import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import type { Request, RequestHandler, Response } from 'express';
import { credentialsOf, renewedContext, requestOptionsOf, type ContextFactory, type RequestContext } from '../../src/graphql/context';
import type { Executor } from '../../src/graphql/executor';
import { firstValues, toFacadeError } from '../dispatcher';
import { fromGraphQLError, type FacadeError } from '../errors';
import { jsonResponder } from '../json/json-format';
import type { OperationRegistry } from '../operation-registry';

/** A column of a CSV file: its header and how a row gives its value (null: an empty field). */
export type CsvColumn<T> = readonly [header: string, value: (row: T) => string | number | null];

/** Runs one named operation of the registry for a page; a GraphQL error ends the download. */
export type RunOperation = <T>(name: string, variables: Record<string, unknown>) => Promise<T>;

/** What a download route makes of one request: the file's name, its columns, its pages of rows. */
export interface CsvDownload<T> {
  readonly filename: string;
  readonly columns: readonly CsvColumn<T>[];
  /** The rows, a page (one operation) at a time. */
  readonly pages: AsyncIterable<readonly T[]>;
}

/** What a download's description reads of its request. */
export interface CsvRequest {
  /** Query parameters, the first value of each. */
  readonly query: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, string>>;
  readonly run: RunOperation;
  /** The largest page a list operation accepts (PAGE_SIZE_MAX). */
  readonly pageSizeMax: number;
}

export interface CsvDownloadDeps {
  readonly execute: Executor;
  readonly createContext: ContextFactory;
  readonly registry: OperationRegistry;
}

/** An operation's GraphQL error, carried out of the page source to the download's one exit. */
class OperationFailed extends Error {
  constructor(readonly facadeError: FacadeError) {
    super(facadeError.message);
  }
}

/**
 * A GET route answering a CSV file, streamed page by page: each page is one GraphQL operation on a
 * renewed context (no page keeps the rows of the ones before), written with csv-stringify and
 * back-pressure, so memory holds one page whatever the size of the file. Anything refused before
 * the first byte (credentials, parameters, the first operation) is the JSON error envelope; a
 * failure after it cuts the connection, so a client never takes a partial file for a whole one.
 */
export function csvDownloadRoute<T>(deps: CsvDownloadDeps, describe: (request: CsvRequest) => CsvDownload<T>): RequestHandler {
  return async (req: Request, res: Response) => {
    let streaming = false;
    // A client that hangs up stops the download: no wait for a drain that will never come.
    const hangUp = new AbortController();
    res.on('close', () => hangUp.abort());
    try {
      const ctx = await deps.createContext(credentialsOf(req), requestOptionsOf(req));
      const download = describe({ query: firstValues(req.query), params: req.params as Record<string, string>, run: runner(deps, ctx), pageSizeMax: ctx.config.pageSize.max });
      const csv = stringify({ header: true, columns: download.columns.map(([header]) => header) });
      for await (const rows of download.pages) {
        if (!streaming) {
          res.status(200).type('text/csv; charset=utf-8').attachment(download.filename);
          csv.pipe(res);
          streaming = true;
        }
        for (const row of rows) {
          if (!csv.write(download.columns.map(([, value]) => value(row)))) await once(csv, 'drain', { signal: hangUp.signal });
        }
      }
      csv.end();
    } catch (error) {
      if (streaming) res.destroy();
      else jsonResponder.failure(res, error instanceof OperationFailed ? error.facadeError : toFacadeError(error), undefined);
    }
  };
}

function runner(deps: CsvDownloadDeps, ctx: RequestContext): RunOperation {
  return async <T>(name: string, variables: Record<string, unknown>) => {
    const result = await deps.execute(deps.registry.get(name), variables, renewedContext(ctx));
    if (result.errors?.length) throw new OperationFailed(fromGraphQLError(result.errors[0]!));
    return result.data as T;
  };
}
