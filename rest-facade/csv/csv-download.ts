import { once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import { stringify } from 'csv-stringify';
import type { Request, RequestHandler, Response } from 'express';
import {
  renewedContext,
  credentialsOf,
  requestOptionsOf,
  type ContextFactory,
  type RequestContext,
} from '../../src/core/request-context';
import { AppError } from '../../src/core/errors';
import { firstValues, toFacadeError } from '../dispatcher';
import type { FacadeError } from '../errors';
import { jsonResponder } from '../json/json-format';
import { runWithinCost } from '../list-pages';
import type { OperationName, RootOf, VariablesOf } from '../operation-types';
import { runOperation, type OperationRunner } from '../run-operation';
import { cellParts } from '../render/cell-parts';
import { modulePath, type RenderPool } from '../render/render-pool';
import type { XlsxColumn, XlsxPart } from './xlsx-render.mjs';

/** A column of a CSV file: its header and how a row gives its value (null: an empty field). */
export type CsvColumn<T> = readonly [header: string, value: (row: T) => string | number | null];

/**
 * How a workbook shows a column where a person reads it better than the CSV file's text (the cells
 * of the CSV, converted in the render thread): a `YYYY-MM-DD` text as a date cell; seconds as a
 * duration (days, as spreadsheets count time, shown `[h]:mm`); an amount in minor units as the
 * currency's units (divided by 10^`minorDigits`). `numFmt` is the cell's number format.
 */
export type SheetColumn = XlsxColumn;

/** Runs one named operation of the registry for a page; a GraphQL error ends the download. */
export type RunOperation = <N extends OperationName>(
  name: N,
  variables: VariablesOf<N>,
) => Promise<RootOf<N>>;

/** What a download route makes of one request: the file's name, its columns, its pages of rows. */
export interface CsvDownload<T> {
  readonly filename: string;
  readonly columns: readonly CsvColumn<T>[];
  /** The rows, a page (one operation) at a time. */
  readonly pages: AsyncIterable<readonly T[]>;
  /**
   * For a document (the PDF summary): lines above the table and below it, asked once the pages
   * are read.
   */
  readonly heading?: () => readonly string[];
  readonly footing?: () => readonly string[];
  /** The columns of figures, right-aligned in a document. */
  readonly figures?: ReadonlySet<string>;
  /**
   * For a workbook: the header and the form of each column, asked once the first page is read
   * (a money column's format needs the report's currency). Omitted: the CSV headers, as they are.
   */
  readonly sheetColumns?: () => readonly SheetColumn[];
  /**
   * The request parameter an operation's input field (`timeZone`, `filter.projectIds.0`) comes
   * from, so that a refusal names what the client sent.
   */
  readonly parameterOf?: (field: string) => string;
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

/** Where a download is written. */
export interface DownloadTarget {
  /** Gives the destination just before the first byte. */
  readonly open: () => NodeJS.WritableStream;
  /** The client hung up: waits for a drain are abandoned. */
  readonly signal?: AbortSignal;
  /** Where documents (XLSX, PDF) are rendered, off the event loop. */
  readonly renderPool: RenderPool;
}

/** A file format of downloads: how the rows of a download are written, and what it is called. */
export interface DownloadFormat {
  readonly extension: 'csv' | 'xlsx' | 'pdf' | 'json';
  readonly contentType: string;
  /** False for an API answer (JSON), which is not a file to save: no Content-Disposition. */
  readonly attachment: boolean;
  /** What the file is, for the OpenAPI document. */
  readonly description: string;
  /** Writes the file; resolves with the number of rows. */
  write<T>(download: CsvDownload<T>, target: DownloadTarget): Promise<number>;
}

/** What runs a download's operations, whoever asked for it (an HTTP request, the CLI). */
export type CsvOperations = OperationRunner;

export interface CsvDownloadDeps extends CsvOperations {
  readonly createContext: ContextFactory;
  readonly renderPool: RenderPool;
}

/**
 * An operation's GraphQL error, carried out of the page source to the download's one exit. An
 * AppError with the same code and message, so that a caller without HTTP (the CLI) reports it
 * like any other refusal.
 */
class OperationFailed extends AppError {
  constructor(readonly facadeError: FacadeError) {
    super(facadeError.code, facadeError.message, {
      ...facadeError.details,
      ...(facadeError.entity ? { entity: facadeError.entity } : {}),
      ...(facadeError.fieldErrors ? { fieldErrors: [...facadeError.fieldErrors] } : {}),
    });
  }
}

/**
 * A GET route answering a CSV file, streamed page by page: each page is one GraphQL operation on a
 * renewed context (no page keeps the rows of the ones before), written with csv-stringify and
 * back-pressure, so memory holds one page whatever the size of the file. Anything refused before
 * the first byte (credentials, parameters, the first operation) is the JSON error envelope; a
 * failure after it cuts the connection, so a client never takes a partial file for a whole one.
 */
export function csvDownloadRoute<T>(
  deps: CsvDownloadDeps,
  describe: (request: CsvRequest) => CsvDownload<T>,
  format: DownloadFormat = CSV,
): RequestHandler {
  return async (req: Request, res: Response) => {
    let streaming = false;
    // A client that hangs up stops the download: no wait for a drain that will never come.
    const hangUp = new AbortController();
    res.on('close', () => hangUp.abort());
    // How a refusal names the download's parameters, once the download is described.
    let parameterOf: CsvDownload<T>['parameterOf'];
    try {
      const ctx = await deps.createContext(credentialsOf(req), requestOptionsOf(req));
      const download = describe(
        csvRequestFor(deps, ctx, firstValues(req.query), req.params as Record<string, string>),
      );
      parameterOf = download.parameterOf;
      const open = () => {
        res.status(200).type(format.contentType);
        if (format.attachment)
          res.attachment(download.filename.replace(/\.csv$/, `.${format.extension}`));
        streaming = true;
        return res;
      };
      // A download runs page after page for as long as the file takes: the whole of it is heavy
      // work, in the lane that keeps such work from occupying the pool (its report pages then run
      // in the place the download already holds).
      const write = () =>
        format.write(download, { open, signal: hangUp.signal, renderPool: deps.renderPool });
      await (ctx.heavy ? ctx.heavy(write) : write());
    } catch (error) {
      if (streaming) {
        res.destroy();
        return;
      }
      const failure = error instanceof OperationFailed ? error.facadeError : toFacadeError(error);
      const rename = parameterOf;
      jsonResponder.failure(
        res,
        rename && failure.fieldErrors
          ? {
              ...failure,
              fieldErrors: failure.fieldErrors.map((fe) => ({
                ...fe,
                field: rename(fe.field),
              })),
            }
          : failure,
        undefined,
      );
    }
  };
}

/** What a download's description reads, for a context however it was made: a request's, or the CLI's (contextForViewer). */
export function csvRequestFor(
  deps: CsvOperations,
  ctx: RequestContext,
  query: Readonly<Record<string, string>>,
  params: Readonly<Record<string, string>> = {},
): CsvRequest {
  return { query, params, run: runner(deps, ctx), pageSizeMax: ctx.config.pageSize.max };
}

/**
 * Writes a download as CSV (csv-stringify, with back-pressure), a page at a time. `open` gives the
 * destination just before the first byte, so that a refusal before it (a parameter, the first
 * operation) leaves nothing written; the destination is ended with the last row (pipe). Resolves
 * with the number of rows once the last is handed over; `signal` abandons a wait for a drain.
 * It runs on the event loop (a row is a few string operations), a part of a page (`cellParts`) at
 * a time with a turn of the loop after each (a wait for a drain is not always a turn: when the
 * socket takes everything at once, the stringifier drains within the same turn).
 */
export async function writeCsv<T>(
  download: CsvDownload<T>,
  open: () => NodeJS.WritableStream,
  signal?: AbortSignal,
): Promise<number> {
  const csv = stringify({
    header: true,
    columns: download.columns.map(([header]) => header),
    // Text cells starting with = + - @, a tab or a carriage return (or their full-width forms) get
    // a leading ', so a spreadsheet shows them instead of running them as formulas: notes, tags
    // and names are written by staff and opened by the owner (OWASP's CSV injection rule; issue
    // 20, finding 8). Numbers are left alone, so a negative amount stays a number.
    escape_formulas: true,
  });
  let opened = false;
  let count = 0;
  for await (const rows of download.pages) {
    if (!opened) {
      csv.pipe(open());
      opened = true;
    }
    for (const part of cellParts(rows, (row) => download.columns.map(([, value]) => value(row)))) {
      for (const cells of part) {
        count += 1;
        if (!csv.write(cells)) await once(csv, 'drain', { signal });
      }
      await setImmediate(undefined, { signal });
    }
  }
  csv.end();
  return count;
}

/** The workbook's writer, run in a render pool's worker thread. */
const XLSX_RENDERER = modulePath(__dirname, 'xlsx-render');

/**
 * Writes a download as an Excel workbook (exceljs' streaming writer, in a worker thread:
 * xlsx-render.mts): one sheet, a header row, the rows as they come, numbers as numbers, dates,
 * durations and money in the forms `sheetColumns` gives (a real date cell, `[h]:mm`, the
 * currency's format). The first
 * page is read before the first byte, so a refusal there is still an error answer. Each page is
 * handed over in parts (`cellParts`) as the worker asks for them, and the next is made once the
 * destination has taken the bytes of the last, so memory holds about one page. Text is never a
 * formula in a workbook (cells are typed), so it is written as it is, whole.
 */
export async function writeXlsx<T>(
  download: CsvDownload<T>,
  { open, signal, renderPool }: DownloadTarget,
): Promise<number> {
  let count = 0;
  async function* parts(): AsyncGenerator<XlsxPart> {
    const pages = download.pages[Symbol.asyncIterator]();
    try {
      let page = await pages.next();
      yield {
        sheet: download.filename.replace(/\.csv$/, ''),
        columns: download.sheetColumns?.() ?? download.columns.map(([header]) => ({ header })),
      };
      for (; !page.done; page = await pages.next()) {
        for (const rows of cellParts(page.value, (row) =>
          download.columns.map(([, value]) => value(row)),
        )) {
          count += rows.length;
          yield { rows };
        }
      }
    } finally {
      // An abandoned download stops its page source too.
      await pages.return?.();
    }
  }
  await renderPool.render({
    format: 'xlsx',
    renderer: XLSX_RENDERER,
    parts: parts(),
    open,
    signal,
  });
  return count;
}

export const CSV: DownloadFormat = {
  extension: 'csv',
  attachment: true,
  contentType: 'text/csv; charset=utf-8',
  description: 'The file, RFC 4180 with one header line',
  write: (download, { open, signal }) => writeCsv(download, open, signal),
};

export const XLSX: DownloadFormat = {
  extension: 'xlsx',
  attachment: true,
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  description: 'The file, an Excel workbook (Office Open XML) of one sheet with a header row',
  write: writeXlsx,
};

/**
 * Runs a download's pages. A page the per-operation cost limit refuses (GRAPHQL_MAX_COST set below
 * what an export page costs) is asked again smaller, as a legacy list's is, and the pages after it
 * keep that size: the pages follow the rows read (keyset or offset), so the file is the same.
 */
function runner(deps: CsvOperations, ctx: RequestContext): RunOperation {
  let within: number | undefined;
  return async (name, asked) => {
    const { variables, outcome } = await runWithinCost(pageOfAtMost(asked, within), (page) =>
      runOperation(deps, name, page, renewedContext(ctx)),
    );
    if ('error' in outcome) throw new OperationFailed(outcome.error);
    within = (variables as { first?: number }).first;
    return outcome.root;
  };
}

/** The variables with `first` no larger than `size`. */
function pageOfAtMost<V>(variables: V, size: number | undefined): V {
  const { first } = variables as { first?: number };
  return size !== undefined && first !== undefined && first > size
    ? { ...variables, first: size }
    : variables;
}
