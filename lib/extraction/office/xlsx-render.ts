import type ExcelJS from 'exceljs';
import { LIMITS } from './common';
import { escapeCell, escapeText, renderTable } from './markdown';
import { cellKey, MAX_COL, MAX_ROW, valueText } from './xlsx-cells';

/*
 * A sheet's cells as Markdown: blocks of side-touching cells become tables (a lone value a line),
 * placed in reading order among the sheet's drawings.
 */

/** Groups non-empty cells into blocks of side-touching cells, in reading order. */
function blocksOf(cells: Map<number, string>): number[][] {
  const key = (row: number, col: number) => row * (MAX_COL + 1) + col;
  const seen = new Set<number>();
  const blocks: number[][] = [];
  const sorted = [...cells.keys()].sort((a, b) => a - b);
  for (const start of sorted) {
    if (seen.has(start)) continue;
    const block: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const k = stack.pop()!;
      block.push(k);
      const row = Math.floor(k / (MAX_COL + 1));
      const col = k % (MAX_COL + 1);
      for (const n of [key(row - 1, col), key(row + 1, col), key(row, col - 1), key(row, col + 1)]) {
        if (!seen.has(n) && cells.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    blocks.push(block);
  }
  return blocks;
}

export interface Placed {
  top: number;
  left: number;
  markdown: string;
}

export function renderSheet(ws: ExcelJS.Worksheet, drawings: Placed[]): string {
  const cells = new Map<number, string>();
  ws.eachRow({ includeEmpty: false }, (row, r) => {
    row.eachCell({ includeEmpty: false }, (cell, c) => {
      if (c > MAX_COL || r > MAX_ROW) return;
      const text = valueText(cell.value, cell.numFmt).trim();
      if (text) cells.set(cellKey(r, c), text);
    });
  });
  return renderCellBlocks(cells, drawings);
}

/**
 * A sheet's non-empty cells (plain text by cellKey) as Markdown: each block of adjacent cells a
 * GFM table (a lone value as a line), with `drawings` placed among them by their anchor cells.
 * Shared with the OpenDocument spreadsheet reader.
 */
export function renderCellBlocks(cells: Map<number, string>, drawings: Placed[] = []): string {
  const parts: Placed[] = [...drawings];
  // Tables are rendered over their bounding boxes; empty padding counts against this budget so
  // that sparse blocks (an L of cells spanning a huge box) stay bounded.
  let area: number = LIMITS.tableCells;
  for (const block of blocksOf(cells)) {
    let top = Infinity;
    let bottom = 0;
    let left = Infinity;
    let right = 0;
    for (const k of block) {
      const row = Math.floor(k / (MAX_COL + 1));
      const col = k % (MAX_COL + 1);
      top = Math.min(top, row);
      bottom = Math.max(bottom, row);
      left = Math.min(left, col);
      right = Math.max(right, col);
    }
    const members = new Set(block);
    const values = block.map((k) => cells.get(k)!);
    let markdown: string;
    if (top === bottom && new Set(values).size === 1) {
      markdown = escapeText(values[0].replace(/\s+/g, ' '));
    } else {
      const width = Math.min(right - left + 1, LIMITS.tableColumns);
      const rowLimit = Math.max(1, Math.floor(Math.max(area, width) / width));
      const rows: string[][] = [];
      for (let r = top; r <= bottom && rows.length < rowLimit; r++) {
        const row: string[] = [];
        for (let c = left; c < left + width; c++) {
          const k = r * (MAX_COL + 1) + c;
          row.push(members.has(k) ? escapeCell(cells.get(k)!) : '');
        }
        rows.push(row);
      }
      markdown = renderTable(rows, Number.POSITIVE_INFINITY, bottom - top + 1);
      area = Math.max(0, area - rows.length * width);
    }
    parts.push({ top, left, markdown });
  }
  parts.sort((a, b) => a.top - b.top || a.left - b.left);
  return parts.map((p) => p.markdown).join('\n\n');
}
