/**
 * Tables cut in two.
 *
 * On a page: a table read from its ruling lines under one read from its text alignment (a boxed
 * total row under a table without rules), or two grids with a gap between them, are one table
 * when they have as many columns, one lies right under the other across the same width and
 * nothing is between them.
 *
 * Over pages (`options.merge_tables`): a table ending a page and one starting the next, see
 * joinTablesOverPages.
 *
 * Either way the lower part's first row is dropped when it repeats the upper part's header row.
 */
import { unionBox } from '@/lib/document/layout';
import type { Box, TableCell } from '@/lib/document/types';
import type { Block } from '../layout/blocks';
import { spansText } from '../layout/blocks';
import { tableCells, tableRowProv, type PageBlocks } from './document';
import {
  PAGE_TABLE_MAX_TOP,
  PAGE_TABLE_MIN_BOTTOM,
  PAGE_TABLE_MIN_OVERLAP,
  PAGE_TABLE_NOTE_MAX_CHARS,
  PAGE_TABLE_NUMERIC_SHARE,
  TABLE_JOIN_MAX_GAP_ROWS,
  TABLE_JOIN_MIN_OVERLAP,
} from '../settings';

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

/**
 * `lower` (on page `lowerPage`) appended to `upper` (on `upperPage`): the lower part's first row
 * dropped when it repeats the upper part's header row; every row keeps its page and region, and
 * the lower part's lines carry their page when it is not the upper part's.
 */
function joined(upper: TableBlock, upperPage: number, lower: TableBlock, lowerPage: number): TableBlock {
  const repeated = lower.rows.length > 1 && sameRow(lower.rows[0], upper.rows[0]);
  const from = repeated ? 1 : 0;
  const rows = lower.rows.slice(from);
  const cells = cellsOf(lower).slice(from);
  const rowProv = tableRowProv(lower, lowerPage).slice(from);
  let geom = repeated && lower.geom && lower.geom.length === lower.rows.length ? lower.geom.slice(1) : (lower.geom ?? []);
  if (lowerPage !== upperPage) geom = geom.map((line) => ({ ...line, page: line.page ?? lowerPage }));
  return {
    kind: 'table',
    rows: [...upper.rows, ...rows],
    cells: [...cellsOf(upper), ...cells],
    geom: [...(upper.geom ?? []), ...geom],
    rowProv: [...tableRowProv(upper, upperPage), ...rowProv],
  };
}

/** Joins each page's tables that continue one another, in place. */
export function joinStackedTables(pages: PageBlocks[]): void {
  for (const page of pages) {
    const out: Block[] = [];
    for (const block of page.blocks) {
      const last = out[out.length - 1];
      if (block.kind === 'table' && last?.kind === 'table' && continues(last, block)) {
        out[out.length - 1] = joined(last, page.page, block, page.page);
        continue;
      }
      out.push(block);
    }
    page.blocks = out;
  }
}

/* ------------------------------------------------------------------ over pages */

/** The region of a table's last part: its lines on the last page they are on. */
function lastPartBox(t: TableBlock, page: number): Box | null {
  const lines = t.geom ?? [];
  const last = Math.max(page, ...lines.map((line) => line.page ?? page));
  const part = lines.filter((line) => (line.page ?? page) === last);
  return part.length ? unionBox(part.map((line) => line.box)) : null;
}

const CONTINUED = /\b(continued|cont'd|cont\.|suite|fortsetzung|forts\.)/i;

/** A short line saying a table goes on ("Table 3 (continued)", "… cont."). */
function continuationNote(b: Block): boolean {
  if (b.kind !== 'text' || b.lines > 2 || b.chars > PAGE_TABLE_NOTE_MAX_CHARS) return false;
  return CONTINUED.test(spansText(b.spans));
}

/**
 * A table's leading rows that are such a line read into the table (one cell, maybe spanning), taken out as
 * text blocks; null when there are none.
 */
function splitLeadingNotes(t: TableBlock): { notes: Block[]; rest: TableBlock } | null {
  let n = 0;
  while (n < t.rows.length - 1) {
    // One cell, which may span columns (its text is at each position it covers).
    const filled = [...new Set(t.rows[n].map((c) => c.trim()).filter(Boolean))];
    if (filled.length !== 1 || filled[0].length > PAGE_TABLE_NOTE_MAX_CHARS || !CONTINUED.test(filled[0])) break;
    n++;
  }
  if (n === 0) return null;
  const perRow = t.geom?.length === t.rows.length;
  const notes: Block[] = t.rows.slice(0, n).map((r, i) => {
    const text = r.map((c) => c.trim()).filter(Boolean)[0];
    const note: Block = { kind: 'text', spans: [{ text, bold: false }], lines: 1, size: 0, bold: false, chars: text.length };
    if (perRow) note.geom = [t.geom![i]];
    return note;
  });
  const rest: TableBlock = { kind: 'table', rows: t.rows.slice(n), cells: cellsOf(t).slice(n), geom: perRow ? t.geom!.slice(n) : t.geom };
  if (t.rowProv) rest.rowProv = t.rowProv.slice(n);
  return { notes, rest };
}

const NUMBER = /^[-+−–(]?[$€£¥]?\s*\d[\d.,\s]*%?\)?$/;

/**
 * Whether `lower` opens with a header row of its own: its first row differs from `upper`'s header
 * and holds words where `upper`'s body has numbers (a column whose cells are numbers).
 */
function ownHeader(upper: TableBlock, lower: TableBlock): boolean {
  const first = lower.rows[0];
  if (!first || sameRow(first, upper.rows[0])) return false;
  const body = upper.rows.slice(1);
  if (body.length === 0) return false;
  return first.some((text, k) => {
    const cell = text.trim();
    if (!cell || NUMBER.test(cell)) return false;
    const filled = body.map((r) => (r[k] ?? '').trim()).filter(Boolean);
    return filled.length > 0 && filled.filter((c) => NUMBER.test(c)).length >= PAGE_TABLE_NUMERIC_SHARE * filled.length;
  });
}

/** Whether `lower`, first on the next page, continues `upper` (on `upperPage`), last on its page. */
function continuesOnNextPage(upper: TableBlock, upperPage: number, lower: TableBlock): boolean {
  if (widthOf(upper) < 2 || widthOf(upper) !== widthOf(lower) || ownHeader(upper, lower)) return false;
  const a = lastPartBox(upper, upperPage);
  const b = boxOf(lower);
  if (!a || !b) return false;
  // The upper part runs to the foot of its page and the lower one starts at the head of the next.
  if (a[3] < PAGE_TABLE_MIN_BOTTOM || b[1] > PAGE_TABLE_MAX_TOP) return false;
  const overlap = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  return overlap >= PAGE_TABLE_MIN_OVERLAP * Math.max(a[2] - a[0], b[2] - b[0]);
}

/**
 * A table that ends a page and one that starts the next page (a short "continued" line aside)
 * with as many columns across the same width are one table: the lower part's rows join the upper
 * one, on the upper part's page, each row keeping its own page and region (`rowProv`, and the
 * page on its lines for the layout record). A table over several pages is joined page by page.
 */
export function joinTablesOverPages(pages: PageBlocks[]): void {
  // The table the previous page ended with, and where it is now.
  const state: { open: OpenTable | null } = { open: null };
  for (const page of pages) {
    const prev = state.open;
    state.open = null;
    let first = 0;
    while (first < page.blocks.length && continuationNote(page.blocks[first])) first++;
    const found = page.blocks[first];
    if (prev && found?.kind === 'table') {
      const upper = prev.page.blocks[prev.index] as TableBlock;
      const split = splitLeadingNotes(found);
      const lower = split?.rest ?? found;
      if (continuesOnNextPage(upper, prev.page.page, lower)) {
        prev.page.blocks[prev.index] = joined(upper, prev.page.page, lower, page.page);
        page.blocks.splice(first, 1, ...(split?.notes ?? []));
        first += split?.notes.length ?? 0;
        // The table took the whole page (a note aside): it may go on to the next one.
        if (page.blocks.length === first) {
          state.open = prev;
          continue;
        }
      }
    }
    const lastIndex = page.blocks.length - 1;
    if (lastIndex >= 0 && page.blocks[lastIndex].kind === 'table') state.open = { page, index: lastIndex };
  }
}

interface OpenTable {
  page: PageBlocks;
  index: number;
}
