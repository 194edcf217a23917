import path from 'node:path';
import { BadRequestError } from '../../src/core/errors';
import type { CsvDownload, DownloadFormat, DownloadTarget } from '../csv/csv-download';
import { cellParts, type Cell } from '../render/cell-parts';
import { modulePath } from '../render/render-pool';
import type { PdfFrame, PdfPart } from './pdf-render.mjs';

/** Rows a PDF summary holds at most: a document for a person, not a data file. */
export const PDF_ROWS_MAX = 2000;

/**
 * Characters of a cell's text handed to the layout at most; longer text is cut there and ends with
 * `…`. A cell shows one line: the widest column (a single text column, 355 pt at 9 pt) holds
 * about 140 of the narrowest letters, so the cut shows only where the line is full anyway. It
 * keeps a note of 10,000 characters from being copied to the worker and measured whole.
 */
export const PDF_CELL_CHARS_MAX = 200;

/**
 * DejaVu Sans, embedded (pdfkit keeps only the glyphs used): the PDF's own Helvetica knows only
 * Western European letters, and names are written in every script (Łódź, Ωmega, Проект).
 */
const FONTS = path.dirname(require.resolve('dejavu-fonts-ttf/package.json'));
const FONT_FILES = {
  regular: path.join(FONTS, 'ttf', 'DejaVuSans.ttf'),
  bold: path.join(FONTS, 'ttf', 'DejaVuSans-Bold.ttf'),
};

/** The layout, run in a render pool's worker thread. */
const PDF_RENDERER = modulePath(__dirname, 'pdf-render');

/**
 * Writes a download as a PDF document: the heading lines, a table of the columns (numbers
 * right-aligned, the header repeated on every page, each cell one line), the footing lines
 * (pdf-render.mts lays it out in a worker thread). The rows are read whole before the first byte,
 * so a download with more than PDF_ROWS_MAX rows is refused as a bad request instead of cut short.
 */
export async function writePdf<T>(
  download: CsvDownload<T>,
  { open, signal, renderPool }: DownloadTarget,
): Promise<number> {
  const rows: T[] = [];
  for await (const page of download.pages) {
    rows.push(...page);
    if (rows.length > PDF_ROWS_MAX)
      throw new BadRequestError(
        `a PDF summary holds at most ${PDF_ROWS_MAX} rows; group by fewer keys or a longer bucket, or download the CSV or XLSX file`,
        { parameter: 'group_by' },
      );
  }
  // Read once the rows are: a summary's columns depend on the answer (no amount column for a
  // caller who reads no money).
  const columns = download.columns;
  const [title, ...heading] = download.heading?.() ?? [download.filename];
  const frame: PdfFrame = {
    filename: download.filename,
    title: title ?? download.filename,
    heading,
    footing: download.footing?.() ?? [],
    columns: columns.map(([header]) => ({
      title: header,
      figure: download.figures?.has(header) ?? false,
    })),
    fonts: FONT_FILES,
  };
  async function* parts(): AsyncGenerator<PdfPart> {
    yield { frame };
    for (const part of cellParts(rows, (row) =>
      columns.map(([, value]) => boundedCell(value(row))),
    ))
      yield { rows: part };
  }
  await renderPool.render({ format: 'pdf', renderer: PDF_RENDERER, parts: parts(), open, signal });
  return rows.length;
}

/** A cell's text cut at PDF_CELL_CHARS_MAX characters, with `…` where it was cut. */
function boundedCell(cell: Cell): Cell {
  if (typeof cell !== 'string' || cell.length <= PDF_CELL_CHARS_MAX) return cell;
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(cell[PDF_CELL_CHARS_MAX - 1]!)
    ? PDF_CELL_CHARS_MAX - 1
    : PDF_CELL_CHARS_MAX;
  return `${cell.slice(0, end)}…`;
}

export const PDF: DownloadFormat = {
  extension: 'pdf',
  attachment: true,
  contentType: 'application/pdf',
  description: 'The file, a PDF document: a heading, a table of the rows, the totals',
  write: writePdf,
};
