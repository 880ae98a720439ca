import type { Table, TableCell } from './types';
import type { TableLimits } from './settings';

export interface TableGrid {
  /** Each row as wide as the table: a cell where it starts, null where a spanning cell covers the position or the row is short. */
  rows: (TableCell | null)[][];
  width: number;
  /** Rows kept (the cell limit may cut the table). */
  keptRows: number;
  /** Rows the table has (its `total_rows` when the extractor already left rows out). */
  totalRows: number;
}

/**
 * Places a table's cells on a grid as HTML does: each row's cells go left to right into the
 * positions that no spanning cell from above or from the left has taken.
 */
export function tableGrid(table: Table, limits: TableLimits): TableGrid {
  const covered: boolean[][] = table.rows.map(() => []);
  const placed: (TableCell | null)[][] = table.rows.map(() => []);
  let width = 0;
  table.rows.forEach((row, r) => {
    let c = 0;
    for (const cell of row) {
      while (covered[r][c]) c++;
      if (c >= limits.columns) break;
      const colSpan = Math.max(1, Math.min(Math.floor(cell.col_span ?? 1), limits.columns - c));
      const rowSpan = Math.max(1, Math.min(Math.floor(cell.row_span ?? 1), table.rows.length - r));
      placed[r][c] = cell;
      for (let dr = 0; dr < rowSpan; dr++) for (let dc = 0; dc < colSpan; dc++) covered[r + dr][c + dc] = true;
      c += colSpan;
      width = Math.max(width, c);
    }
  });
  for (const row of covered) width = Math.max(width, Math.min(row.length, limits.columns));
  const totalRows = Math.max(table.total_rows ?? 0, table.rows.length);
  const keptRows = width === 0 ? 0 : Math.max(1, Math.min(table.rows.length, Math.floor(limits.cells / width)));
  const rows = placed.slice(0, keptRows).map((row) => Array.from({ length: width }, (_, i) => row[i] ?? null));
  return { rows, width, keptRows: width === 0 ? 0 : keptRows, totalRows };
}
