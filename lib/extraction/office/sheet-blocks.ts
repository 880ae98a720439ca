import type ExcelJS from 'exceljs';
import type { Block } from '@/lib/document/types';
import { LIMITS } from './common';
import { paragraph } from './model';
import { tableFromGrid, type GridRow } from './table-model';
import { cellKey, MAX_COL, MAX_ROW, valueText } from './xlsx-cells';

/*
 * A sheet's cells as blocks of the model, shared by the XLSX and OpenDocument spreadsheet
 * readers: each block of side-touching cells a table (a lone value a paragraph), merged cells
 * once with their spans, placed in reading order among the sheet's drawings.
 */

/** Blocks anchored at a cell (a drawing's charts, pictures and text boxes). */
export interface Placed {
  top: number;
  left: number;
  blocks: Block[];
}

/** The rows and columns a merged cell covers from its own. */
export interface CellSpan {
  rows: number;
  cols: number;
}

/** A merged range of a sheet (1-based, inclusive). */
export interface MergedRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const rowOf = (key: number) => Math.floor(key / (MAX_COL + 1));
const colOf = (key: number) => key % (MAX_COL + 1);

/** A block of side-touching occupied positions: its bounding box and the cells with text in it. */
interface CellBlock {
  top: number;
  bottom: number;
  left: number;
  right: number;
  /** Keys of the block's cells with a value (positions merged cells cover have none). */
  starts: number[];
}

/** Groups occupied positions into blocks of side-touching positions, in reading order. */
function blocksOf(keys: number[], has: (key: number) => boolean, isCell: (key: number) => boolean): CellBlock[] {
  const seen = new Set<number>();
  const blocks: CellBlock[] = [];
  keys.sort((a, b) => a - b);
  const stack: number[] = [];
  const visit = (n: number) => {
    if (!seen.has(n) && has(n)) {
      seen.add(n);
      stack.push(n);
    }
  };
  for (const start of keys) {
    if (seen.has(start)) continue;
    const block: CellBlock = { top: Infinity, bottom: 0, left: Infinity, right: 0, starts: [] };
    stack.push(start);
    seen.add(start);
    while (stack.length) {
      const k = stack.pop()!;
      const row = rowOf(k);
      const col = colOf(k);
      if (row < block.top) block.top = row;
      if (row > block.bottom) block.bottom = row;
      if (col < block.left) block.left = col;
      if (col > block.right) block.right = col;
      if (isCell(k)) block.starts.push(k);
      // The cells above, below, left and right (keys are row * (MAX_COL + 1) + column).
      visit(k - (MAX_COL + 1));
      visit(k + (MAX_COL + 1));
      if (col > 1) visit(k - 1);
      if (col < MAX_COL) visit(k + 1);
    }
    blocks.push(block);
  }
  return blocks;
}

/** An XLSX worksheet's blocks; `merges` are the ranges kept by sanitizeWorksheet. */
export function readSheet(ws: ExcelJS.Worksheet, merges: readonly MergedRange[], drawings: Placed[]): Block[] {
  const spans = new Map<number, CellSpan>();
  const covered = new Set<number>();
  for (const m of merges) {
    spans.set(cellKey(m.top, m.left), { rows: m.bottom - m.top + 1, cols: m.right - m.left + 1 });
    for (let r = m.top; r <= m.bottom; r++) for (let c = m.left; c <= m.right; c++) if (r !== m.top || c !== m.left) covered.add(cellKey(r, c));
  }
  const cells = new Map<number, string>();
  ws.eachRow({ includeEmpty: false }, (row, r) => {
    row.eachCell({ includeEmpty: false }, (cell, c) => {
      if (c > MAX_COL || r > MAX_ROW) return;
      const key = cellKey(r, c);
      // exceljs gives the positions a merged cell covers its value: it is the merged cell's only.
      if (covered.has(key)) return;
      const value = valueText(cell.value, cell.numFmt).trim();
      if (value) cells.set(key, value);
    });
  });
  return sheetBlocks(cells, spans, drawings);
}

/**
 * A sheet's non-empty cells (plain text by cellKey) as blocks: each block of adjacent cells a
 * table whose first row is the header (a lone value, or one row repeating one value, a paragraph),
 * with `spans` the merged cells' extents (by the key of the cell they start at) and `drawings`
 * placed among the blocks by their anchor cells.
 */
export function sheetBlocks(cells: Map<number, string>, spans: ReadonlyMap<number, CellSpan> = new Map(), drawings: Placed[] = []): Block[] {
  // The positions merged cells with text cover beside their own.
  const covered = new Set<number>();
  for (const [key, span] of spans) {
    if (!cells.has(key) || (span.rows <= 1 && span.cols <= 1)) continue;
    const row = rowOf(key);
    const col = colOf(key);
    for (let r = row; r < row + span.rows && r <= MAX_ROW; r++) {
      for (let c = col; c < col + span.cols && c <= MAX_COL; c++) if (r !== row || c !== col) covered.add(cellKey(r, c));
    }
  }
  const parts: Placed[] = [...drawings];
  // Tables are written over their bounding boxes; empty positions count against this budget so
  // that sparse blocks (an L of cells spanning a huge box) stay bounded.
  let area: number = LIMITS.tableCells;
  const has = covered.size ? (key: number) => cells.has(key) || covered.has(key) : (key: number) => cells.has(key);
  const isCell = (key: number) => cells.has(key);
  for (const { top, bottom, left, right, starts } of blocksOf([...cells.keys(), ...covered], has, isCell)) {
    // Positions merged cells cover hold no value of their own: a lone (merged) cell, or one row
    // repeating one value, is a paragraph.
    const first = cells.get(starts[0])!;
    if (starts.length === 1 || (top === bottom && starts.every((k) => cells.get(k) === first))) {
      parts.push({ top, left, blocks: [paragraph(first.replace(/\s+/g, ' '))] });
      continue;
    }
    const width = Math.min(right - left + 1, LIMITS.tableColumns);
    const height = bottom - top + 1;
    const kept = Math.min(height, Math.max(1, Math.floor(Math.max(area, width) / width)));
    const grid: GridRow[] = Array.from({ length: kept }, () => []);
    for (const k of starts) {
      const r = rowOf(k) - top;
      const c = colOf(k) - left;
      if (r >= kept || c >= width) continue;
      const span = spans.get(k);
      grid[r][c] = span
        ? { content: [{ type: 'text', text: cells.get(k)! }], rowSpan: span.rows, colSpan: Math.min(span.cols, width - c) }
        : { content: [{ type: 'text', text: cells.get(k)! }] };
    }
    // Rows that merged cells from above cover whole carry nothing: they go, and the spans shrink.
    const table = tableFromGrid(grid, { headerRows: 1, columns: width, allFilled: true });
    if (!table) continue;
    if (kept < height) table.total_rows = height;
    area = Math.max(0, area - kept * width);
    parts.push({ top, left, blocks: [table] });
  }
  parts.sort((a, b) => a.top - b.top || a.left - b.left);
  return parts.flatMap((p) => p.blocks);
}
