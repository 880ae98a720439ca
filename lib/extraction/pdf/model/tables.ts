/**
 * Tables cut in two on a page: a table read from its ruling lines under one read from its text
 * alignment (a boxed total row under a table without rules), or two grids with a gap between
 * them, are one table when they have as many columns, one lies right under the other across the
 * same width and nothing is between them. The lower part's first row is dropped when it repeats
 * the upper part's header row.
 */
import { unionBox } from '@/lib/document/layout';
import type { Box, TableCell } from '@/lib/document/types';
import type { Block } from '../layout/blocks';
import { tableCells, type PageBlocks } from './document';
import { TABLE_JOIN_MAX_GAP_ROWS, TABLE_JOIN_MIN_OVERLAP } from '../settings';

type TableBlock = Extract<Block, { kind: 'table' }>;

/** The union of a block's line boxes (page fractions), or null without them. */
function boxOf(b: Block): Box | null {
  return b.geom?.length ? unionBox(b.geom.map((line) => line.box)) : null;
}

const widthOf = (t: TableBlock) => t.rows[0]?.length ?? 0;

function cellsOf(t: TableBlock): TableCell[][] {
  return t.cells ?? tableCells(t.rows);
}

/** Whether `lower` continues `upper` on the page (see the file comment). */
function continues(upper: TableBlock, lower: TableBlock): boolean {
  if (widthOf(upper) < 2 || widthOf(upper) !== widthOf(lower) || upper.rows.length === 0) return false;
  const a = boxOf(upper);
  const b = boxOf(lower);
  if (!a || !b) return false;
  const rowHeight = (a[3] - a[1]) / upper.rows.length;
  const gap = b[1] - a[3];
  // Strictly under it: tables whose boxes overlap are side by side in some way, not stacked.
  if (gap < 0 || gap > TABLE_JOIN_MAX_GAP_ROWS * rowHeight) return false;
  const overlap = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  return overlap >= TABLE_JOIN_MIN_OVERLAP * Math.min(a[2] - a[0], b[2] - b[0]);
}

const sameRow = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t.trim() === b[i].trim());

/** Joins each page's tables that continue one another, in place. */
export function joinStackedTables(pages: PageBlocks[]): void {
  for (const page of pages) {
    const out: Block[] = [];
    for (const block of page.blocks) {
      const last = out[out.length - 1];
      if (block.kind === 'table' && last?.kind === 'table' && continues(last, block)) {
        const repeated = block.rows.length > 1 && sameRow(block.rows[0], last.rows[0]);
        const rows = repeated ? block.rows.slice(1) : block.rows;
        const cells = repeated ? cellsOf(block).slice(1) : cellsOf(block);
        const geom = repeated && block.geom && block.geom.length === block.rows.length ? block.geom.slice(1) : block.geom;
        out[out.length - 1] = { kind: 'table', rows: [...last.rows, ...rows], cells: [...cellsOf(last), ...cells], geom: [...(last.geom ?? []), ...(geom ?? [])] };
        continue;
      }
      out.push(block);
    }
    page.blocks = out;
  }
}
