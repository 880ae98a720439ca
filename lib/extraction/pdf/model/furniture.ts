/**
 * Page furniture: page numbers, and the margin lines that run across the pages of the document
 * (running headers and footers), moved out of the pages' content into their furniture.
 */
import type { Block } from '../layout/blocks';
import type { PageBlocks } from './document';
import {
  FURNITURE_LABEL_PAGES,
  FURNITURE_MIN_REPEATS,
  FURNITURE_REPEAT_SHARE,
  FURNITURE_SHORT_PAGES,
  FURNITURE_SIMILAR_MIN_CHARS,
  FURNITURE_SIMILAR_TEXT,
  FURNITURE_SLOT_PLACE,
  FURNITURE_SLOT_SIZE,
} from '../settings';

type TextBlock = Extract<Block, { kind: 'text' }>;

/** A margin line that may be a running header or footer. */
interface Candidate {
  block: TextBlock;
  key: string;
  top: boolean;
  /** Distance of its outer edge from the page edge it is near (share of the page height). */
  edge: number;
  size: number;
  bold: boolean;
}

function candidates(page: PageBlocks): Candidate[] {
  const out: Candidate[] = [];
  for (const b of page.blocks) {
    if (b.kind !== 'text' || !b.furniture || b.pageNumber) continue;
    const box = b.geom?.[0]?.box;
    if (!box || !box.every(Number.isFinite)) continue;
    const top = box[1] + box[3] < 1;
    out.push({ block: b, key: b.furniture, top, edge: top ? box[1] : 1 - box[3], size: b.size, bold: b.bold });
  }
  return out;
}

/** Dice coefficient of the two texts' character pairs. */
function pairSimilarity(a: string, b: string): number {
  const pairs = new Map<string, number>();
  for (let i = 0; i + 1 < a.length; i++) pairs.set(a.slice(i, i + 2), (pairs.get(a.slice(i, i + 2)) ?? 0) + 1);
  let shared = 0;
  for (let i = 0; i + 1 < b.length; i++) {
    const p = b.slice(i, i + 2);
    const n = pairs.get(p) ?? 0;
    if (n > 0) {
      shared++;
      pairs.set(p, n - 1);
    }
  }
  return (2 * shared) / Math.max(1, a.length - 1 + b.length - 1);
}

/** Same margin, same distance from the page edge, same size. */
function sameSlot(a: Candidate, b: Candidate): boolean {
  return a.top === b.top && Math.abs(a.edge - b.edge) <= FURNITURE_SLOT_PLACE && Math.abs(a.size - b.size) <= FURNITURE_SLOT_SIZE * Math.max(a.size, b.size);
}

/**
 * The same line (digits aside), or a long one that changed a little (a day, a name); not when set
 * bold: headings that share their wording ("Chapter 2: Introduction to …") are set so.
 */
function sameText(a: Candidate, b: Candidate): boolean {
  if (a.key === b.key) return true;
  if (a.bold || b.bold || Math.min(a.key.length, b.key.length) < FURNITURE_SIMILAR_MIN_CHARS) return false;
  return pairSimilarity(a.key, b.key) >= FURNITURE_SIMILAR_TEXT;
}

/**
 * Running furniture of a short document, where a repeat is thin evidence: a line is furniture when
 * the same line stands in the same place at the same size on every page, on every page but the
 * first (a title page without a header), or on every page of one parity while each page of the
 * other parity has a line of its own in that place (alternating odd and even headers; that line
 * is furniture too).
 */
function shortDocumentFurniture(pages: PageBlocks[], out: Set<Block>): void {
  const n = pages.length;
  const found = pages.map(candidates);
  const everyPage = (pred: (i: number) => boolean) => {
    const chosen: number[] = [];
    for (let i = 0; i < n; i++) if (pred(i)) chosen.push(i);
    return chosen;
  };
  const allButFirst = everyPage((i) => i > 0);
  const parities = [everyPage((i) => i % 2 === 0), everyPage((i) => i % 2 === 1)];
  const covers = (on: ReadonlySet<number>, wanted: number[]) => on.size === wanted.length && wanted.every((i) => on.has(i));
  for (let i = 0; i < n; i++) {
    for (const c of found[i]) {
      const on = new Set<number>();
      for (let j = 0; j < n; j++) if (found[j].some((d) => sameSlot(c, d) && sameText(c, d))) on.add(j);
      if (on.size === n || (n >= 3 && covers(on, allButFirst))) {
        out.add(c.block);
        continue;
      }
      const mine = parities[i % 2];
      const other = parities[1 - (i % 2)];
      if (mine.length < 2 || !covers(on, mine)) continue;
      const counterparts = other.map((j) => found[j].filter((d) => sameSlot(c, d)));
      if (counterparts.some((list) => list.length === 0)) continue;
      out.add(c.block);
      for (const list of counterparts) for (const d of list) out.add(d.block);
    }
  }
}

/**
 * Running furniture of a longer document: margin lines whose text (digits aside) repeats on many
 * pages (odd and even pages often carry different headers: each repeats on about half of them).
 */
function repeatedFurniture(pages: PageBlocks[], out: Set<Block>): void {
  const counts = new Map<string, number>();
  for (const p of pages) {
    const seen = new Set<string>();
    for (const b of p.blocks) if (b.kind === 'text' && b.furniture && !b.pageNumber) seen.add(b.furniture);
    for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const threshold = Math.max(FURNITURE_MIN_REPEATS, Math.ceil(pages.length * FURNITURE_REPEAT_SHARE));
  for (const p of pages) for (const b of p.blocks) if (b.kind === 'text' && b.furniture && (counts.get(b.furniture) ?? 0) >= threshold) out.add(b);
}

/**
 * Margin lines carrying a number that follows the page index at a constant offset on at least
 * three pages ("Chapter 2: Methods 17" on page 20, "… 18" on page 21).
 */
function labelledFurniture(pages: PageBlocks[], out: Set<Block>): void {
  const offsets = new Map<number, number>();
  for (const p of pages) {
    const seen = new Set<number>();
    for (const b of p.blocks) if (b.kind === 'text' && b.furniture && b.pageLabel !== undefined) seen.add(b.pageLabel - p.page);
    for (const o of seen) offsets.set(o, (offsets.get(o) ?? 0) + 1);
  }
  let best: number | null = null;
  let bestCount = FURNITURE_LABEL_PAGES - 1;
  for (const [o, count] of offsets) if (count > bestCount) [best, bestCount] = [o, count];
  if (best === null) return;
  for (const p of pages) for (const b of p.blocks) if (b.kind === 'text' && b.furniture && b.pageLabel !== undefined && b.pageLabel - p.page === best) out.add(b);
}

/** Where a block starts on its page (share of the page height), for the furniture's page order. */
function topOf(b: Block): number {
  const y = b.geom?.[0]?.box[1];
  return y !== undefined && Number.isFinite(y) ? y : 0;
}

/**
 * Moves each page's furniture out of its blocks into `furniture`, top to bottom: its page numbers
 * (on any document, even of one page), and running headers and footers (documents of two pages or
 * more). Other margin lines stay where they are.
 */
export function separateFurniture(pages: PageBlocks[]): void {
  const running = new Set<Block>();
  if (pages.length >= 2) {
    if (pages.length <= FURNITURE_SHORT_PAGES) shortDocumentFurniture(pages, running);
    else repeatedFurniture(pages, running);
    labelledFurniture(pages, running);
  }
  for (const p of pages) {
    const furniture: Block[] = [];
    const kept: Block[] = [];
    for (const b of p.blocks) (b.kind === 'text' && (b.pageNumber || running.has(b)) ? furniture : kept).push(b);
    if (furniture.length === 0) continue;
    p.blocks = kept;
    p.furniture = [...(p.furniture ?? []), ...furniture].sort((a, b) => topOf(a) - topOf(b));
  }
}
