/**
 * Table detection. Bordered tables come from ruling lines in the operator list: lines that cross
 * each other form a grid, the text inside each grid cell becomes that cell. Borderless tables are
 * runs of at least three consecutive lines whose pieces line up in the same columns. Both are
 * conservative: a framed paragraph, a code listing box or justified prose must not turn into a
 * table.
 */
import type { HLine, PageGraphics, VLine } from './graphics';
import type { Run } from './runs';
import { joinLines } from './text';

export interface DetectedTable {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  rows: string[][];
}

const TOL = 2.5;

function mergeH(lines: HLine[]): HLine[] {
  const sorted = lines.slice().sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const out: HLine[] = [];
  for (const l of sorted) {
    const last = out[out.length - 1];
    if (last && Math.abs(l.y - last.y) <= 1 && l.x0 <= last.x1 + 2) {
      last.x1 = Math.max(last.x1, l.x1);
    } else {
      out.push({ ...l });
    }
  }
  return out;
}

function mergeV(lines: VLine[]): VLine[] {
  const sorted = lines.slice().sort((a, b) => a.x - b.x || a.y0 - b.y0);
  const out: VLine[] = [];
  for (const l of sorted) {
    const last = out[out.length - 1];
    if (last && Math.abs(l.x - last.x) <= 1 && l.y0 <= last.y1 + 2) {
      last.y1 = Math.max(last.y1, l.y1);
    } else {
      out.push({ ...l });
    }
  }
  return out;
}

/** Sorted cluster centres of `values` (values closer than `tol` are one boundary). */
function cluster(values: number[], tol: number): number[] {
  const sorted = values.slice().sort((a, b) => a - b);
  const out: number[] = [];
  let sum = 0;
  let count = 0;
  let last = -Infinity;
  for (const v of sorted) {
    if (count > 0 && v - last > tol) {
      out.push(sum / count);
      sum = 0;
      count = 0;
    }
    sum += v;
    count++;
    last = v;
  }
  if (count > 0) out.push(sum / count);
  return out;
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

function locate(bounds: number[], v: number): number {
  // index i with bounds[i] <= v < bounds[i+1], or -1
  if (v < bounds[0] - 1 || v > bounds[bounds.length - 1] + 1) return -1;
  let lo = 0;
  let hi = bounds.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bounds[mid] <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Text of a set of runs (one cell): grouped into lines by baseline, lines re-flowed. */
export function runsToText(runs: Run[]): string {
  const sorted = runs.filter((r) => !r.space).sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const lines: Run[][] = [];
  for (const r of sorted) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(r.y - line[0].y) <= 0.5 * Math.min(r.size, line[0].size)) line.push(r);
    else lines.push([r]);
  }
  let text = '';
  for (const line of lines) {
    line.sort((a, b) => a.x0 - b.x0);
    let s = '';
    let prev: Run | null = null;
    for (const r of line) {
      if (prev && r.x0 - prev.x1 > 0.18 * r.size && !/\s$/.test(s) && !/^\s/.test(r.text)) s += ' ';
      s += r.text;
      prev = r;
    }
    text = joinLines(text, s.trim());
  }
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Finds grid tables drawn with ruling lines; returns them with the runs that are not inside any
 * table.
 */
export function detectBorderedTables(graphics: PageGraphics, runs: Run[]): { tables: DetectedTable[]; rest: Run[] } {
  const none = { tables: [], rest: runs };
  const hs = mergeH(graphics.hLines).filter((l) => l.x1 - l.x0 >= 8);
  const vs = mergeV(graphics.vLines).filter((l) => l.y1 - l.y0 >= 4);
  if (hs.length < 2 || vs.length < 2 || hs.length * vs.length > 400_000) return none;

  // Connected components of crossing lines.
  const parent = new Int32Array(hs.length + vs.length).map((_, i) => i);
  for (let i = 0; i < hs.length; i++) {
    const h = hs[i];
    for (let j = 0; j < vs.length; j++) {
      const v = vs[j];
      if (v.x >= h.x0 - TOL && v.x <= h.x1 + TOL && h.y >= v.y0 - TOL && h.y <= v.y1 + TOL) {
        const a = find(parent, i);
        const b = find(parent, hs.length + j);
        if (a !== b) parent[a] = b;
      }
    }
  }
  const groups = new Map<number, { h: HLine[]; v: VLine[] }>();
  for (let i = 0; i < parent.length; i++) {
    const root = find(parent, i);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { h: [], v: [] }));
    if (i < hs.length) g.h.push(hs[i]);
    else g.v.push(vs[i - hs.length]);
  }

  const candidates: { x0: number; x1: number; top: number; bottom: number; xs: number[]; ys: number[] }[] = [];
  for (const g of groups.values()) {
    if (g.h.length < 2 || g.v.length < 2) continue;
    let x0 = Infinity, x1 = -Infinity, top = Infinity, bottom = -Infinity;
    for (const h of g.h) {
      x0 = Math.min(x0, h.x0);
      x1 = Math.max(x1, h.x1);
      top = Math.min(top, h.y);
      bottom = Math.max(bottom, h.y);
    }
    for (const v of g.v) {
      x0 = Math.min(x0, v.x);
      x1 = Math.max(x1, v.x);
      top = Math.min(top, v.y0);
      bottom = Math.max(bottom, v.y1);
    }
    const xs = cluster([...g.v.map((v) => v.x), x0, x1], 3);
    const ys = cluster([...g.h.map((h) => h.y), top, bottom], 3);
    if (xs.length < 3 || ys.length < 3 || xs.length > 41 || ys.length > 501) continue;
    candidates.push({ x0, x1, top, bottom, xs, ys });
  }
  if (candidates.length === 0) return none;
  candidates.sort((a, b) => (b.x1 - b.x0) * (b.bottom - b.top) - (a.x1 - a.x0) * (a.bottom - a.top));

  const tables: DetectedTable[] = [];
  const taken = new Set<Run>();
  for (const c of candidates) {
    if (tables.some((t) => c.x0 >= t.x0 - 1 && c.x1 <= t.x1 + 1 && c.top >= t.top - 1 && c.bottom <= t.bottom + 1)) continue;
    const nr = c.ys.length - 1;
    const nc = c.xs.length - 1;
    const cells: Run[][][] = Array.from({ length: nr }, () => Array.from({ length: nc }, () => []));
    const inside: Run[] = [];
    for (const r of runs) {
      if (taken.has(r)) continue;
      const cx = (r.x0 + r.x1) / 2;
      const cy = r.y - 0.3 * r.size;
      if (cx < c.x0 - 1 || cx > c.x1 + 1 || cy < c.top - 1 || cy > c.bottom + 1) continue;
      inside.push(r);
      if (r.space) continue;
      const ci = locate(c.xs, cx);
      const ri = locate(c.ys, cy);
      if (ci >= 0 && ri >= 0) cells[Math.min(ri, nr - 1)][Math.min(ci, nc - 1)].push(r);
    }
    let grid = cells.map((row) => row.map((cellRuns) => runsToText(cellRuns)));
    // Drop rows and columns without any text (decorative strips, double rules).
    grid = grid.filter((row) => row.some((t) => t));
    const keepCols = grid.length ? grid[0].map((_, ci) => grid.some((row) => row[ci])) : [];
    grid = grid.map((row) => row.filter((_, ci) => keepCols[ci]));
    const rowsN = grid.length;
    const colsN = rowsN ? grid[0].length : 0;
    if (rowsN < 2 || colsN < 2) continue;
    const filled = grid.reduce((n, row) => n + row.filter((t) => t).length, 0);
    const fullRows = grid.filter((row) => row.filter((t) => t).length >= 2).length;
    const longest = grid.reduce((m, row) => row.reduce((mm, t) => Math.max(mm, t.length), m), 0);
    if (filled < 0.3 * rowsN * colsN || fullRows < 2 || longest > 600) continue;
    tables.push({ x0: c.x0, x1: c.x1, top: c.top, bottom: c.bottom, rows: grid });
    for (const r of inside) taken.add(r);
  }
  if (tables.length === 0) return none;
  return { tables, rest: runs.filter((r) => !taken.has(r)) };
}

/** A line as the borderless detector sees it: its pieces separated by wide gaps. */
export interface TableLineLike {
  segs: { x0: number; x1: number; text: string }[];
  y: number;
  size: number;
  /** Excluded lines (code, list items) end a candidate table. */
  excluded: boolean;
}

export interface BorderlessTable {
  start: number;
  end: number;
  rows: string[][];
}

function columnsOf(lines: TableLineLike[]): { x0: number; x1: number }[] {
  const size = lines[0].size;
  const segs = lines.flatMap((l) => l.segs).sort((a, b) => a.x0 - b.x0);
  const cols: { x0: number; x1: number }[] = [];
  for (const s of segs) {
    const last = cols[cols.length - 1];
    if (last && s.x0 <= last.x1 + 0.5 * size) last.x1 = Math.max(last.x1, s.x1);
    else cols.push({ x0: s.x0, x1: s.x1 });
  }
  return cols;
}

function columnIndex(cols: { x0: number; x1: number }[], seg: { x0: number; x1: number }): number {
  for (let i = 0; i < cols.length; i++) if (seg.x0 >= cols[i].x0 - 0.01 && seg.x1 <= cols[i].x1 + 0.01) return i;
  return -1;
}

function filledColumns(cols: { x0: number; x1: number }[], line: TableLineLike): number {
  const seen = new Set<number>();
  for (const s of line.segs) seen.add(columnIndex(cols, s));
  return seen.size;
}

/**
 * Runs of ≥ 3 consecutive lines with ≥ 2 pieces each that fall into the same ≥ 2 columns (the
 * whitespace between the columns is empty on every line).
 */
export function findBorderlessTables(lines: TableLineLike[]): BorderlessTable[] {
  const out: BorderlessTable[] = [];
  const eligible = (l: TableLineLike) => !l.excluded && l.segs.length >= 2;
  let i = 0;
  while (i < lines.length) {
    if (!eligible(lines[i])) {
      i++;
      continue;
    }
    let best: { end: number; cols: { x0: number; x1: number }[] } | null = null;
    for (let j = i; j < lines.length && j - i < 300; j++) {
      const line = lines[j];
      if (!eligible(line)) break;
      if (j > i) {
        const prev = lines[j - 1];
        if (line.y - prev.y > 3 * Math.max(line.size, prev.size)) break;
        if (Math.abs(line.size - lines[i].size) > 0.2 * lines[i].size) break;
      }
      const window = lines.slice(i, j + 1);
      const cols = columnsOf(window);
      if (cols.length < 2 || window.some((l) => filledColumns(cols, l) < 2)) break;
      if (j - i + 1 >= 3) best = { end: j, cols };
    }
    if (best && acceptTable(lines.slice(i, best.end + 1), best.cols)) {
      const rows = lines.slice(i, best.end + 1).map((l) => {
        const cells = best.cols.map(() => [] as string[]);
        for (const s of l.segs) cells[Math.max(0, columnIndex(best.cols, s))].push(s.text.trim());
        return cells.map((c) => c.join(' ').trim());
      });
      out.push({ start: i, end: best.end, rows });
      i = best.end + 1;
    } else {
      i++;
    }
  }
  return out;
}

function acceptTable(lines: TableLineLike[], cols: { x0: number; x1: number }[]): boolean {
  if (cols.length < 2 || cols.length > 15) return false;
  const width = cols[cols.length - 1].x1 - cols[0].x0;
  if (cols.some((c) => c.x1 - c.x0 > 0.75 * width)) return false;
  const fill = lines.reduce((n, l) => n + filledColumns(cols, l), 0) / (lines.length * cols.length);
  if (fill < 0.6) return false;
  const lengths = lines
    .flatMap((l) => l.segs.map((s) => s.text.trim().length))
    .sort((a, b) => a - b);
  if (lengths[lengths.length >> 1] > 50) return false;
  // Prose set in columns is not a table: a column whose cells are mostly word sequences.
  for (let c = 0; c < cols.length; c++) {
    const cells = lines.map((l) => l.segs.filter((s) => columnIndex(cols, s) === c).map((s) => s.text).join(' ').trim()).filter(Boolean);
    const wordy = cells.filter((t) => t.split(/\s+/).length >= 5).length;
    if (cells.length && wordy >= 0.6 * cells.length) return false;
  }
  return true;
}

/** GFM table: first row is the header; pipes escaped, cells on one line. */
export function renderTable(rows: string[][]): string {
  const width = rows.reduce((m, r) => Math.max(m, r.length), 0);
  const cell = (t: string | undefined) => (t ?? '').replace(/\s+/g, ' ').replace(/\\?\|/g, '\\|').trim();
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => cell(r[i])).join(' | ')} |`;
  const out = [line(rows[0]), `|${' --- |'.repeat(width)}`];
  for (const r of rows.slice(1)) out.push(line(r));
  return out.join('\n');
}
