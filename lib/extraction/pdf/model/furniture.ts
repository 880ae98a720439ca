/** Running headers and footers: margin lines that repeat across the pages of the document. */
import type { PageBlocks } from './document';
import { FURNITURE_LABEL_PAGES, FURNITURE_MIN_REPEATS, FURNITURE_REPEAT_SHARE } from '../settings';

/**
 * Drops running headers/footers: margin lines whose text (digits aside) repeats on many pages, and
 * margin lines carrying a number that follows the page index at a constant offset on at least
 * three pages ("Chapter 2: Methods 17" on page 20, "… 18" on page 21).
 */
export function dropRepeatedFurniture(pages: PageBlocks[]): void {
  if (pages.length < 2) return;
  const counts = new Map<string, number>();
  const offsets = new Map<number, number>();
  for (const p of pages) {
    const seen = new Set<string>();
    const seenOffsets = new Set<number>();
    for (const b of p.blocks) {
      if (b.kind !== 'text' || !b.furniture) continue;
      seen.add(b.furniture);
      if (b.pageLabel !== undefined) seenOffsets.add(b.pageLabel - p.page);
    }
    for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
    for (const o of seenOffsets) offsets.set(o, (offsets.get(o) ?? 0) + 1);
  }
  // Odd and even pages often carry different headers: each repeats on about half of the pages.
  const threshold = Math.max(FURNITURE_MIN_REPEATS, Math.ceil(pages.length * FURNITURE_REPEAT_SHARE));
  let bestOffset: number | null = null;
  let bestCount = FURNITURE_LABEL_PAGES - 1;
  for (const [o, n] of offsets) if (n > bestCount) [bestOffset, bestCount] = [o, n];
  for (const p of pages) {
    p.blocks = p.blocks.filter((b) => {
      if (b.kind !== 'text' || !b.furniture) return true;
      if ((counts.get(b.furniture) ?? 0) >= threshold) return false;
      return !(bestOffset !== null && b.pageLabel !== undefined && b.pageLabel - p.page === bestOffset);
    });
  }
}
