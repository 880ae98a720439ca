import type { Inline, Table, TableCell } from '@/lib/document/types';
import { hasText } from './model';

/*
 * Tables of the model from a grid of positions, the way Office formats describe them: a merged
 * cell sits at the position where it starts, with the rows and columns it covers, and the source
 * marks the covered positions (a:tbl's hMerge/vMerge, ODF's covered-table-cell, XLSX's merged
 * ranges). The model's rows hold only the cells that start in them (lib/document/types.ts), so
 * the spans must agree with the cells around them: a span is cut short where it would cover a
 * cell with text of its own (damaged or odd files), so no text is lost and no cell moves.
 */

export interface GridCell {
  content: Inline[];
  rowSpan?: number;
  colSpan?: number;
}

/** A grid row: positions by column index; holes and undefined are empty or covered positions. */
export type GridRow = (GridCell | undefined)[];

export interface GridOptions {
  /** Header rows at the top of the grid (before empty rows are dropped). */
  headerRows: number;
  /** Columns of the grid when its rows do not say (spans may cover positions after a row's last cell). */
  columns?: number;
  /** Every cell of the grid has text (the caller checked): no need to look again. */
  allFilled?: boolean;
  /** Drop rows where no cell with text starts (the spans crossing them shrink); default true. */
  dropEmptyRows?: boolean;
}

function spanOf(value: number | undefined, max: number): number {
  const n = Math.floor(value ?? 1);
  return Number.isFinite(n) && n > 1 ? Math.min(n, max) : 1;
}

/** The table of a grid, or undefined when it has no text. */
export function tableFromGrid(grid: readonly GridRow[], options: GridOptions): Table | undefined {
  // Which positions hold a cell with text (rows of the grid may be sparse).
  const filled: readonly (readonly unknown[])[] = options.allFilled
    ? grid
    : grid.map((row) => {
        const out: boolean[] = [];
        row.forEach((cell, c) => {
          if (cell !== undefined && hasText(cell.content)) out[c] = true;
        });
        return out;
      });
  const isFilled = (r: number, c: number) => Boolean(filled[r][c]);
  const keep = filled.map((row) => options.dropEmptyRows === false || row.length > 0);
  if (!filled.some((row) => row.length > 0)) return undefined;
  // Spans end at the grid's edges: the widest row and the last row.
  const width = grid.reduce((max, row) => Math.max(max, row.length), options.columns ?? 0);
  // The positions a spanning cell covers beside its own, by row; and the spans cells got.
  const taken = new Map<number, Set<number>>();
  const isTaken = (r: number, c: number) => taken.get(r)?.has(c) ?? false;
  const spans = new Map<number, Map<number, { rows: number; cols: number }>>();
  grid.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (!cell || !isFilled(r, c)) return;
      const wantedCols = spanOf(cell.colSpan, width - c);
      const wantedRows = spanOf(cell.rowSpan, grid.length - r);
      if (wantedCols === 1 && wantedRows === 1) return;
      // A filled cell is never covered: spans stop before them.
      const free = (rr: number, cc: number) => !isTaken(rr, cc) && !isFilled(rr, cc);
      let cols = 1;
      while (cols < wantedCols && free(r, c + cols)) cols++;
      let rows = 1;
      const rowFree = (rr: number) => {
        for (let k = 0; k < cols; k++) if (!free(rr, c + k)) return false;
        return true;
      };
      while (rows < wantedRows && rowFree(r + rows)) rows++;
      if (rows === 1 && cols === 1) return;
      for (let dr = 0; dr < rows; dr++) {
        let set = taken.get(r + dr);
        if (!set) taken.set(r + dr, (set = new Set()));
        for (let dc = dr === 0 ? 1 : 0; dc < cols; dc++) set.add(c + dc);
      }
      let byColumn = spans.get(r);
      if (!byColumn) spans.set(r, (byColumn = new Map()));
      byColumn.set(c, { rows, cols });
    });
  });
  const rows: TableCell[][] = [];
  let headerRows = 0;
  grid.forEach((row, r) => {
    if (!keep[r]) return;
    if (r < options.headerRows) headerRows++;
    const cells: TableCell[] = [];
    const rowTaken = taken.get(r);
    // Positions after a row's last cell are empty or covered: the renderer pads short rows.
    const end = filled[r].length;
    for (let c = 0; c < end; c++) {
      if (!isFilled(r, c)) {
        // An empty position, unless a span from above or the left covers it.
        if (!rowTaken?.has(c)) cells.push({ content: [] });
        continue;
      }
      const cell = row[c]!;
      const span = spans.get(r)?.get(c);
      // A cell without spans is its own table cell (a grid cell is one); others get theirs.
      if (!span && cell.rowSpan === undefined && cell.colSpan === undefined) {
        cells.push(cell);
        continue;
      }
      const out: TableCell = { content: cell.content };
      if (span) {
        // Rows of the span that are dropped do not count.
        let rowSpan = 0;
        for (let k = 0; k < span.rows; k++) if (keep[r + k]) rowSpan++;
        if (rowSpan > 1) out.row_span = rowSpan;
        if (span.cols > 1) out.col_span = span.cols;
      }
      cells.push(out);
    }
    rows.push(cells);
  });
  return { type: 'table', rows, header_rows: headerRows };
}
