import path from 'node:path';
import PDFDocument from 'pdfkit';
import { BadRequestError } from '../../src/core/errors';
import type { CsvDownload, DownloadFormat } from '../csv/csv-download';

/** Rows a PDF summary holds at most: a document for a person, not a data file. */
export const PDF_ROWS_MAX = 2000;

/**
 * DejaVu Sans, embedded (pdfkit keeps only the glyphs used): the PDF's own Helvetica knows only
 * Western European letters, and names are written in every script (Łódź, Ωmega, Проект).
 */
const FONTS = path.dirname(require.resolve('dejavu-fonts-ttf/package.json'));
const REGULAR = path.join(FONTS, 'ttf', 'DejaVuSans.ttf');
const BOLD = path.join(FONTS, 'ttf', 'DejaVuSans-Bold.ttf');

const MARGIN = 50;
const ROW_HEIGHT = 15;
const NUMBER_WIDTH = 80;

/**
 * Writes a download as a PDF document (pdfkit): the heading lines, a table of the columns (numbers
 * right-aligned, the header repeated on every page), the footing lines. The rows are read whole
 * before the first byte, so a download with more than PDF_ROWS_MAX rows is refused as a bad
 * request instead of cut short.
 */
export async function writePdf<T>(
  download: CsvDownload<T>,
  open: () => NodeJS.WritableStream,
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
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: download.filename } });
  doc.pipe(open());
  const width = doc.page.width - 2 * MARGIN;
  const values = rows.map((row) => download.columns.map(([, value]) => value(row)));
  const numeric = download.columns.map(([title]) => download.figures?.has(title) ?? false);
  const textColumns = numeric.filter((isNumber) => !isNumber).length;
  const textWidth =
    textColumns > 0 ? (width - (numeric.length - textColumns) * NUMBER_WIDTH) / textColumns : 0;
  const widths = numeric.map((isNumber) => (isNumber ? NUMBER_WIDTH : textWidth));

  const line = (cells: readonly (string | number | null)[], bold = false) => {
    if (doc.y > doc.page.height - MARGIN - ROW_HEIGHT) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    doc.font(bold ? BOLD : REGULAR).fontSize(9);
    let x = MARGIN;
    cells.forEach((cell, i) => {
      doc.text(cell === null ? '' : String(cell), x, y, {
        width: widths[i]! - 4,
        align: numeric[i] ? 'right' : 'left',
        lineBreak: false,
        ellipsis: true,
      });
      x += widths[i]!;
    });
    doc.x = MARGIN;
    doc.y = y + ROW_HEIGHT;
  };
  const header = () =>
    line(
      download.columns.map(([title]) => title),
      true,
    );

  const [title, ...heading] = download.heading?.() ?? [download.filename];
  doc
    .font(BOLD)
    .fontSize(18)
    .text(title ?? download.filename);
  doc.font(REGULAR).fontSize(10);
  for (const text of heading) doc.text(text);
  doc.moveDown();
  header();
  for (const cells of values) line(cells);
  doc.moveDown();
  doc.font(BOLD).fontSize(10);
  for (const text of download.footing?.() ?? []) doc.text(text, MARGIN);
  doc.end();
  return rows.length;
}

export const PDF: DownloadFormat = {
  extension: 'pdf',
  contentType: 'application/pdf',
  description: 'The file, a PDF document: a heading, a table of the rows, the totals',
  write: writePdf,
};
