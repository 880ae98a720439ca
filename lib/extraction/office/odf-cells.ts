import { LIMITS } from './common';
import type { CellSpan } from './sheet-blocks';
import { type XmlElement, childElements } from './xml';
import { cellKey } from './xlsx-cells';

/*
 * Helpers shared by the OpenDocument reader (odf.ts), and the cells of a spreadsheet table for
 * sheetBlocks (the XLSX layout: each block of adjacent cells a table). Repeats are expanded only
 * for cells with text (Calc writes its empty grid as one row repeated a million times), a merged
 * cell is one cell with its spans (as the XLSX reader has it), and LIMITS.cellsPerSheet bounds
 * the positions the cells and their spans cover.
 */

/** Most rows and columns a sheet has (Calc's and Excel's grid). */
const MAX_ROW = 1_048_576;
const MAX_COL = 16_384;

/** Elements whose text is not part of the document's text. */
export const SKIPPED = new Set(['page-number', 'sequence-decls', 'variable-decls', 'user-field-decls', 'forms', 'tracked-changes', 'annotation', 'annotation-end', 'note-citation']);

/** A positive integer attribute (repeat and span counts), capped; `fallback` when absent or invalid. */
export function int(value: string | undefined, fallback: number, max: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : fallback;
}

/** The rows of a table, through its header-rows and row-group wrappers. */
export function tableRows(table: XmlElement): XmlElement[] {
  const rows: XmlElement[] = [];
  for (const child of childElements(table)) {
    if (child.name === 'table-row') rows.push(child);
    else if (/^table-(header-)?rows$|^table-row-group$/.test(child.name)) rows.push(...tableRows(child));
  }
  return rows;
}

/** Charts, pictures and shapes anchored in a cell are not its value. */
const DRAWINGS = new Set(['frame', 'custom-shape', 'g', 'rect', 'ellipse', 'line', 'connector', 'polygon', 'path', 'image', 'object']);

/** A cell's text; annotations and notes left out. */
function plainText(el: XmlElement): string {
  let out = '';
  for (const child of el.children) {
    if (typeof child === 'string') out += child;
    else if (child.name === 's') out += ' '.repeat(int(child.attrs.c, 1, 100));
    else if (child.name === 'p' || child.name === 'h') out += ` ${plainText(child)} `;
    else if (child.name === 'tab' || child.name === 'line-break') out += ' ';
    else if (child.name !== 'note' && !SKIPPED.has(child.name) && !DRAWINGS.has(child.name)) out += plainText(child);
  }
  return out;
}

export interface SheetCells {
  /** Non-empty cells by cellKey. */
  cells: Map<number, string>;
  /** Merged cells' spans, by the key of the cell they start at. */
  spans: Map<number, CellSpan>;
  /** Positions the cells and their spans cover (what LIMITS.cellsPerSheet bounds). */
  positions: number;
  truncated: boolean;
}

/** A sheet's non-empty cells, their spans, and whether LIMITS.cellsPerSheet cut it. */
export function sheetCells(table: XmlElement): SheetCells {
  const cells = new Map<number, string>();
  const spans = new Map<number, CellSpan>();
  let positions = 0;
  let r = 0;
  for (const row of tableRows(table)) {
    const rowRepeat = int(row.attrs['number-rows-repeated'], 1, MAX_ROW);
    const values: { col: number; text: string; rows: number; cols: number }[] = [];
    let area = 0;
    let c = 0;
    for (const cell of childElements(row)) {
      if (cell.name !== 'table-cell' && cell.name !== 'covered-table-cell') continue;
      const repeat = int(cell.attrs['number-columns-repeated'], 1, MAX_COL);
      const text = plainText(cell).replace(/\s+/g, ' ').trim();
      const rows = int(cell.attrs['number-rows-spanned'], 1, 1000);
      const cols = int(cell.attrs['number-columns-spanned'], 1, 1000);
      for (let i = 0; text && i < repeat && c + i < MAX_COL; i++) {
        values.push({ col: c + i + 1, text, rows, cols });
        area += rows * cols;
      }
      c += repeat;
    }
    for (let i = 0; values.length && i < rowRepeat && r + i < MAX_ROW; i++) {
      if (positions + area > LIMITS.cellsPerSheet) return { cells, spans, positions, truncated: true };
      for (const v of values) {
        const key = cellKey(r + i + 1, v.col);
        cells.set(key, v.text);
        if (v.rows > 1 || v.cols > 1) spans.set(key, { rows: v.rows, cols: v.cols });
      }
      positions += area;
    }
    r += rowRepeat;
  }
  return { cells, spans, positions, truncated: false };
}

