/**
 * Reading order: a vertical gutter is an x range that (almost) no segment crosses, with
 * substantial text-like columns on both sides that sit side by side. Segments that cross the
 * gutter (a title, a full-width figure caption) split the page into bands; each band is read
 * column by column (right to left on right-to-left pages). Applied recursively, so three columns
 * work; horizontal cuts (XY-cut style) separate full-width parts from multi-column parts.
 */
import { isCjk } from '../read/text';
import { gutterGaps } from './gutter';
import { maxOf, medianOf, minOf, sortedView, type Segment } from '../layout/util';
import type { Frame } from '../read/runs';
import {
  COLUMN_MIN_CHAR_SHARE,
  COLUMN_MIN_OVERLAP,
  COLUMN_MIN_PIECES,
  COLUMN_MIN_ROWS,
  COLUMN_MIN_SIDE_PIECES,
  COLUMN_MIN_SPAN,
  COLUMN_MIN_WIDTH,
  COLUMN_PROSE_SHARE,
  CUT_GAP_RATIO,
  CUT_MIN_GAP,
  GUTTER_MAX_CROSS,
  GUTTER_MAX_CROSS_SHARE,
  GUTTER_MIN_WIDTH,
  GUTTER_MIN_WIDTH_PT,
  LEAF_MERGE_OVERLAP,
  PROSE_MIN_CJK_CHARS,
  PROSE_MIN_WORDS,
  SHORT_LAST_LINE_GAP,
  SUB_BAND_GAP,
  WIDE_SHARE,
} from '../settings';

interface Gutter {
  left: Segment[];
  right: Segment[];
  cross: Set<Segment>;
}

function findGutter(segs: Segment[]): Gutter | null {
  if (segs.length < COLUMN_MIN_PIECES) return null;
  let minX = Infinity;
  let maxX = -Infinity;
  let total = 0;
  for (const s of segs) {
    minX = Math.min(minX, s.x0);
    maxX = Math.max(maxX, s.x1);
    total += s.chars;
  }
  const span = maxX - minX;
  if (span < COLUMN_MIN_SPAN) return null;
  const size = medianOf(segs, (s) => s.size);
  const bw = Math.max(1, span / 1500);
  const bins = Math.ceil(span / bw) + 2;
  const maxCross = Math.max(GUTTER_MAX_CROSS, Math.floor(segs.length * GUTTER_MAX_CROSS_SHARE));
  const minGap = Math.max(GUTTER_MIN_WIDTH * size, GUTTER_MIN_WIDTH_PT);
  let best: (Gutter & { score: number }) | null = null;
  for (const gap of gutterGaps(segs, minX, bw, bins, maxCross)) {
    // The narrowest point of the run carries the split; the run's width must be a real gap.
    let lo = minX + gap.start * bw;
    let hi = minX + gap.end * bw;
    if (hi - lo < minGap) continue;
    // Use the least-covered sub-range as the split line.
    if ((gap.leastEnd - gap.least) * bw >= minGap) {
      lo = minX + gap.least * bw;
      hi = minX + gap.leastEnd * bw;
    }
    const mid = (lo + hi) / 2;
    const left: Segment[] = [];
    const right: Segment[] = [];
    const cross = new Set<Segment>();
    let leftChars = 0;
    let rightChars = 0;
    for (const s of segs) {
      if (s.x1 <= mid) {
        left.push(s);
        leftChars += s.chars;
      } else if (s.x0 >= mid) {
        right.push(s);
        rightChars += s.chars;
      } else cross.add(s);
    }
    if (left.length < COLUMN_MIN_SIDE_PIECES || right.length < COLUMN_MIN_SIDE_PIECES || cross.size > maxCross) continue;
    if (leftChars < COLUMN_MIN_CHAR_SHARE * total || rightChars < COLUMN_MIN_CHAR_SHARE * total) continue;
    if (!columnLike(left, size) || !columnLike(right, size)) continue;
    // Side by side: the two sides overlap vertically.
    const lTop = minOf(left, (s) => s.top);
    const lBot = maxOf(left, (s) => s.bottom);
    const rTop = minOf(right, (s) => s.top);
    const rBot = maxOf(right, (s) => s.bottom);
    const overlap = Math.min(lBot, rBot) - Math.max(lTop, rTop);
    if (overlap < COLUMN_MIN_OVERLAP * Math.min(lBot - lTop, rBot - rTop)) continue;
    const score = (hi - lo) * Math.min(leftChars, rightChars);
    if (!best || score > best.score) best = { left, right, cross, score };
  }
  return best;
}

/**
 * Text columns hold prose: their pieces are long lines of several words (table columns, labels
 * and values are short).
 */
function columnLike(segs: Segment[], size: number): boolean {
  const rows = new Set(segs.map((s) => s.row));
  if (rows.size < COLUMN_MIN_ROWS) return false;
  if (medianOf(segs, (s) => s.x1 - s.x0) < COLUMN_MIN_WIDTH * size) return false;
  let prose = 0;
  for (const s of segs) {
    const text = s.runs.map((r) => r.text).join(' ');
    const words = text.trim().split(/\s+/).length;
    if (words >= PROSE_MIN_WORDS || (isCjk(text.trim().charAt(0)) && s.chars >= PROSE_MIN_CJK_CHARS)) prose++;
  }
  return prose >= COLUMN_PROSE_SHARE * segs.length;
}

/**
 * A horizontal cut (XY-cut style) at the widest vertical gap of a region, when that gap is clearly
 * wider than the gaps between its lines: it separates a full-width part of the page from a
 * multi-column part so that each can be analysed on its own.
 */
function findHorizontalCut(segs: Segment[]): { upper: Segment[]; lower: Segment[] } | null {
  const sorted = sortedView(segs, (a, b) => a.top - b.top);
  const size = medianOf(segs, (s) => s.size);
  const gaps: { at: number; gap: number }[] = [];
  let bottom = sorted[0].bottom;
  for (let i = 1; i < sorted.length; i++) {
    const s = sorted[i];
    if (s.top > bottom) gaps.push({ at: i, gap: s.top - bottom });
    bottom = Math.max(bottom, s.bottom);
  }
  if (gaps.length === 0) return null;
  const typical = medianOf(gaps, (g) => g.gap);
  let best = gaps[0];
  for (const g of gaps) if (g.gap > best.gap) best = g;
  if (best.gap < CUT_MIN_GAP * size || (gaps.length > 1 && best.gap < CUT_GAP_RATIO * typical)) return null;
  return { upper: sorted.slice(0, best.at), lower: sorted.slice(best.at) };
}

/**
 * Columns with full-width text directly above or below them at ordinary line spacing (a bulleted
 * list that follows two columns without a gap): too many pieces cross the gutter for findGutter and
 * no gap is wide enough for findHorizontalCut. The rows holding a full-width piece split the region
 * into runs of rows; the first run of six pieces or more with a gutter of its own is cut out with
 * the rows above and below it, so that it is read column by column and the rest line by line. The
 * short last line of a full-width paragraph just above a run stays with that paragraph.
 */
function findColumnBand(segs: Segment[]): Segment[][] | null {
  const minX = minOf(segs, (s) => s.x0);
  const span = maxOf(segs, (s) => s.x1) - minX;
  if (span < COLUMN_MIN_SPAN) return null;
  const byRow = new Map<number, { segs: Segment[]; top: number; bottom: number; wide: boolean }>();
  for (const s of segs) {
    const wide = s.x1 - s.x0 >= WIDE_SHARE * span;
    const row = byRow.get(s.row);
    if (!row) byRow.set(s.row, { segs: [s], top: s.top, bottom: s.bottom, wide });
    else {
      row.segs.push(s);
      row.top = Math.min(row.top, s.top);
      row.bottom = Math.max(row.bottom, s.bottom);
      row.wide ||= wide;
    }
  }
  const rows = [...byRow.values()].sort((a, b) => a.top - b.top);
  if (!rows.some((r) => r.wide)) return null;
  let i = 0;
  while (i < rows.length) {
    if (rows[i].wide) {
      i++;
      continue;
    }
    let start = i;
    while (i < rows.length && !rows[i].wide) i++;
    const end = i; // exclusive
    // The short last line of the full-width paragraph above belongs to that paragraph.
    const above = rows[start - 1];
    if (above && rows[start].segs.length === 1) {
      const s = rows[start].segs[0];
      const last = above.segs.reduce((a, b) => (b.x1 - b.x0 > a.x1 - a.x0 ? b : a));
      if (Math.abs(s.x0 - last.x0) <= s.size && s.top - above.bottom <= SHORT_LAST_LINE_GAP * s.size) start++;
    }
    const band = rows.slice(start, end).flatMap((r) => r.segs);
    if (band.length < COLUMN_MIN_PIECES || !findGutter(band)) continue;
    const parts = [rows.slice(0, start), rows.slice(start, end), rows.slice(end)].map((part) => part.flatMap((r) => r.segs));
    return parts.filter((part) => part.length > 0);
  }
  return null;
}

/** Segments in reading order, grouped into leaves (one column of one band each). */
export function orderSegments(segs: Segment[], rtl: boolean, depth: number): Segment[][] {
  if (depth > 60 || segs.length < COLUMN_MIN_PIECES) return [segs];
  const g = findGutter(segs);
  if (!g) {
    const cut = findHorizontalCut(segs);
    if (cut) return [...orderSegments(cut.upper, rtl, depth + 1), ...orderSegments(cut.lower, rtl, depth + 1)];
    const parts = findColumnBand(segs);
    if (!parts) return [segs];
    return parts.flatMap((part) => orderSegments(part, rtl, depth + 1));
  }
  const leaves: Segment[][] = [];
  const size = medianOf(segs, (s) => s.size);
  const sorted = segs.slice().sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const leftSet = new Set(g.left);
  let band: Segment[] = [];
  let crossRun: Segment[] = [];
  const flushBand = () => {
    if (band.length === 0) return;
    // Sub-bands at large vertical gaps shared by both columns (a full-width figure).
    const byTop = band.slice().sort((a, b) => a.top - b.top);
    const parts: Segment[][] = [];
    let part: Segment[] = [];
    let bottom = -Infinity;
    for (const s of byTop) {
      if (part.length && s.top - bottom > SUB_BAND_GAP * size) {
        parts.push(part);
        part = [];
      }
      part.push(s);
      bottom = Math.max(bottom, s.bottom);
    }
    if (part.length) parts.push(part);
    for (const p of parts) {
      const l = p.filter((s) => leftSet.has(s));
      const r = p.filter((s) => !leftSet.has(s));
      for (const side of rtl ? [r, l] : [l, r]) if (side.length) leaves.push(...orderSegments(side, rtl, depth + 1));
    }
    band = [];
  };
  const rowCount = new Map<number, number>();
  for (const s of segs) rowCount.set(s.row, (rowCount.get(s.row) ?? 0) + 1);
  for (const s of sorted) {
    if (g.cross.has(s)) {
      flushBand();
      crossRun.push(s);
      continue;
    }
    if (crossRun.length) {
      // The short last line of a full-width paragraph belongs to it, not to a column.
      const last = crossRun[crossRun.length - 1];
      const aligned = Math.abs(s.x0 - last.x0) <= s.size || Math.abs(s.x1 - last.x1) <= s.size;
      if (band.length === 0 && aligned && rowCount.get(s.row) === 1 && s.top - last.bottom <= SHORT_LAST_LINE_GAP * s.size) {
        crossRun.push(s);
        continue;
      }
      leaves.push(crossRun);
      crossRun = [];
    }
    band.push(s);
  }
  flushBand();
  if (crossRun.length) leaves.push(crossRun);
  return leaves;
}

/**
 * Whether any two segments sit side by side (same row, or rows overlapping vertically). When none
 * do, the frame is a single column and needs no column analysis.
 */
export function sideBySide(segs: Segment[]): boolean {
  const rows = new Map<number, { top: number; bottom: number; count: number }>();
  for (const s of segs) {
    const r = rows.get(s.row);
    if (r) {
      if (++r.count > 1) return true;
    } else rows.set(s.row, { top: s.top, bottom: s.bottom, count: 1 });
  }
  const sorted = [...rows.values()].sort((a, b) => a.top - b.top);
  for (let i = 1; i < sorted.length; i++) if (sorted[i].top < sorted[i - 1].bottom) return true;
  return false;
}

/**
 * Consecutive leaves that continue the same column (horizontal cuts inside single-column text)
 * are merged again, so that paragraphs and lists see their whole column.
 */
export function mergeLeaves(leaves: Segment[][]): Segment[][] {
  const out: { segs: Segment[]; x0: number; x1: number; bottom: number }[] = [];
  for (const leaf of leaves) {
    if (leaf.length === 0) continue;
    const x0 = minOf(leaf, (s) => s.x0);
    const x1 = maxOf(leaf, (s) => s.x1);
    const top = minOf(leaf, (s) => s.top);
    const bottom = maxOf(leaf, (s) => s.bottom);
    const last = out[out.length - 1];
    if (last && top >= last.bottom - 1) {
      const overlap = Math.min(x1, last.x1) - Math.max(x0, last.x0);
      if (overlap >= LEAF_MERGE_OVERLAP * Math.min(x1 - x0, last.x1 - last.x0)) {
        last.segs.push(...leaf);
        last.x0 = Math.min(last.x0, x0);
        last.x1 = Math.max(last.x1, x1);
        last.bottom = Math.max(last.bottom, bottom);
        continue;
      }
    }
    out.push({ segs: leaf.slice(), x0, x1, bottom });
  }
  return out.map((l) => l.segs);
}

/**
 * A frame's segments in reading order, grouped into leaves (one column of one band each): as
 * they come when no two pieces sit side by side, else through the column analysis, right to left
 * when most of the frame's text is.
 */
export function readingOrder(segs: Segment[], frame: Frame): Segment[][] {
  if (segs.length === 0) return [];
  let rtlChars = 0;
  for (const r of frame.runs) if (r.rtl) rtlChars += r.text.length;
  const rtl = rtlChars > frame.chars / 2;
  return sideBySide(segs) ? mergeLeaves(orderSegments(segs, rtl, 0)) : [segs];
}
