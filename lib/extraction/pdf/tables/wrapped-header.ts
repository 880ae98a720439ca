/**
 * Header cells of a borderless table wrapped over several lines, joined into one row of cells
 * (borderless.ts builds the rows; this joins the header's).
 */
import { HEADER_MAX_LINES, WRAPPED_HEADER_MAX_LEADING, WRAPPED_HEADER_VALUE_SHARE } from '../settings';
import { valueLike } from './cell-text';

/** The line a table row starts on: where it stands and its size. */
export interface RowLine {
  y: number;
  size: number;
}

/** A row of values: most of its filled cells after the first read as values. */
function dataLike(row: readonly string[]): boolean {
  const cells = row.slice(1).filter((t) => t.trim());
  return cells.length > 0 && cells.filter(valueLike).length >= WRAPPED_HEADER_VALUE_SHARE * cells.length;
}

/**
 * Header cells wrapped over several lines ("Population" / "(million)" / "1995" in one column) are
 * one cell: above the first row of values (two in a row, the first one at least the second row of
 * the table; in a table with row labels, a row of values has its label; a label alone in the first
 * column right above it opens a section and stays a row; no row of values above them, and at
 * most HEADER_MAX_LINES lines to a header row), consecutive header rows set at line spacing whose cells each stand in one column
 * (no spanning header among them) are joined into one row, column by column. A spanning header
 * row ("How often do you have these symptoms" over three columns) stays a row of its own. Tables
 * without value rows are left as they are.
 */
export function joinWrappedHeader(rows: string[][], ids: number[][], rowLines: RowLine[], cellIds: { row(width: number): number[] }): void {
  // In a table with row labels, a row of values has its label ("1995" under "Population" has none).
  const labelled = rows.filter((row) => row[0]?.trim()).length * 2 >= rows.length;
  const valueRow = (r: number) => dataLike(rows[r]) && (!labelled || Boolean(rows[r][0]?.trim()));
  let first = -1;
  for (let r = 1; r < rows.length; r++) {
    if (valueRow(r) && (r + 1 >= rows.length || valueRow(r + 1))) {
      first = r;
      break;
    }
  }
  if (first < 2) return;
  // Above the first two value rows, no row of values: else the rows are data, not a header.
  // (A decimal number, "1.451" or "26,9", is a value too: years and units like "1995" or "($000)" are not.)
  for (let r = 0; r < first; r++) if (valueRow(r) || rows[r].some((t) => /\d[.,]\d/.test(t))) return;
  const spanning = (r: number) => new Set(ids[r].filter((_, c) => rows[r][c])).size < rows[r].filter((t) => t).length;
  const out: { row: string[]; ids: number[]; line: RowLine }[] = [];
  let run: number[] = [];
  const flush = () => {
    // More lines than a header has (HEADER_MAX_LINES) are rows, not one wrapped header row.
    if (run.length === 1 || run.length > HEADER_MAX_LINES) for (const r of run) out.push({ row: rows[r], ids: ids[r], line: rowLines[r] });
    else if (run.length > 1) {
      const row = rows[0].map((_, c) => run.map((r) => rows[r][c].trim()).filter(Boolean).join(' '));
      out.push({ row, ids: cellIds.row(row.length), line: rowLines[run[0]] });
    }
    run = [];
  };
  // A label alone in the first column right above the values opens a section of rows ("Effectiveness").
  const section = (r: number) => r === first - 1 && Boolean(rows[r][0]?.trim()) && rows[r].slice(1).every((t) => !t.trim());
  for (let r = 0; r < first; r++) {
    if (!rows[r].some((t) => t.trim())) continue; // an empty line of the header
    if (spanning(r) || section(r)) {
      flush();
      out.push({ row: rows[r], ids: ids[r], line: rowLines[r] });
      continue;
    }
    const prev = run.length ? rowLines[run[run.length - 1]] : null;
    const line = rowLines[r];
    if (prev && line.y - prev.y > WRAPPED_HEADER_MAX_LEADING * Math.max(line.size, prev.size)) flush();
    run.push(r);
  }
  flush();
  rows.splice(0, first, ...out.map((o) => o.row));
  ids.splice(0, first, ...out.map((o) => o.ids));
  rowLines.splice(0, first, ...out.map((o) => o.line));
}

