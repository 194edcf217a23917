import { once } from 'node:events';
import PDFDocument from 'pdfkit';
import type { Cell } from '../render/cell-parts';

/**
 * The PDF table's layout with pdfkit, run in a render pool's worker thread (pdf-table.ts hands it
 * the table). Imports nothing of this project at run time (render/render-worker.mts).
 */

/** What the document says around its table, and how its columns are laid out. */
export interface PdfFrame {
  readonly filename: string;
  readonly title: string;
  /** Lines under the title, and below the table. */
  readonly heading: readonly string[];
  readonly footing: readonly string[];
  readonly columns: readonly { readonly title: string; readonly figure: boolean }[];
  /** The font files (regular, bold), found by the main thread's module resolution. */
  readonly fonts: { readonly regular: string; readonly bold: string };
}

/** The frame first, then the rows a part at a time. */
export type PdfPart =
  { readonly frame: PdfFrame } | { readonly rows: readonly (readonly Cell[])[] };

const MARGIN = 50;
const ROW_HEIGHT = 15;
const NUMBER_WIDTH = 80;
const FONT_SIZE = 9;

/**
 * The heading lines, a table of the columns (numbers right-aligned, the header repeated on every
 * page) with one line per row, and the footing lines. A cell is one line: its whitespace (line
 * breaks in notes) becomes single spaces, and text wider than its column is cut and ends with an
 * ellipsis (`fitted`).
 */
export async function render(
  parts: AsyncIterable<PdfPart>,
  write: (bytes: Uint8Array) => void,
): Promise<void> {
  let table: Table | undefined;
  for await (const part of parts) {
    if ('frame' in part) table = new Table(part.frame, write);
    else for (const cells of part.rows) table!.row(cells);
  }
  await table!.end();
}

class Table {
  private readonly doc: PDFKit.PDFDocument;
  private readonly frame: PdfFrame;
  private readonly widths: readonly number[];

  constructor(frame: PdfFrame, write: (bytes: Uint8Array) => void) {
    this.frame = frame;
    this.doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: frame.filename } });
    this.doc.on('data', write);
    const width = this.doc.page.width - 2 * MARGIN;
    const textColumns = frame.columns.filter((column) => !column.figure).length;
    const textWidth =
      textColumns > 0
        ? (width - (frame.columns.length - textColumns) * NUMBER_WIDTH) / textColumns
        : 0;
    this.widths = frame.columns.map((column) => (column.figure ? NUMBER_WIDTH : textWidth));
    this.doc.font(frame.fonts.bold).fontSize(18).text(frame.title);
    this.doc.font(frame.fonts.regular).fontSize(10);
    for (const text of frame.heading) this.doc.text(text);
    this.doc.moveDown();
    this.header();
  }

  row(cells: readonly Cell[], bold = false): void {
    const { doc } = this;
    if (doc.y > doc.page.height - MARGIN - ROW_HEIGHT) {
      doc.addPage();
      this.header();
    }
    const y = doc.y;
    doc.font(bold ? this.frame.fonts.bold : this.frame.fonts.regular).fontSize(FONT_SIZE);
    let x = MARGIN;
    cells.forEach((cell, i) => {
      const width = this.widths[i]! - 4;
      doc.text(cell === null ? '' : this.fitted(String(cell), width), x, y, {
        width,
        // One line whatever happens: pdfkit ends the text there (with its own ellipsis).
        height: ROW_HEIGHT,
        align: this.frame.columns[i]!.figure ? 'right' : 'left',
        lineBreak: false,
        ellipsis: true,
      });
      x += this.widths[i]!;
    });
    doc.x = MARGIN;
    doc.y = y + ROW_HEIGHT;
  }

  /**
   * The text as one line, cut where it would leave `width` with `…` after it. Measured a character
   * at a time: pdfkit keeps each character's width once measured, where fitting the text itself
   * (its line wrapper) shapes every candidate prefix of a long word anew, thousands of times for a
   * page of long notes. Kerning only narrows a line, so what fits here fits when shaped.
   */
  private fitted(text: string, width: number): string {
    const { doc } = this;
    const line = text.replace(/\s+/g, ' ');
    const ellipsis = doc.widthOfString('…');
    let used = 0;
    let end = 0;
    let cut = 0;
    for (const char of line) {
      used += doc.widthOfString(char);
      if (used > width) return `${line.slice(0, cut).trimEnd()}…`;
      end += char.length;
      if (used + ellipsis <= width) cut = end;
    }
    return line;
  }

  private header(): void {
    this.row(
      this.frame.columns.map((column) => column.title),
      true,
    );
  }

  async end(): Promise<void> {
    const { doc } = this;
    doc.moveDown();
    doc.font(this.frame.fonts.bold).fontSize(10);
    for (const text of this.frame.footing) doc.text(text, MARGIN);
    const ended = once(doc, 'end');
    doc.end();
    await ended;
  }
}
