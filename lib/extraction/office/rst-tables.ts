import type { Inline, Table, TableCell } from '@/lib/document/types';

/*
 * reStructuredText tables (rst.ts): grid tables ("+---+---+" borders, "|" between cells, "+===+"
 * under the header) and simple tables ("=====  =====" borders, a second border under the
 * header). Tables with cells spanning rows or columns are not read here: the caller keeps them
 * as written.
 */

type Cells = (text: string) => Inline[];

const GRID_BORDER = /^\+(?:[-=]+\+)+\s*$/;
const SIMPLE_BORDER = /^=+(?: +=+)+\s*$/;

export const isGridBorder = (line: string) => GRID_BORDER.test(line);
export const isSimpleBorder = (line: string) => SIMPLE_BORDER.test(line);

function cellOf(lines: string[], inline: Cells): TableCell {
  const value = lines.map((l) => l.trim()).filter(Boolean).join(' ');
  return { content: value ? inline(value) : [] };
}

/** A grid table's lines (borders included), or undefined when it is not a plain grid. */
export function gridTable(lines: string[], inline: Cells): Table | undefined {
  const border = lines[0].trimEnd();
  const stops: number[] = [];
  for (let i = 0; i < border.length; i++) if (border[i] === '+') stops.push(i);
  const rows: TableCell[][] = [];
  let headerRows = 0;
  let region: string[][] = [];
  for (const raw of lines.slice(1)) {
    const line = raw.trimEnd();
    if (GRID_BORDER.test(line)) {
      // Every border must have its "+" where the first has them: no spanning cells.
      if (line.length !== border.length || stops.some((s) => line[s] !== '+')) return undefined;
      if (!region.length) return undefined;
      rows.push(region.map((cellLines) => cellOf(cellLines, inline)));
      region = [];
      if (line.includes('=')) headerRows = rows.length;
      continue;
    }
    if (stops.some((s) => line[s] !== '|')) return undefined;
    if (!region.length) region = stops.slice(1).map(() => []);
    stops.slice(1).forEach((stop, k) => region[k].push(line.slice(stops[k] + 1, stop)));
  }
  if (region.length || rows.length === 0) return undefined;
  return { type: 'table', rows, header_rows: headerRows };
}

/** A simple table's lines (borders included), or undefined when it is not a plain one. */
export function simpleTable(lines: string[], inline: Cells): Table | undefined {
  const columns: number[] = [];
  const border = lines[0];
  for (let i = 0; i < border.length; i++) if (border[i] === '=' && (i === 0 || border[i - 1] === ' ')) columns.push(i);
  const borders: number[] = [];
  const rows: string[][][] = [];
  for (const line of lines.slice(1)) {
    if (SIMPLE_BORDER.test(line)) {
      borders.push(rows.length);
      continue;
    }
    // Column-span underlines ("-----  ---") are not read.
    if (/^-+(?: +-+)*\s*$/.test(line)) return undefined;
    const cells = columns.map((start, k) => line.slice(start, k + 1 < columns.length ? columns[k + 1] : undefined));
    // A line whose first column is blank continues the row above.
    if (!cells[0].trim() && rows.length) rows[rows.length - 1].forEach((cell, k) => cell.push(cells[k]));
    else rows.push(cells.map((c) => [c]));
  }
  if (rows.length === 0 || borders[borders.length - 1] !== rows.length) return undefined;
  const headerRows = borders.length >= 2 ? borders[0] : 0;
  return { type: 'table', rows: rows.map((row) => row.map((cellLines) => cellOf(cellLines, inline))), header_rows: headerRows };
}
