/** A value of a table cell, as a download's columns give it. */
export type Cell = string | number | null;

/** A part holds at most this many rows and about this much text. */
const PART_ROWS = 500;
const PART_CHARS = 1_000_000;

/**
 * The rows of a page as parts of cells, each a short slice of work for the event loop: the rows of
 * one report page can hold 10,000 notes of 10,000 characters each. A document copies a part at a
 * time to its render thread, which asks for the next when it is done; a CSV file writes a part,
 * then lets the loop turn.
 */
export function* cellParts<T>(
  rows: readonly T[],
  cellsOf: (row: T) => Cell[],
): Generator<Cell[][]> {
  let part: Cell[][] = [];
  let chars = 0;
  for (const row of rows) {
    const cells = cellsOf(row);
    part.push(cells);
    for (const cell of cells) if (typeof cell === 'string') chars += cell.length;
    if (part.length >= PART_ROWS || chars >= PART_CHARS) {
      yield part;
      part = [];
      chars = 0;
    }
  }
  if (part.length > 0) yield part;
}
