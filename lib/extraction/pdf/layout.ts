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
 *
 * Rows and segments live here; page furniture in layout-furniture.ts, reading order in
 * layout-columns.ts, lines (bidi) in layout-lines.ts, blocks in layout-blocks.ts and
 * layout-lists.ts, borderless tables in tables-borderless.ts.
 */
import type { SourceLine } from '@/lib/document/layout';
import type { Block } from './blocks';
import { lineGeom, tableGeom } from './geometry';
import type { DetectedTable } from './tables';
import type { Frame, Run } from './runs';
import { buildBlocks } from './layout-blocks';
import { mergeLeaves, orderSegments, sideBySide } from './layout-columns';
import { markFurniture } from './layout-furniture';
import { buildSpans, leafLines } from './layout-lines';
import { byLeft, dominantSize, maxOf, median, minOf, nonSpaceLength, sortedView, type FrameLayoutOptions, type Furniture, type Row, type Segment } from './layout-util';

export type { FrameLayoutOptions, Line } from './layout-util';
export { listMarker } from './layout-lists';

/** Gap (in ems) that separates two segments of a row. */
const SEGMENT_GAP = 1.0;

/* ------------------------------------------------------------------ rows & segments */

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
      // Overlapping boxes with baselines close enough for a superscript. Larger text on another
      // baseline joins only next to the row's text (the base of a superscript): a row grown by the
      // larger text of another column must not swallow the next line of a tightly set table.
      const dy = Math.abs(r.y - row.y);
      const larger = r.size > row.size * 1.05 && dy > 0.3 * r.size;
      if (overlap >= 0.5 * Math.min(r.size, row.size) && dy < 0.6 * Math.max(r.size, row.size) && (!larger || nextTo(r, row.runs))) {
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

/** Whether `r` is within two ems of one of `runs` along the line. */
function nextTo(r: Run, runs: Run[]): boolean {
  for (const o of runs) if (Math.max(o.x0 - r.x1, r.x0 - o.x1) < 2 * r.size) return true;
  return false;
}

function rowSegments(row: Row, rowIndex: number): Segment[] {
  const runs = sortedView(row.runs, byLeft);
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
  for (const s of segs) if (s.runs.length === 0) return segs.filter((x) => x.runs.length > 0);
  return segs;
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
  let geom: SourceLine[] = [];
  let prev: Row | null = null;
  const flush = () => {
    while (out.length && out[out.length - 1] === '') out.pop();
    if (out.length) blocks.push({ kind: 'raw', text: out.join('\n'), geom });
    out = [];
    geom = [];
  };
  for (const item of items) {
    if (item.table) {
      flush();
      blocks.push({ kind: 'table', rows: item.table.rows, cells: item.table.cells, geom: [tableGeom(item.table)] });
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
    geom.push(lineGeom({ x0: minOf(row.runs, (r) => r.x0), x1: maxOf(row.runs, (r) => r.x1), top: row.top, bottom: row.bottom, text: s }));
    prev = row;
  }
  flush();
  return blocks;
}
