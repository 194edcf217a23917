import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Cell } from '../render/cell-parts';

/**
 * An Excel workbook of one sheet written by exceljs' streaming writer, run in a render pool's
 * worker thread (csv-download.ts's writeXlsx hands it the rows). Imports nothing of this project
 * at run time (render/render-worker.mts).
 */

/**
 * A column of the sheet: its header, and how its cells are typed where a CSV cell is not what a
 * person reads (csv-download.ts's SheetColumn).
 */
export interface XlsxColumn {
  readonly header: string;
  /**
   * `date`: a `YYYY-MM-DD` text as a date cell (that day's midnight, as spreadsheets count dates);
   * `duration`: seconds as a number of days, the unit of spreadsheet time (`[h]:mm` shows hours
   * past 24); `money`: minor units as the currency's units (÷ 10^minorDigits).
   */
  readonly type?: 'date' | 'duration' | 'money';
  readonly minorDigits?: number;
  /** The cells' number format (`yyyy-mm-dd`, `[h]:mm`, `"€"#,##0.00`). */
  readonly numFmt?: string;
}

/** The sheet's name and columns first, then the rows a part at a time. */
export type XlsxPart =
  | { readonly sheet: string; readonly columns: readonly XlsxColumn[] }
  | { readonly rows: readonly (readonly Cell[])[] };

const SECONDS_PER_DAY = 86_400;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A cell of the column as the sheet holds it. */
function sheetValue(column: XlsxColumn | undefined, cell: Cell): Cell | Date {
  if (cell === null || column?.type === undefined) return cell;
  if (column.type === 'date') {
    const date = typeof cell === 'string' ? DATE.exec(cell) : null;
    // exceljs counts a Date's UTC day: midnight UTC of the local date is that date's serial number.
    return date ? new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!)) : cell;
  }
  if (typeof cell !== 'number') return cell;
  if (column.type === 'duration') return cell / SECONDS_PER_DAY;
  return cell / 10 ** (column.minorDigits ?? 0);
}

/** One sheet: the header row, then each row committed as it comes (numbers as number cells). */
export async function render(
  parts: AsyncIterable<XlsxPart>,
  write: (bytes: Uint8Array) => void,
): Promise<void> {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      write(chunk);
      done();
    },
  });
  let workbook: ExcelJS.stream.xlsx.WorkbookWriter | undefined;
  let sheet: ExcelJS.Worksheet | undefined;
  let columns: readonly XlsxColumn[] = [];
  for await (const part of parts) {
    if ('columns' in part) {
      columns = part.columns;
      // useStyles: without it the streaming writer drops every number format.
      workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
      sheet = workbook.addWorksheet(part.sheet);
      sheet.addRow(columns.map((column) => column.header)).commit();
    } else {
      for (const cells of part.rows) {
        const row = sheet!.addRow(cells.map((cell, i) => sheetValue(columns[i], cell)));
        columns.forEach((column, i) => {
          if (column.numFmt !== undefined && cells[i] !== null)
            row.getCell(i + 1).numFmt = column.numFmt;
        });
        row.commit();
      }
    }
  }
  sheet?.commit();
  await workbook?.commit();
}
