/**
 * Runs of one frame → rows → segments.
 *
 * - Rows: runs whose vertical extents overlap (superscripts stay on their line).
 * - Segments: pieces of a row separated by a gap wider than one em (column gutters, table
 *   columns, label/value gaps); a bordered table found before the layout is one segment.
 */
import { byLeft, dominantSize, nonSpaceLength, sortedView, type Furniture, type Row, type Segment } from './util';
import type { DetectedTable } from './blocks';
import type { Run } from '../read/runs';
import { ROW_LARGER_TEXT, ROW_MAX_BASELINE_SHIFT, ROW_MIN_OVERLAP, ROW_NEXT_TO, ROW_OFF_BASELINE, SEGMENT_GAP } from '../settings';

export function buildRows(runs: Run[]): Row[] {
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
      const larger = r.size > row.size * ROW_LARGER_TEXT && dy > ROW_OFF_BASELINE * r.size;
      if (overlap >= ROW_MIN_OVERLAP * Math.min(r.size, row.size) && dy < ROW_MAX_BASELINE_SHIFT * Math.max(r.size, row.size) && (!larger || nextTo(r, row.runs))) {
        target = row;
        break;
      }
    }
    if (target) {
      target.runs.push(r);
      if (!r.space && r.size > target.size * ROW_LARGER_TEXT) {
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

/** Whether `r` is within ROW_NEXT_TO ems of one of `runs` along the line. */
function nextTo(r: Run, runs: Run[]): boolean {
  for (const o of runs) if (Math.max(o.x0 - r.x1, r.x0 - o.x1) < ROW_NEXT_TO * r.size) return true;
  return false;
}

export function rowSegments(row: Row, rowIndex: number): Segment[] {
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

/**
 * The segments of a frame's rows, in row order, without the rows furniture marking dropped (page
 * numbers) and with the furniture candidates marked, then one segment per bordered table.
 */
export function frameSegments(rows: Row[], drop: ReadonlySet<Row>, furniture: ReadonlyMap<Row, Furniture>, tables: DetectedTable[]): Segment[] {
  const segs: Segment[] = [];
  rows.forEach((row, i) => {
    if (drop.has(row)) return;
    for (const s of rowSegments(row, i)) {
      const f = furniture.get(row);
      if (f) s.furniture = f;
      segs.push(s);
    }
  });
  segs.push(...tableSegments(tables, rows.length));
  return segs;
}
