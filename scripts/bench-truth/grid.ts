// Tables as grids (a spanning cell at every position it covers) and the competition's metric on
// them: the adjacency relations between non-empty cells.
import { TABLE_LIMITS } from '@/lib/document/settings';
import { tableGrid } from '@/lib/document/table-grid';
import type { Inline, Table } from '@/lib/document/types';
import type { TruthCell } from './truth';

/** One cell of a table; every grid position the cell covers holds the same object. */
export interface GridCell {
  /** Unique within its grid: positions with the same id are one (spanning) cell. */
  id: number;
  text: string;
  /** The text as compared (normalizeText); '' for an empty cell. */
  key: string;
}

/** Rows of equal length; null where no cell is. */
export type Grid = (GridCell | null)[][];

/**
 * The text as the cell tuples compare it: NFKC, lower case, every whitespace character (Unicode
 * White_Space: spaces, line breaks, no-break spaces) and invisible format character (soft
 * hyphen, zero-width space and joiners, \p{Cf}) removed. Punctuation is kept: the competition
 * compares cell texts with whitespace stripped, not otherwise loosened.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\s\p{Cf}]/gu, '');
}

/** Words of a text (NFKC, lower case), for matching tables by what they hold. */
export function words(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().replace(/\p{Cf}/gu, '').split(/\s+/u).filter(Boolean);
}

/** A cell's plain text: text runs as written, a line break as a space, formulas as LaTeX, footnote marks by label. */
export function inlineText(content: readonly Inline[]): string {
  return content
    .map((inline) => {
      switch (inline.type) {
        case 'text':
          return inline.text;
        case 'break':
          return ' ';
        case 'math':
          return inline.latex;
        case 'footnote_ref':
          return inline.label;
      }
    })
    .join('');
}

const cell = (id: number, text: string): GridCell => ({ id, text, key: normalizeText(text) });

/**
 * A model table's grid: cells placed as the renderer places them (tableGrid: HTML's rule, a
 * spanning cell once in its first row), then each spanning cell copied to every position it covers.
 */
export function modelGrid(table: Table): Grid {
  const placed = tableGrid(table, TABLE_LIMITS);
  const grid: Grid = placed.rows.map(() => Array.from({ length: placed.width }, () => null));
  let id = 0;
  placed.rows.forEach((row, r) =>
    row.forEach((source, c) => {
      if (!source) return;
      const target = cell(id++, inlineText(source.content));
      // The same clamping as tableGrid's: a span stops at the table's last row and last column.
      const rowSpan = Math.max(1, Math.min(Math.floor(source.row_span ?? 1), grid.length - r));
      const colSpan = Math.max(1, Math.min(Math.floor(source.col_span ?? 1), placed.width - c));
      for (let dr = 0; dr < rowSpan; dr++) for (let dc = 0; dc < colSpan; dc++) grid[r + dr][c + dc] ??= target;
    }),
  );
  return grid;
}

/**
 * A truth table's grid from its cells (of all its regions), shifted so that the first row and
 * column are 0. Where two cells claim a position (a fault of the truth), the first keeps it.
 */
export function truthGrid(cells: readonly TruthCell[]): Grid {
  if (cells.length === 0) return [];
  const top = Math.min(...cells.map((c) => c.row));
  const left = Math.min(...cells.map((c) => c.col));
  const rows = Math.max(...cells.map((c) => c.endRow)) - top + 1;
  const cols = Math.max(...cells.map((c) => c.endCol)) - left + 1;
  const grid: Grid = Array.from({ length: rows }, () => Array.from({ length: cols }, () => null));
  cells.forEach((c, id) => {
    const target = cell(id, c.text);
    for (let r = c.row; r <= c.endRow; r++) for (let k = c.col; k <= c.endCol; k++) grid[r - top][k - left] ??= target;
  });
  return grid;
}

/** Grids one below the other (a table continued on the next page), padded to the widest. */
export function stackGrids(grids: readonly Grid[]): Grid {
  const width = Math.max(0, ...grids.map((g) => g[0]?.length ?? 0));
  const out: Grid = [];
  let offset = 0;
  for (const grid of grids) {
    const renumbered = new Map<GridCell, GridCell>();
    let most = -1;
    for (const row of grid) {
      out.push(
        Array.from({ length: width }, (_, c) => {
          const source = row[c];
          if (!source) return null;
          most = Math.max(most, source.id);
          let target = renumbered.get(source);
          if (!target) renumbered.set(source, (target = { ...source, id: source.id + offset }));
          return target;
        }),
      );
    }
    offset += most + 1;
  }
  return out;
}

export type Direction = 'right' | 'below';

/** One adjacency relation: a cell's text, its neighbour's text, and where the neighbour is. */
export interface Adjacency {
  from: string;
  to: string;
  direction: Direction;
}

/**
 * The competition's adjacency relations: from every grid position holding a non-empty cell, the
 * nearest non-empty cell to its right in the same row and below it in the same column, skipping
 * empty positions and positions of the same (spanning) cell. A pair of cells gives one relation
 * per direction however many grid positions they share an edge along.
 */
export function adjacencies(grid: Grid): Adjacency[] {
  const out: Adjacency[] = [];
  const seen = new Set<string>();
  const rows = grid.length;
  const cols = grid[0]?.length ?? 0;
  const at = (r: number, c: number) => grid[r]?.[c] ?? null;
  const look = (r: number, c: number, dr: number, dc: number, direction: Direction) => {
    const from = at(r, c)!;
    for (let rr = r + dr, cc = c + dc; rr < rows && cc < cols; rr += dr, cc += dc) {
      const next = at(rr, cc);
      if (!next || next.id === from.id || next.key === '') continue;
      const pair = `${from.id}:${next.id}:${direction}`;
      if (!seen.has(pair)) {
        seen.add(pair);
        out.push({ from: from.key, to: next.key, direction });
      }
      return;
    }
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (!at(r, c) || at(r, c)!.key === '') continue;
      look(r, c, 0, 1, 'right');
      look(r, c, 1, 0, 'below');
    }
  }
  return out;
}

/** Relations both lists hold, each counted as often as the rarer of the two has it. */
export function commonAdjacencies(truth: readonly Adjacency[], output: readonly Adjacency[]): number {
  const key = (a: Adjacency) => `${a.from}\u0000${a.to}\u0000${a.direction}`;
  const counts = new Map<string, number>();
  for (const a of truth) counts.set(key(a), (counts.get(key(a)) ?? 0) + 1);
  let common = 0;
  for (const a of output) {
    const left = counts.get(key(a)) ?? 0;
    if (left > 0) {
      common++;
      counts.set(key(a), left - 1);
    }
  }
  return common;
}

/** The distinct cells of a grid, top to bottom, left to right. */
export function gridCells(grid: Grid): GridCell[] {
  const seen = new Set<GridCell>();
  for (const row of grid) for (const c of row) if (c) seen.add(c);
  return [...seen];
}
