import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Cell } from '../render/cell-parts';

/**
 * An Excel workbook of one sheet written by exceljs' streaming writer, run in a render pool's
 * worker thread (csv-download.ts's writeXlsx hands it the rows). Imports nothing of this project
 * at run time (render/render-worker.mts).
 */

/** The sheet's name and header first, then the rows a part at a time. */
export type XlsxPart =
  | { readonly sheet: string; readonly header: readonly string[] }
  | { readonly rows: readonly (readonly Cell[])[] };

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
  for await (const part of parts) {
    if ('header' in part) {
      workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream });
      sheet = workbook.addWorksheet(part.sheet);
      sheet.addRow([...part.header]).commit();
    } else {
      for (const cells of part.rows) sheet!.addRow([...cells]).commit();
    }
  }
  sheet?.commit();
  await workbook?.commit();
}
