// Quarry's output tables, read from the document model, and the pairing of true tables with them.
import type { Block, Box, QuarryDocument, Table } from '@/lib/document/types';
import { gridCells, modelGrid, words, type Grid } from './grid';
import type { PointBox, TruthRegion, TruthTable } from './truth';

export interface PageSize {
  width: number;
  height: number;
}

/** A table of the output, in document order. */
export interface OutputTable {
  index: number;
  /** Its prov.page, else its page section's number; 0 when neither says. */
  page: number;
  /** prov.bbox: page fractions, origin top-left. */
  bbox: Box | null;
  grid: Grid;
  table: Table;
}

/** Every table of a document (inside page sections, lists, quotes, footnotes), and the page sizes its sections give. */
export function outputTables(document: QuarryDocument): { tables: OutputTable[]; pageSizes: Map<number, PageSize> } {
  const tables: OutputTable[] = [];
  const pageSizes = new Map<number, PageSize>();
  const walk = (blocks: readonly Block[], page: number) => {
    for (const block of blocks) {
      switch (block.type) {
        case 'section':
          if (block.kind === 'page' && block.page !== undefined && block.width && block.height) pageSizes.set(block.page, { width: block.width, height: block.height });
          walk(block.content, block.page ?? page);
          break;
        case 'table':
          for (const part of pageParts(block, block.prov?.page ?? page)) tables.push({ index: tables.length, ...part, grid: modelGrid(part.table), table: part.table });
          break;
        case 'list':
          for (const item of block.items) walk(item.content, item.prov?.page ?? page);
          break;
        case 'quote':
        case 'footnote':
          walk(block.content, block.prov?.page ?? page);
          break;
      }
    }
  };
  walk(document.blocks, 0);
  return { tables, pageSizes };
}

/**
 * A table's parts by page: a table continued over pages (its rows' row_prov on several pages) is
 * one part per page, matched to the truth region of that page like tables kept apart would be.
 */
function pageParts(table: Table, page: number): { page: number; bbox: Box | null; table: Table }[] {
  const rowPages = table.row_prov?.map((r) => r.page);
  if (!rowPages || rowPages.length !== table.rows.length || new Set(rowPages).size < 2) return [{ page, bbox: table.prov?.bbox ?? null, table }];
  return [...new Set(rowPages)].map((p) => {
    const at = rowPages.flatMap((rp, i) => (rp === p ? [i] : []));
    const boxes = at.map((i) => table.row_prov![i].bbox).filter((b): b is Box => !!b);
    const bbox: Box | null = boxes.length
      ? [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))]
      : null;
    const { row_prov: _rowProv, ...rest } = table;
    return { page: p, bbox, table: { ...rest, rows: at.map((i) => table.rows[i]), header_rows: at[0] === 0 ? table.header_rows : 0 } };
  });
}

/**
 * A truth box (PDF points from the bottom-left) as page fractions from the top-left. The
 * competition's coordinates are those of the page as shown (a page with /Rotate 90 is measured
 * landscape), so `size` is the shown page's.
 */
export function pageFractions(box: PointBox, size: PageSize): Box {
  const [x1, y1, x2, y2] = box;
  return [x1 / size.width, 1 - y2 / size.height, x2 / size.width, 1 - y1 / size.height];
}

/** Intersection over union of two boxes. */
export function boxIoU(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const area = (x: Box) => Math.max(0, x[2] - x[0]) * Math.max(0, x[3] - x[1]);
  const inter = w * h;
  return inter / (area(a) + area(b) - inter);
}

/** Dice coefficient of two bags of words: 2·common / (|a| + |b|). */
export function wordOverlap(a: readonly string[], b: readonly string[]): number {
  if (a.length + b.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of b) {
    const left = counts.get(w) ?? 0;
    if (left > 0) {
      common++;
      counts.set(w, left - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

/** Below this a region and an output table are not the same table. */
export const MIN_MATCH = 0.2;

/**
 * How alike a truth region and an output table on its page are: the better of their word overlap
 * (words of the cell texts, so a cell split or merged differently still counts) and their box
 * overlap (IoU, when both boxes and the page size are known).
 */
export function matchScore(region: TruthRegion, output: OutputTable, size: PageSize | undefined): number {
  if (region.page !== output.page) return 0;
  const text = wordOverlap(
    region.cells.flatMap((c) => words(c.text)),
    gridCells(output.grid).flatMap((c) => words(c.text)),
  );
  const box = region.bbox && output.bbox && size ? boxIoU(pageFractions(region.bbox, size), output.bbox) : 0;
  return Math.max(text, box);
}

/** What the pairing gives each true table: an output table per region (or null), in region order. */
export interface TableMatch {
  truth: TruthTable;
  outputs: (OutputTable | null)[];
}

export interface Matching {
  matches: TableMatch[];
  /** Output tables paired with no truth region: false tables. */
  unmatched: OutputTable[];
  /** Of these, the ones that resemble a region (score ≥ MIN_MATCH) another output table took: a piece of a true table. */
  pieces: OutputTable[];
}

/**
 * Pairs truth regions and output tables one to one: every pair on the same page scoring at least
 * MIN_MATCH, best score first (ties: truth order, then output order). A true table is thus matched
 * by at most one output table per region, so a table continued over two pages (two regions) can
 * be matched by an output table on each page.
 */
export function matchTables(truth: readonly TruthTable[], outputs: readonly OutputTable[], pageSizes: ReadonlyMap<number, PageSize>): Matching {
  const regions = truth.flatMap((t, ti) => t.regions.map((region, ri) => ({ region, ti, ri })));
  const pairs: { score: number; regionAt: number; output: OutputTable }[] = [];
  regions.forEach(({ region }, regionAt) => {
    for (const output of outputs) {
      const score = matchScore(region, output, pageSizes.get(region.page));
      if (score >= MIN_MATCH) pairs.push({ score, regionAt, output });
    }
  });
  pairs.sort((a, b) => b.score - a.score || a.regionAt - b.regionAt || a.output.index - b.output.index);
  const taken = new Set<OutputTable>();
  const assigned = new Map<number, OutputTable>();
  for (const p of pairs) {
    if (assigned.has(p.regionAt) || taken.has(p.output)) continue;
    assigned.set(p.regionAt, p.output);
    taken.add(p.output);
  }
  const matches = truth.map((t, ti) => ({ truth: t, outputs: t.regions.map((_, ri) => assigned.get(regions.findIndex((x) => x.ti === ti && x.ri === ri)) ?? null) }));
  const unmatched = outputs.filter((o) => !taken.has(o));
  const resembling = new Set(pairs.map((p) => p.output));
  return { matches, unmatched, pieces: unmatched.filter((o) => resembling.has(o)) };
}
