/**
 * Runs of one frame → rows → segments → reading order (columns) → lines → blocks.
 *
 * - Rows: runs whose vertical extents overlap (superscripts stay on their line).
 * - Segments: pieces of a row separated by a gap wider than one em (column gutters, table
 *   columns, label/value gaps).
 * - Columns: a vertical gutter is an x range that (almost) no segment crosses, with substantial
 *   text-like columns on both sides that sit side by side. Segments that cross the gutter (a
 *   title, a full-width figure caption) split the page into bands; each band is read column by
 *   column (right to left on right-to-left pages). Applied recursively, so three columns work.
 * - Blocks: consecutive lines of a column, split at larger gaps, font size or weight changes,
 *   first-line indents, short lines ending a sentence, list markers and monospace runs.
 */
import type { Block, Span } from './blocks';
import type { DetectedTable } from './tables';
import { findBorderlessTables } from './tables';
import type { Frame, Run } from './runs';
import { cleanText, isCjk, joinLines, repairArabicLigatures } from './text';

/** Gap (in ems) that separates two segments of a row. */
const SEGMENT_GAP = 1.0;
/** Gap (in ems) above which two runs of a line get a space between them. */
const SPACE_GAP = 0.18;
/**
 * A Latin letter next to a Hebrew/Arabic letter: words never mix these scripts, so the two runs
 * are separate words even when the space glyph sits inside the right-to-left run's box.
 */
const SCRIPT_CHANGE = /^(?:[\p{Script=Latin}][\p{Script=Arabic}\p{Script=Hebrew}]|[\p{Script=Arabic}\p{Script=Hebrew}][\p{Script=Latin}])$/u;

interface Segment {
  runs: Run[];
  x0: number;
  x1: number;
  y: number;
  top: number;
  bottom: number;
  size: number;
  row: number;
  chars: number;
  table?: DetectedTable;
  furniture?: Furniture;
}

/** A line isolated in the top or bottom margin: maybe a running header or footer. */
interface Furniture {
  /** Lower-cased text with digits replaced by "#". */
  key: string;
  /** A number at the start or end of the line (a page number inside a running header). */
  label?: number;
}

export interface Line {
  runs: Run[];
  segs: Segment[];
  x0: number;
  x1: number;
  y: number;
  top: number;
  bottom: number;
  size: number;
  chars: number;
  bold: boolean;
  mono: boolean;
  monoKnown: boolean;
  rtl: boolean;
  spans: Span[];
  text: string;
  table?: DetectedTable;
  furniture?: Furniture;
}

export interface FrameLayoutOptions {
  preserveLayout: boolean;
  extractTables: boolean;
  /** Bordered tables of this frame (their runs are already removed from the frame). */
  tables: DetectedTable[];
  /** The upright frame of the page: page furniture and borderless tables are looked for here. */
  upright: boolean;
}

/** Smallest / largest value of `f` over `items` (no argument spreading: pages can be huge). */
function minOf<T>(items: readonly T[], f: (item: T) => number): number {
  let m = Infinity;
  for (const it of items) {
    const v = f(it);
    if (v < m) m = v;
  }
  return m;
}

function maxOf<T>(items: readonly T[], f: (item: T) => number): number {
  let m = -Infinity;
  for (const it of items) {
    const v = f(it);
    if (v > m) m = v;
  }
  return m;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = values.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

function nonSpaceLength(text: string): number {
  let n = 0;
  for (const ch of text) if (ch !== ' ' && ch !== '\t' && ch !== '\n') n++;
  return n;
}

/* ------------------------------------------------------------------ rows & segments */

interface Row {
  y: number;
  top: number;
  bottom: number;
  size: number;
  runs: Run[];
}

function buildRows(runs: Run[]): Row[] {
  const sorted = runs.slice().sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const rows: Row[] = [];
  for (const r of sorted) {
    const top = r.y - 0.8 * r.size;
    const bottom = r.y + 0.2 * r.size;
    let target: Row | null = null;
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - 4; i--) {
      const row = rows[i];
      const overlap = Math.min(bottom, row.bottom) - Math.max(top, row.top);
      if (overlap >= 0.5 * Math.min(r.size, row.size)) {
        target = row;
        break;
      }
    }
    if (target) {
      target.runs.push(r);
      if (!r.space && r.size > target.size * 1.05) {
        // The row's geometry follows its largest text.
        target.size = r.size;
        target.y = r.y;
        target.top = top;
        target.bottom = bottom;
      }
    } else if (!r.space) {
      rows.push({ y: r.y, top, bottom, size: r.size, runs: [r] });
    }
  }
  return rows;
}

function rowSegments(row: Row, rowIndex: number): Segment[] {
  const runs = row.runs.slice().sort((a, b) => a.x0 - b.x0);
  const segs: Segment[] = [];
  let cur: Segment | null = null;
  for (const r of runs) {
    if (r.space) {
      if (cur) cur.runs.push(r);
      continue;
    }
    if (!cur || r.x0 - cur.x1 > SEGMENT_GAP * Math.max(r.size, cur.size)) {
      cur = { runs: [], x0: r.x0, x1: r.x1, y: row.y, top: row.top, bottom: row.bottom, size: 0, row: rowIndex, chars: 0 };
      segs.push(cur);
    }
    cur.runs.push(r);
    cur.x0 = Math.min(cur.x0, r.x0);
    cur.x1 = Math.max(cur.x1, r.x1);
    cur.chars += nonSpaceLength(r.text);
  }
  for (const s of segs) {
    // Trailing space runs belong to no text.
    while (s.runs.length && s.runs[s.runs.length - 1].space) s.runs.pop();
    s.size = dominantSize(s.runs);
  }
  return segs.filter((s) => s.runs.length > 0);
}

function dominantSize(runs: Run[]): number {
  const weight = new Map<number, number>();
  let best = 0;
  let bestW = -1;
  for (const r of runs) {
    if (r.space) continue;
    const key = Math.round(r.size * 2) / 2;
    const w = (weight.get(key) ?? 0) + Math.max(1, r.text.length);
    weight.set(key, w);
    if (w > bestW) {
      bestW = w;
      best = r.size;
    }
  }
  return best || runs[0]?.size || 10;
}

/* ------------------------------------------------------------------ page furniture */

const PAGE_NUMBER = /^(?:(?:page|p\.|seite|página|pagina|pág\.|стр\.?)\s*)?[-–—]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—]?(?:\s*(?:\/|of|von|de|из)\s*\d{1,4})?$/i;

function rowText(row: Row): string {
  return row.runs
    .filter((r) => !r.space)
    .sort((a, b) => a.x0 - b.x0)
    .map((r) => r.text.trim())
    .join(' ')
    .trim();
}

/**
 * The topmost and bottommost rows of an upright page, when isolated in the page margin: page
 * numbers are dropped; other short lines are marked as furniture candidates (dropped later when
 * the same text repeats on many pages).
 */
function markFurniture(rows: Row[], frame: Frame): { drop: Set<Row>; furniture: Map<Row, Furniture> } {
  const drop = new Set<Row>();
  const furniture = new Map<Row, Furniture>();
  if (rows.length < 2) return { drop, furniture };
  const sorted = rows.slice().sort((a, b) => a.y - b.y);
  const bodySize = median(rows.map((r) => r.size));
  const check = (row: Row, neighbour: Row, isTop: boolean) => {
    // Isolated from the text by a clear gap, in the outer part of the page.
    const edge = isTop ? row.bottom / frame.height : 1 - row.top / frame.height;
    const gap = isTop ? neighbour.top - row.bottom : row.top - neighbour.bottom;
    if (!((edge < 0.12 && gap >= 0.8 * row.size) || (edge < 0.2 && gap >= 1.5 * row.size))) return;
    const text = rowText(row);
    if (PAGE_NUMBER.test(text)) drop.add(row);
    // Headers and footers are set about as small as the body text (a title is not furniture).
    else if (text.length <= 120 && row.size <= bodySize * 1.25) {
      const m = /^(\d{1,4})\b|\b(\d{1,4})$/.exec(text);
      const label = m ? Number(m[1] ?? m[2]) : undefined;
      furniture.set(row, { key: text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' '), label });
    }
  };
  check(sorted[0], sorted[1], true);
  check(sorted[sorted.length - 1], sorted[sorted.length - 2], false);
  return { drop, furniture };
}

/* ------------------------------------------------------------------ columns */

interface Gutter {
  left: Segment[];
  right: Segment[];
  cross: Set<Segment>;
}

function findGutter(segs: Segment[]): Gutter | null {
  if (segs.length < 6) return null;
  let minX = Infinity;
  let maxX = -Infinity;
  let total = 0;
  for (const s of segs) {
    minX = Math.min(minX, s.x0);
    maxX = Math.max(maxX, s.x1);
    total += s.chars;
  }
  const span = maxX - minX;
  if (span < 60) return null;
  const size = median(segs.map((s) => s.size));
  const bw = Math.max(1, span / 1500);
  const bins = Math.ceil(span / bw) + 2;
  const diff = new Int32Array(bins + 1);
  for (const s of segs) {
    diff[Math.max(0, Math.floor((s.x0 - minX) / bw))]++;
    diff[Math.min(bins, Math.ceil((s.x1 - minX) / bw))]--;
  }
  const cover = new Int32Array(bins);
  let acc = 0;
  for (let b = 0; b < bins; b++) {
    acc += diff[b];
    cover[b] = acc;
  }
  const maxCross = Math.max(2, Math.floor(segs.length * 0.12));
  const minGap = Math.max(0.8 * size, 4);
  let best: (Gutter & { score: number }) | null = null;
  let b = 0;
  while (b < bins) {
    if (cover[b] > maxCross) {
      b++;
      continue;
    }
    const start = b;
    while (b < bins && cover[b] <= maxCross) b++;
    const end = b; // exclusive
    if (start === 0 || end >= bins - 1) continue; // page edge, not a gutter
    // The narrowest point of the run carries the split; the run's width must be a real gap.
    let lo = minX + start * bw;
    let hi = minX + end * bw;
    if (hi - lo < minGap) continue;
    // Use the least-covered sub-range as the split line.
    let minCover = Infinity;
    for (let k = start; k < end; k++) minCover = Math.min(minCover, cover[k]);
    let ks = start;
    while (cover[ks] !== minCover) ks++;
    let ke = ks;
    while (ke < end && cover[ke] === minCover) ke++;
    if ((ke - ks) * bw >= minGap) {
      lo = minX + ks * bw;
      hi = minX + ke * bw;
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
    if (left.length < 3 || right.length < 3 || cross.size > maxCross) continue;
    if (leftChars < 0.1 * total || rightChars < 0.1 * total) continue;
    if (!columnLike(left, size) || !columnLike(right, size)) continue;
    // Side by side: the two sides overlap vertically.
    const lTop = minOf(left, (s) => s.top);
    const lBot = maxOf(left, (s) => s.bottom);
    const rTop = minOf(right, (s) => s.top);
    const rBot = maxOf(right, (s) => s.bottom);
    const overlap = Math.min(lBot, rBot) - Math.max(lTop, rTop);
    if (overlap < 0.3 * Math.min(lBot - lTop, rBot - rTop)) continue;
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
  if (rows.size < 3) return false;
  if (median(segs.map((s) => s.x1 - s.x0)) < 6 * size) return false;
  let prose = 0;
  for (const s of segs) {
    const text = s.runs.map((r) => r.text).join(' ');
    const words = text.trim().split(/\s+/).length;
    if (words >= 3 || (isCjk(text.trim().charAt(0)) && s.chars >= 8)) prose++;
  }
  return prose >= 0.5 * segs.length;
}

/**
 * A horizontal cut (XY-cut style) at the widest vertical gap of a region, when that gap is clearly
 * wider than the gaps between its lines: it separates a full-width part of the page from a
 * multi-column part so that each can be analysed on its own.
 */
function findHorizontalCut(segs: Segment[]): { upper: Segment[]; lower: Segment[] } | null {
  const sorted = segs.slice().sort((a, b) => a.top - b.top);
  const size = median(segs.map((s) => s.size));
  const gaps: { at: number; gap: number }[] = [];
  let bottom = sorted[0].bottom;
  for (let i = 1; i < sorted.length; i++) {
    const s = sorted[i];
    if (s.top > bottom) gaps.push({ at: i, gap: s.top - bottom });
    bottom = Math.max(bottom, s.bottom);
  }
  if (gaps.length === 0) return null;
  const typical = median(gaps.map((g) => g.gap));
  let best = gaps[0];
  for (const g of gaps) if (g.gap > best.gap) best = g;
  if (best.gap < 0.5 * size || (gaps.length > 1 && best.gap < 1.4 * typical)) return null;
  return { upper: sorted.slice(0, best.at), lower: sorted.slice(best.at) };
}

/** Segments in reading order, grouped into leaves (one column of one band each). */
function orderSegments(segs: Segment[], rtl: boolean, depth: number): Segment[][] {
  if (depth > 60 || segs.length < 6) return [segs];
  const g = findGutter(segs);
  if (!g) {
    const cut = findHorizontalCut(segs);
    if (!cut) return [segs];
    return [...orderSegments(cut.upper, rtl, depth + 1), ...orderSegments(cut.lower, rtl, depth + 1)];
  }
  const leaves: Segment[][] = [];
  const size = median(segs.map((s) => s.size));
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
      if (part.length && s.top - bottom > 3 * size) {
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
      if (band.length === 0 && aligned && rowCount.get(s.row) === 1 && s.top - last.bottom <= 0.8 * s.size) {
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
function sideBySide(segs: Segment[]): boolean {
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
function mergeLeaves(leaves: Segment[][]): Segment[][] {
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
      if (overlap >= 0.8 * Math.min(x1 - x0, last.x1 - last.x0)) {
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

/* ------------------------------------------------------------------ lines */

/** Runs of a right-to-left line in logical order: right to left, left-to-right islands kept. */
function bidiOrder(runs: Run[]): Run[] {
  const visual = runs.filter((r) => !r.space).sort((a, b) => b.x1 - a.x1);
  const out: Run[] = [];
  let island: Run[] = [];
  for (const r of visual) {
    if (r.rtl) {
      if (island.length) out.push(...island.reverse());
      island = [];
      out.push(r);
    } else {
      island.push(r);
    }
  }
  if (island.length) out.push(...island.reverse());
  return out;
}

function buildSpans(runs: Run[], rtl: boolean): Span[] {
  const ordered = rtl ? bidiOrder(runs) : runs.slice().sort((a, b) => a.x0 - b.x0);
  const spans: Span[] = [];
  let prev: Run | null = null;
  let pendingSpace = false;
  for (const r of ordered) {
    if (r.space) {
      pendingSpace = prev !== null;
      continue;
    }
    const text = cleanText(r.text);
    if (!text) continue;
    let sep = '';
    if (prev) {
      const gap = Math.max(r.x0 - prev.x1, prev.x0 - r.x1);
      const last = spans[spans.length - 1].text;
      const boundary = last.charAt(last.length - 1) + text.charAt(0);
      if (!/\s$/.test(last) && !/^\s/.test(text) && (pendingSpace || gap > SPACE_GAP * Math.min(r.size, prev.size) || SCRIPT_CHANGE.test(boundary))) {
        sep = isCjk(last.charAt(last.length - 1)) && isCjk(text.charAt(0)) && gap < 0.5 * r.size ? '' : ' ';
      }
    }
    const cur = spans[spans.length - 1];
    if (cur && cur.bold === r.bold) cur.text += sep + text;
    else {
      if (cur && sep) cur.text += sep;
      spans.push({ text, bold: r.bold });
    }
    prev = r;
    pendingSpace = false;
  }
  if (rtl) for (const s of spans) s.text = repairArabicLigatures(s.text);
  const first = spans[0];
  if (first) first.text = first.text.replace(/^\s+/, '');
  const last = spans[spans.length - 1];
  if (last) last.text = last.text.replace(/\s+$/, '');
  return spans.filter((s) => s.text);
}

function buildLine(segs: Segment[]): Line {
  const runs = segs.flatMap((s) => s.runs);
  let rtlChars = 0;
  let ltrChars = 0;
  let boldChars = 0;
  let monoChars = 0;
  let monoKnown = true;
  let chars = 0;
  for (const r of runs) {
    if (r.space) continue;
    const n = nonSpaceLength(r.text);
    chars += n;
    if (r.rtl) rtlChars += n;
    else if (/\p{L}/u.test(r.text)) ltrChars += n;
    if (r.bold) boldChars += n;
    if (r.mono || r.monoGuess) monoChars += n;
    if (r.monoGuess) monoKnown = false;
  }
  const rtl = rtlChars > ltrChars;
  const spans = buildSpans(runs, rtl);
  const sortedSegs = segs.slice().sort((a, b) => a.x0 - b.x0);
  return {
    runs,
    segs: sortedSegs,
    x0: minOf(segs, (s) => s.x0),
    x1: maxOf(segs, (s) => s.x1),
    y: segs[0].y,
    top: minOf(segs, (s) => s.top),
    bottom: maxOf(segs, (s) => s.bottom),
    size: dominantSize(runs),
    chars,
    bold: chars > 0 && boldChars >= chars * 0.95,
    mono: chars > 0 && monoChars >= chars * 0.8,
    monoKnown,
    rtl,
    spans,
    text: spans.map((s) => s.text).join(''),
    furniture: segs.every((s) => s.furniture) ? segs[0].furniture : undefined,
  };
}

function leafLines(leaf: Segment[]): Line[] {
  const byRow = new Map<number, Segment[]>();
  const lines: Line[] = [];
  for (const s of leaf) {
    if (s.table) {
      lines.push({
        runs: [], segs: [s], x0: s.x0, x1: s.x1, y: s.top, top: s.top, bottom: s.bottom, size: s.size, chars: 0,
        bold: false, mono: false, monoKnown: true, rtl: false, spans: [], text: '', table: s.table,
      });
      continue;
    }
    const list = byRow.get(s.row);
    if (list) list.push(s);
    else byRow.set(s.row, [s]);
  }
  for (const segs of byRow.values()) {
    const line = buildLine(segs);
    if (line.spans.length) lines.push(line);
  }
  return lines.sort((a, b) => a.y - b.y || a.x0 - b.x0);
}

/* ------------------------------------------------------------------ blocks */

const SYMBOL_BULLET = /^([•●○◦▪▫■□◆◇►▸‣⁃∙·\uf0b7\uf0a7\uf0a8\uf0d8\uf076\uf0fc\uf0e0\uf06e\uf071\uf0d7])\s*(?=\S)/u;
const DASH_BULLET = /^([-–—*+])\s+(?=\S)/;
const NUMBERED = /^\(?(\d{1,3})[.)]\s+(?=\S)/;
const LETTERED = /^(\(?[a-z][.)]|\([ivx]{1,4}\)|[ivx]{1,4}\))\s+(?=\S)/;

interface Marker {
  /** Characters of the line that make up the marker (with the following spaces). */
  length: number;
  ordered: boolean;
  /** Markdown marker: "-", "3." or "- a)". */
  render: string;
  strong: boolean;
}

export function listMarker(text: string): Marker | null {
  let m = SYMBOL_BULLET.exec(text);
  if (m) return { length: m[0].length, ordered: false, render: '-', strong: true };
  m = DASH_BULLET.exec(text);
  if (m) return { length: m[0].length, ordered: false, render: '-', strong: false };
  m = NUMBERED.exec(text);
  if (m) return { length: m[0].length, ordered: true, render: `${Number(m[1])}.`, strong: false };
  m = LETTERED.exec(text);
  if (m) return { length: m[0].length, ordered: false, render: `- ${m[1]}`, strong: false };
  return null;
}

function stripPrefix(spans: Span[], length: number): Span[] {
  const out: Span[] = [];
  let remaining = length;
  for (const s of spans) {
    if (remaining <= 0) out.push({ ...s });
    else if (s.text.length <= remaining) remaining -= s.text.length;
    else {
      out.push({ text: s.text.slice(remaining), bold: s.bold });
      remaining = 0;
    }
  }
  if (out[0]) out[0].text = out[0].text.replace(/^\s+/, '');
  return out.filter((s) => s.text);
}

/** Appends `next` spans to `acc`, joining like re-flowed lines (de-hyphenation, CJK). */
function appendSpans(acc: Span[], next: Span[]): void {
  if (next.length === 0) return;
  const rest = next.slice(1).map((s) => ({ ...s }));
  const last = acc[acc.length - 1];
  if (!last) {
    acc.push({ ...next[0] }, ...rest);
    return;
  }
  const first = next[0];
  // joinLines keeps the start of the next line intact at the end of its result.
  const head = first.text.replace(/^\s+/, '');
  const joined = joinLines(last.text, head);
  if (last.bold === first.bold) {
    last.text = joined;
    acc.push(...rest);
  } else {
    last.text = joined.slice(0, joined.length - head.length);
    acc.push({ text: head, bold: first.bold }, ...rest);
  }
}

interface BlockContext {
  bodySize: number;
  leftEdge: number;
  rightEdge: number;
  width: number;
  lineCount: number;
  pitchRatio: number;
}

const SENTENCE_END = /[.!?:;。！？：]["'”’»)\]]*$/;

function startOffset(line: Line, ctx: BlockContext): number {
  return line.rtl ? ctx.rightEdge - line.x1 : line.x0 - ctx.leftEdge;
}

function endShortfall(line: Line, ctx: BlockContext): number {
  return line.rtl ? line.x0 - ctx.leftEdge : ctx.rightEdge - line.x1;
}

function breaksBefore(prev: Line, line: Line, ctx: BlockContext): boolean {
  const size = Math.max(prev.size, line.size);
  if (Math.abs(prev.size - line.size) > 0.12 * size) return true;
  const pitch = line.y - prev.y;
  if (pitch > ctx.pitchRatio * size * 1.3 + 1) return true;
  if (prev.mono !== line.mono) return true;
  if (prev.bold !== line.bold && (prev.bold ? prev.chars : line.chars) < 150) return true;
  const start = startOffset(line, ctx);
  if (start >= 0.8 * size && start <= 8 * size && startOffset(prev, ctx) < 0.4 * size) return true;
  if (ctx.lineCount >= 3 && endShortfall(prev, ctx) > Math.max(0.25 * ctx.width, 4 * size) && SENTENCE_END.test(prev.text)) return true;
  return false;
}

/** Table-of-contents entries: dot leaders before a page number. */
const TOC_LINE = /(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlcdm]{1,6})$|…{2,}\s*\d{1,4}$/i;

/** Where the text of a list item starts (after its marker), for aligning wrapped lines. */
function itemTextX(line: Line, marker: Marker): number {
  let remaining = line.text.slice(0, marker.length).trim();
  for (const r of line.runs.filter((x) => !x.space).sort((a, b) => a.x0 - b.x0)) {
    const t = cleanText(r.text).trimStart();
    if (!t) continue;
    if (!remaining) return r.x0;
    if (t.startsWith(remaining)) {
      const rest = t.slice(remaining.length).trimStart();
      remaining = '';
      if (rest) return r.x0 + ((r.x1 - r.x0) * (t.length - rest.length)) / t.length;
    } else if (remaining.startsWith(t)) {
      remaining = remaining.slice(t.length).trimStart();
    } else {
      return r.x0;
    }
  }
  return line.x0;
}

/** A line continues the current list item: it hangs under the item's text or its marker. */
function itemContinues(item: { markerX: number; textX: number }, line: Line, hangingOnly = false): boolean {
  const x = line.rtl ? -line.x1 : line.x0;
  if (line.rtl) return x >= item.markerX - 0.3 * line.size;
  const tol = 0.45 * line.size;
  if (Math.abs(x - item.textX) <= tol) return true;
  return !hangingOnly && Math.abs(x - item.markerX) <= tol;
}

type Builder =
  | { kind: 'para'; lines: Line[] }
  | { kind: 'list'; lines: Line[]; marker: Marker; markerX: number; textX: number }
  | { kind: 'code'; lines: Line[] };

function blockContext(lines: Line[]): BlockContext {
  const textLines = lines.filter((l) => !l.table);
  const size = median(textLines.map((l) => l.size)) || 10;
  const body = textLines.filter((l) => Math.abs(l.size - size) <= 0.15 * size);
  const leftEdge = minOf(body, (l) => l.x0);
  const rightEdge = maxOf(body, (l) => l.x1);
  const ratios: number[] = [];
  for (let i = 1; i < textLines.length; i++) {
    const a = textLines[i - 1];
    const b = textLines[i];
    if (Math.abs(a.size - b.size) > 0.1 * a.size) continue;
    const r = (b.y - a.y) / a.size;
    if (r >= 0.8 && r <= 3) ratios.push(r);
  }
  const sorted = ratios.sort((a, b) => a - b);
  const pitchRatio = sorted.length >= 2 ? sorted[Math.floor(sorted.length * 0.4)] : 1.25;
  return { bodySize: size, leftEdge, rightEdge, width: Math.max(1, rightEdge - leftEdge), lineCount: textLines.length, pitchRatio };
}

function codeText(lines: Line[], pitchRatio: number): string {
  // Character width from runs without spaces (listings often draw spaces narrower or wider).
  const widths: number[] = [];
  const spaced: number[] = [];
  for (const l of lines)
    for (const r of l.runs) {
      if (r.space || r.text.length < 2) continue;
      (/\s/.test(r.text) ? spaced : widths).push((r.x1 - r.x0) / r.text.length);
    }
  const cw = median(widths.length ? widths : spaced) || lines[0].size * 0.6;
  const minX = minOf(lines, (l) => l.x0);
  const out: string[] = [];
  let prev: Line | null = null;
  for (const l of lines) {
    if (prev && l.y - prev.y > pitchRatio * l.size * 1.6) out.push('');
    let s = '';
    let last: Run | null = null;
    for (const r of l.runs.filter((x) => !x.space).sort((a, b) => a.x0 - b.x0)) {
      const text = cleanText(r.text);
      const col = Math.round((r.x0 - minX) / cw);
      if (col > s.length) s += ' '.repeat(col - s.length);
      else if (last && r.x0 - last.x1 > 0.3 * cw && !/\s$/.test(s) && !/^\s/.test(text)) s += ' ';
      s += text;
      last = r;
    }
    out.push(s.replace(/\s+$/, ''));
    prev = l;
  }
  return out.join('\n').replace(/```/g, '`\u200b``');
}

function buildBlocks(lines: Line[], opts: FrameLayoutOptions): Block[] {
  if (lines.length === 0) return [];
  const ctx = blockContext(lines);
  const blocks: Block[] = [];
  const tableAt = new Map<number, { end: number; rows: string[][] }>();
  if (opts.extractTables && opts.upright) {
    const found = findBorderlessTables(
      lines.map((l) => ({
        segs: l.segs.map((s) => ({ x0: s.x0, x1: s.x1, text: buildSpans(s.runs, l.rtl).map((x) => x.text).join('') })),
        y: l.y,
        size: l.size,
        excluded: !!l.table || l.mono || listMarker(l.text) !== null || (l.segs[0] ? /^\W{0,2}$/.test(segFirstText(l)) : false),
      })),
    );
    for (const t of found) tableAt.set(t.start, { end: t.end, rows: t.rows });
  }

  let cur: Builder | null = null;
  const flush = () => {
    if (!cur) return;
    const b = cur;
    cur = null;
    if (b.kind === 'code') {
      if (b.lines.length >= 2 || b.lines.every((l) => l.monoKnown)) {
        blocks.push({ kind: 'code', text: codeText(b.lines, ctx.pitchRatio) });
        return;
      }
      emitParagraph(b.lines);
      return;
    }
    if (b.kind === 'list') {
      const spans: Span[] = [];
      for (const [i, l] of b.lines.entries()) appendSpans(spans, i === 0 ? stripPrefix(l.spans, b.marker.length) : l.spans);
      blocks.push({ kind: 'list', marker: b.marker.render, ordered: b.marker.ordered, level: b.markerX, spans, size: b.lines[0].size });
      return;
    }
    emitParagraph(b.lines);
  };
  const emitParagraph = (ls: Line[]) => {
    const spans: Span[] = [];
    for (const l of ls) appendSpans(spans, l.spans);
    const chars = ls.reduce((n, l) => n + l.chars, 0);
    const block: Block = {
      kind: 'text',
      spans,
      lines: ls.length,
      size: dominantSize(ls.flatMap((l) => l.runs)),
      bold: ls.every((l) => l.bold),
      chars,
    };
    const f = ls.length === 1 ? ls[0].furniture : undefined;
    if (f) {
      block.furniture = f.key;
      if (f.label !== undefined) block.pageLabel = f.label;
    }
    blocks.push(block);
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const table = tableAt.get(i);
    if (table) {
      flush();
      blocks.push({ kind: 'table', rows: table.rows });
      i = table.end;
      continue;
    }
    if (line.table) {
      flush();
      blocks.push({ kind: 'table', rows: line.table.rows });
      continue;
    }
    const prev: Line | null = i > 0 && !lines[i - 1].table ? lines[i - 1] : null;
    const c = cur as Builder | null;
    const marker = listMarker(line.text);
    const closeBelow =
      prev !== null &&
      line.y - prev.y <= ctx.pitchRatio * line.size * 1.3 + 1 &&
      Math.abs(prev.size - line.size) <= 0.12 * Math.max(prev.size, line.size);
    if (line.mono && !marker?.strong) {
      if (c?.kind === 'code' && prev && line.y - prev.y <= ctx.pitchRatio * line.size * 4 + 1) {
        c.lines.push(line);
        continue;
      }
      // Inline code that wrapped to the start of a line inside a paragraph or list item.
      const next = lines[i + 1];
      const nextMono = !!next && !next.table && next.mono;
      if (c && c.kind !== 'code' && closeBelow && !nextMono && !prev!.mono) {
        const fits = c.kind === 'list' ? itemContinues(c, line) : Math.abs(startOffset(line, ctx)) < 0.5 * line.size;
        if (fits) {
          c.lines.push(line);
          continue;
        }
      }
      flush();
      cur = { kind: 'code', lines: [line] };
      continue;
    }
    const toc = TOC_LINE.test(line.text) || (prev !== null && TOC_LINE.test(prev.text));
    const brk = !c || !prev || toc || breaksBefore(prev, line, ctx);
    // "1. Introduction" set large or bold is a numbered heading, not a list.
    const headingLike = !marker?.strong && line.chars <= 100 && (line.size > ctx.bodySize * 1.15 || (line.bold && !/[.,;:]$/.test(line.text)));
    if (marker && !headingLike) {
      const accept =
        marker.strong || brk || c?.kind === 'list' || (prev !== null && (SENTENCE_END.test(prev.text) || endShortfall(prev, ctx) > 0.2 * ctx.width));
      if (accept) {
        flush();
        cur = { kind: 'list', lines: [line], marker, markerX: line.rtl ? -line.x1 : line.x0, textX: line.rtl ? -line.x1 : itemTextX(line, marker) };
        continue;
      }
    }
    if (c && !brk) {
      if (c.kind === 'para' || (c.kind === 'list' && itemContinues(c, line))) {
        c.lines.push(line);
        continue;
      }
    } else if (c?.kind === 'list' && !marker && !toc && closeBelow && itemContinues(c, line, true)) {
      // A wrapped list item whose lines hang under its text (looks like an indent otherwise).
      c.lines.push(line);
      continue;
    }
    flush();
    cur = { kind: 'para', lines: [line] };
  }
  flush();
  assignListLevels(blocks);
  return blocks;
}

function segFirstText(l: Line): string {
  return l.segs[0].runs
    .filter((r) => !r.space)
    .map((r) => r.text)
    .join('')
    .trim();
}

/** Turns the marker x positions stored in `level` into nesting levels per run of list items. */
function assignListLevels(blocks: Block[]): void {
  let i = 0;
  while (i < blocks.length) {
    if (blocks[i].kind !== 'list') {
      i++;
      continue;
    }
    let j = i;
    while (j < blocks.length && blocks[j].kind === 'list') j++;
    const items = blocks.slice(i, j) as Extract<Block, { kind: 'list' }>[];
    const xs = [...new Set(items.map((b) => b.level))].sort((a, b) => a - b);
    const levels: number[] = [];
    for (const x of xs) {
      const tol = 0.6 * (items[0].size || 10);
      if (levels.length === 0 || x - levels[levels.length - 1] > tol) levels.push(x);
    }
    for (const b of items) {
      let lvl = 0;
      for (let k = 0; k < levels.length; k++) if (b.level >= levels[k] - 0.6 * (b.size || 10)) lvl = k;
      b.level = Math.min(lvl, 3);
    }
    i = j;
  }
}

/* ------------------------------------------------------------------ frame entry points */

function tableSegments(tables: DetectedTable[], rowBase: number): Segment[] {
  return tables.map((t, i) => ({
    runs: [],
    x0: t.x0,
    x1: t.x1,
    y: t.top,
    top: t.top,
    bottom: t.bottom,
    size: 10,
    row: rowBase + i,
    chars: t.rows.flat().join('').length,
    table: t,
  }));
}

/** Structured blocks of one frame, in reading order. */
export function layoutFrame(frame: Frame, opts: FrameLayoutOptions): Block[] {
  const rows = buildRows(frame.runs);
  const { drop, furniture } = opts.upright ? markFurniture(rows, frame) : { drop: new Set<Row>(), furniture: new Map<Row, Furniture>() };
  const segs: Segment[] = [];
  rows.forEach((row, i) => {
    if (drop.has(row)) return;
    for (const s of rowSegments(row, i)) {
      const f = furniture.get(row);
      if (f) s.furniture = f;
      segs.push(s);
    }
  });
  segs.push(...tableSegments(opts.tables, rows.length));
  if (segs.length === 0) return [];
  let rtlChars = 0;
  for (const r of frame.runs) if (r.rtl) rtlChars += r.text.length;
  const rtl = rtlChars > frame.chars / 2;
  const leaves = sideBySide(segs) ? mergeLeaves(orderSegments(segs, rtl, 0)) : [segs];
  const blocks: Block[] = [];
  for (const leaf of leaves) blocks.push(...buildBlocks(leafLines(leaf), opts));
  return blocks;
}

/**
 * preserve_layout: the frame's rows as lines, pieces placed at their horizontal position using
 * the typical character width, blank lines for larger vertical gaps. Bordered tables are still
 * written as GFM tables when table extraction is on.
 */
export function layoutFramePreserved(frame: Frame, opts: FrameLayoutOptions): Block[] {
  const rows = buildRows(frame.runs).sort((a, b) => a.y - b.y);
  const widths: number[] = [];
  let minX = Infinity;
  for (const r of frame.runs) {
    if (r.space) continue;
    minX = Math.min(minX, r.x0);
    const n = r.text.length;
    if (n >= 2) widths.push((r.x1 - r.x0) / n);
  }
  const cw = Math.max(1, median(widths) || 5);
  const pitches: number[] = [];
  for (let i = 1; i < rows.length; i++) pitches.push((rows[i].y - rows[i - 1].y) / rows[i].size);
  const pitch = median(pitches.filter((p) => p > 0.8 && p < 3)) || 1.25;
  const items: { y: number; table?: DetectedTable; row?: Row }[] = rows.map((row) => ({ y: row.y, row }));
  for (const t of opts.tables) items.push({ y: t.top, table: t });
  items.sort((a, b) => a.y - b.y);
  const blocks: Block[] = [];
  let out: string[] = [];
  let prev: Row | null = null;
  const flush = () => {
    while (out.length && out[out.length - 1] === '') out.pop();
    if (out.length) blocks.push({ kind: 'raw', text: out.join('\n') });
    out = [];
  };
  for (const item of items) {
    if (item.table) {
      flush();
      blocks.push({ kind: 'table', rows: item.table.rows });
      prev = null;
      continue;
    }
    const row = item.row!;
    if (prev && row.y - prev.y > pitch * row.size * 1.7 && out.length) out.push('');
    let s = '';
    for (const seg of rowSegments(row, 0)) {
      const rtlSeg = seg.runs.filter((r) => r.rtl).length > seg.runs.length / 2;
      const text = buildSpans(seg.runs, rtlSeg).map((x) => x.text).join('');
      const col = Math.round((seg.x0 - minX) / cw);
      if (col > s.length) s += ' '.repeat(col - s.length);
      else if (s) s += '  ';
      s += text;
    }
    out.push(s.replace(/\s+$/, ''));
    prev = row;
  }
  flush();
  return blocks;
}

