import type { Block, Inline, Table, TableCell } from '@/lib/document/types';
import { LIMITS } from './common';
import { ELEMENT_NODE, tagOf } from './html-parse';
import { hasContent } from './inlines';

/*
 * An HTML <table> → a table block. Rows come from the table's own <thead>, <tbody>, <tfoot> and
 * <tr> children (a table inside a cell is that cell's text), cells keep their rowspan and colspan
 * (written once by the renderer), rows without text are left out, and <thead> rows (or leading
 * rows of <th> cells only) are the header rows. A table of one cell is a layout box, not data:
 * its content stays blocks.
 *
 * Spans are bounded as the Markdown is: at most LIMITS.tableColumns columns, and a span that
 * would take the table past LIMITS.tableCells positions is dropped (the cell keeps its text).
 */

export interface CellReader {
  /** Whether a row, cell, section or caption is read at all (hidden ones are not). */
  keep(el: Element): boolean;
  /** An element's content as blocks. */
  blocks(el: Element): Block[];
  /** Blocks as one line of runs (a cell's text). */
  flatten(blocks: Block[]): Inline[];
}

const SECTIONS = new Set(['THEAD', 'TBODY', 'TFOOT', 'TR']);
const ROWS = new Set(['TR']);
const CELLS = new Set(['TD', 'TH']);
const CAPTION = new Set(['CAPTION']);

function childElements(el: Element, names: ReadonlySet<string>, read: CellReader): Element[] {
  const out: Element[] = [];
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE && names.has(tagOf(child as Element)) && read.keep(child as Element)) out.push(child as Element);
  }
  return out;
}

function spanOf(cell: Element, attr: string, max: number): number {
  const value = Number.parseInt(cell.getAttribute(attr) ?? '1', 10);
  if (!Number.isFinite(value) || value < 1) return 1;
  return Math.max(1, Math.min(value, max));
}

interface Placed {
  cell: TableCell;
  rowSpan: number;
  header: boolean;
}

/** The blocks an HTML table element gives: a table, or a layout box's content, or its caption alone. */
export function readTable(table: Element, read: CellReader): Block[] {
  const captionEl = childElements(table, CAPTION, read)[0];
  const caption = captionEl ? read.flatten(read.blocks(captionEl)) : [];
  const captionBlocks: Block[] = hasContent(caption) ? [{ type: 'paragraph', content: caption }] : [];

  const rows: { cells: Element[]; head: boolean }[] = [];
  for (const child of childElements(table, SECTIONS, read)) {
    const name = tagOf(child);
    if (name === 'TR') rows.push({ cells: childElements(child, CELLS, read), head: false });
    else for (const tr of childElements(child, ROWS, read)) rows.push({ cells: childElements(tr, CELLS, read), head: name === 'THEAD' });
  }
  const count = rows.reduce((n, row) => n + row.cells.length, 0);
  if (count === 1) {
    const cell = rows.find((row) => row.cells.length)!.cells[0];
    return [...captionBlocks, ...read.blocks(cell)];
  }

  // Each row's cells go left to right into the positions no spanning cell above has taken.
  const covered: boolean[][] = rows.map(() => []);
  const placed: Placed[][] = rows.map(() => []);
  let area = 0;
  rows.forEach((row, r) => {
    let c = 0;
    for (const el of row.cells) {
      while (covered[r][c]) c++;
      if (c >= LIMITS.tableColumns) break;
      let colSpan = spanOf(el, 'colspan', LIMITS.tableColumns - c);
      let rowSpan = spanOf(el, 'rowspan', rows.length - r);
      if (area + colSpan * rowSpan > LIMITS.tableCells) colSpan = rowSpan = 1;
      area += colSpan * rowSpan;
      for (let dr = 0; dr < rowSpan; dr++) for (let dc = 0; dc < colSpan; dc++) covered[r + dr][c + dc] = true;
      const cell: TableCell = { content: read.flatten(read.blocks(el)) };
      if (colSpan > 1) cell.col_span = colSpan;
      placed[r].push({ cell, rowSpan, header: tagOf(el) === 'TH' });
      c += colSpan;
    }
  });

  // Rows without text are left out; a cell spanning them covers one row fewer for each.
  const kept = placed.map((cells) => cells.some((p) => hasContent(p.cell.content)));
  const keptBefore: number[] = [0];
  kept.forEach((k, r) => keptBefore.push(keptBefore[r] + (k ? 1 : 0)));
  const out: TableCell[][] = [];
  // Header rows: the <thead> rows, or else the leading rows of <th> cells only.
  const fromHead = rows.some((row) => row.head);
  const header: boolean[] = [];
  placed.forEach((cells, r) => {
    if (!kept[r]) return;
    for (const p of cells) {
      const rowSpan = keptBefore[Math.min(r + p.rowSpan, kept.length)] - keptBefore[r];
      if (rowSpan > 1) p.cell.row_span = rowSpan;
    }
    out.push(cells.map((p) => p.cell));
    header.push(fromHead ? rows[r].head : cells.length > 0 && cells.every((p) => p.header));
  });
  if (out.length === 0) return captionBlocks;
  let headerRows = 0;
  while (headerRows < out.length && header[headerRows]) headerRows++;
  const block: Table = { type: 'table', rows: out, header_rows: headerRows };
  if (captionBlocks.length) block.caption = caption;
  return [block];
}
