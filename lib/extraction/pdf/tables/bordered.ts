/**
 * Table detection. Bordered tables come from ruling lines in the operator list: lines that cross
 * each other form a grid, the text inside each grid cell becomes that cell. Borderless tables
 * (borderless.ts, through line-tables.ts) are runs of consecutive lines whose pieces line up in the same columns.
 * Both are conservative: a framed paragraph, a code listing box or justified prose must not turn into a
 * table.
 */
import type { HLine, PageGraphics, VLine } from '../read/graphics';
import type { Run } from '../read/runs';
import { joinLines } from '../read/text';
import type { TableCell } from '@/lib/document/types';
import type { DetectedTable } from '../layout/blocks';
import {
  CELL_LINE_BASELINE,
  CELL_WRAP_LEADING,
  GRID_BOUNDARY_MERGE,
  GRID_MAX_CELL_CHARS,
  GRID_MAX_COLUMN_BOUNDARIES,
  GRID_MAX_ROW_BOUNDARIES,
  GRID_MIN_FILL,
  GRID_MIN_FULL_ROWS,
  GRID_MIN_TRACK,
  RULE_COVERAGE,
  RULE_JOIN_GAP,
  RULE_JOIN_OFFSET,
  RULE_TOLERANCE,
  SPACE_GAP,
  TABLE_MIN_HRULE,
  TABLE_MIN_VRULE,
  UNRULED_MIN_ROW_LINES,
  UNRULED_MIN_RUNS,
  UNRULED_SMALL_GRID_ROWS,
  UNRULED_SMALL_GRID_ROW_LINES,
} from '../settings';
import { valueLike } from './cell-text';

function mergeH(lines: HLine[]): HLine[] {
  const sorted = lines.slice().sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const out: HLine[] = [];
  for (const l of sorted) {
    const last = out[out.length - 1];
    if (last && Math.abs(l.y - last.y) <= RULE_JOIN_OFFSET && l.x0 <= last.x1 + RULE_JOIN_GAP) {
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
    if (last && Math.abs(l.x - last.x) <= RULE_JOIN_OFFSET && l.y0 <= last.y1 + RULE_JOIN_GAP) {
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
    if (line && Math.abs(r.y - line[0].y) <= CELL_LINE_BASELINE * Math.min(r.size, line[0].size)) line.push(r);
    else lines.push([r]);
  }
  let text = '';
  for (const line of lines) {
    line.sort((a, b) => a.x0 - b.x0);
    let s = '';
    let prev: Run | null = null;
    for (const r of line) {
      if (prev && r.x0 - prev.x1 > SPACE_GAP * r.size && !/\s$/.test(s) && !/^\s/.test(r.text)) s += ' ';
      s += r.text;
      prev = r;
    }
    text = joinLines(text, s.trim());
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether a vertical rule at `x` covers most of [y0, y1]. */
function vRuleAt(vs: VLine[], x: number, y0: number, y1: number): boolean {
  let covered = 0;
  for (const v of vs) if (Math.abs(v.x - x) <= RULE_TOLERANCE) covered += Math.max(0, Math.min(v.y1, y1) - Math.max(v.y0, y0));
  return covered >= RULE_COVERAGE * (y1 - y0);
}

/** Whether a horizontal rule at `y` covers most of [x0, x1]. */
function hRuleAt(hs: HLine[], y: number, x0: number, x1: number): boolean {
  let covered = 0;
  for (const h of hs) if (Math.abs(h.y - y) <= RULE_TOLERANCE) covered += Math.max(0, Math.min(h.x1, x1) - Math.max(h.x0, x0));
  return covered >= RULE_COVERAGE * (x1 - x0);
}

interface SpannedGrid {
  /** The text at each grid position: a spanning cell's text at every position it covers. */
  texts: string[][];
  /** The cell (its union-find root) at each grid position. */
  ids: number[][];
}

/**
 * Whether the text of two neighbouring grid positions of a row stands apart at the column
 * boundary between them: both hold text and none of it reaches across the boundary. A table
 * ruled between columns only in its header (or only around it) sets its body that way, each
 * value in its column; a header spanning two columns is one text across the boundary, or sits
 * in one of the two positions.
 */
function apartAt(left: Run[], right: Run[], x: number): boolean {
  if (left.length === 0 || right.length === 0) return false;
  for (const r of left) if (r.x1 > x + RULE_TOLERANCE) return false;
  for (const r of right) if (r.x0 < x - RULE_TOLERANCE) return false;
  return true;
}

/**
 * Cells of a ruled grid. Neighbouring grid cells without a rule between them form one spanning
 * cell (a header over two columns, a label over two rows), unless their texts stand apart at the
 * column boundary (apartAt): then the column's rules elsewhere divide them.
 */
function spanCells(cells: Run[][][], c: { xs: number[]; ys: number[]; h: HLine[]; v: VLine[] }): SpannedGrid {
  const nr = cells.length;
  const nc = cells[0].length;
  const parent = new Int32Array(nr * nc).map((_, i) => i);
  for (let r = 0; r < nr; r++)
    for (let k = 0; k < nc; k++) {
      if (k + 1 < nc && !vRuleAt(c.v, c.xs[k + 1], c.ys[r], c.ys[r + 1]) && !apartAt(cells[r][k], cells[r][k + 1], c.xs[k + 1])) {
        const a = find(parent, r * nc + k);
        const b = find(parent, r * nc + k + 1);
        if (a !== b) parent[b] = a;
      }
      if (r + 1 < nr && !hRuleAt(c.h, c.ys[r + 1], c.xs[k], c.xs[k + 1])) {
        const a = find(parent, r * nc + k);
        const b = find(parent, (r + 1) * nc + k);
        if (a !== b) parent[b] = a;
      }
    }
  const groups = new Map<number, Run[]>();
  for (let i = 0; i < nr * nc; i++) {
    const root = find(parent, i);
    const list = groups.get(root) ?? [];
    list.push(...cells[Math.floor(i / nc)][i % nc]);
    groups.set(root, list);
  }
  const texts = new Map<number, string>();
  for (const [root, runs] of groups) texts.set(root, runsToText(runs));
  const ids = cells.map((row, r) => row.map((_, k) => find(parent, r * nc + k)));
  return { texts: ids.map((row) => row.map((id) => texts.get(id) ?? '')), ids };
}

/**
 * The document model's cells of a grid: each cell once, at its top-left position, spanning the
 * rows and columns it covers. A cell that is no rectangle (an L of positions without rules) is
 * written at its first position only, the others left as empty cells.
 */
export function gridCells(texts: string[][], ids: number[][]): TableCell[][] {
  const extent = new Map<number, { r0: number; c0: number; r1: number; c1: number; n: number }>();
  ids.forEach((row, r) =>
    row.forEach((id, c) => {
      const e = extent.get(id);
      if (!e) extent.set(id, { r0: r, c0: c, r1: r, c1: c, n: 1 });
      else {
        e.r1 = Math.max(e.r1, r);
        e.c0 = Math.min(e.c0, c);
        e.c1 = Math.max(e.c1, c);
        e.n++;
      }
    }),
  );
  const out: TableCell[][] = [];
  ids.forEach((row, r) => {
    const cells: TableCell[] = [];
    row.forEach((id, c) => {
      const e = extent.get(id)!;
      const rectangle = (e.r1 - e.r0 + 1) * (e.c1 - e.c0 + 1) === e.n;
      const text = texts[r][c];
      const content: TableCell['content'] = text ? [{ type: 'text', text }] : [];
      if (!rectangle) {
        cells.push({ content: r === e.r0 && c === row.indexOf(id) ? content : [] });
        return;
      }
      if (r !== e.r0 || c !== e.c0) return;
      const cell: TableCell = { content };
      if (e.r1 > e.r0) cell.row_span = e.r1 - e.r0 + 1;
      if (e.c1 > e.c0) cell.col_span = e.c1 - e.c0 + 1;
      cells.push(cell);
    });
    out.push(cells);
  });
  return out;
}

/**
 * Boundaries of a grid closer than GRID_MIN_TRACK are one (a cell's shading inset from its rules
 * draws an edge beside each rule, and no text fits between the two): the one drawn with the most
 * rule length stays, and the rules at the others are moved onto it, so the cells beside it stay
 * ruled there.
 */
function mergeTracks(bounds: number[], rules: { at: number; length: number }[]): { bounds: number[]; snap: (at: number) => number } {
  const groups: number[][] = [];
  for (const b of bounds) {
    const last = groups[groups.length - 1];
    if (last && b - last[last.length - 1] < GRID_MIN_TRACK) last.push(b);
    else groups.push([b]);
  }
  if (groups.length === bounds.length) return { bounds, snap: (at) => at };
  const drawn = (b: number) => rules.reduce((n, r) => (Math.abs(r.at - b) <= RULE_TOLERANCE ? n + r.length : n), 0);
  const kept = groups.map((g) => g.reduce((best, b) => (drawn(b) > drawn(best) ? b : best), g[0]));
  const snap = (at: number) => {
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i];
      if (g.length > 1 && at >= g[0] - RULE_TOLERANCE && at <= g[g.length - 1] + RULE_TOLERANCE) return kept[i];
    }
    return at;
  };
  return { bounds: kept, snap };
}

interface Candidate {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  xs: number[];
  ys: number[];
  h: HLine[];
  v: VLine[];
}

/** The runs of a candidate grid that are not in a table yet, with their line centres. */
function gridRuns(c: Candidate, runs: Run[], taken: Set<Run>): Run[] {
  return runs.filter((r) => {
    if (r.space || taken.has(r)) return false;
    const cx = (r.x0 + r.x1) / 2;
    const cy = r.y - 0.3 * r.size;
    return cx >= c.x0 - 1 && cx <= c.x1 + 1 && cy >= c.top - 1 && cy <= c.bottom + 1;
  });
}

/** Runs grouped into text lines by baseline, top to bottom. */
function textLines(runs: Run[]): Run[][] {
  const sorted = runs.slice().sort((a, b) => a.y - b.y);
  const lines: Run[][] = [];
  for (const r of sorted) {
    const last = lines[lines.length - 1];
    if (last && r.y - last[last.length - 1].y <= CELL_LINE_BASELINE * r.size) last.push(r);
    else lines.push([r]);
  }
  return lines;
}

/**
 * A cell's text wrapped over two lines is one cell even where a boundary is drawn between the
 * lines: shading painted once per line (a spreadsheet's rows under one merged cell) has an edge
 * there. A boundary not ruled across the whole grid is such a seam when, in each column it is
 * ruled in, the text right above and right below it (up to the next boundary ruled in that
 * column) is words within that column set at line spacing (CELL_WRAP_LEADING), and some column
 * has text on both sides. Values stacked over a boundary (numbers do not wrap), a header spanning
 * the columns below it, or lines set further apart keep it.
 */
function dropSeams(c: Candidate, runs: Run[], taken: Set<Run>): void {
  const nc = c.xs.length - 1;
  const cols: Run[][] = Array.from({ length: nc }, () => []);
  for (const r of gridRuns(c, runs, taken)) {
    const k = locate(c.xs, (r.x0 + r.x1) / 2);
    if (k >= 0) cols[Math.min(k, nc - 1)].push(r);
  }
  const colLines = cols.map(textLines);
  const ruled = (y: number, k: number) => hRuleAt(c.h, y, c.xs[k], c.xs[k + 1]);
  for (let b = 1; b < c.ys.length - 1; b++) {
    const y = c.ys[b];
    const ruledIn = [...Array(nc).keys()].filter((k) => ruled(y, k));
    if (ruledIn.length === 0 || ruledIn.length === nc) continue;
    let wraps = 0;
    let seam = true;
    for (const k of ruledIn) {
      let lo = c.top - 1;
      for (let a = b - 1; a > 0; a--)
        if (ruled(c.ys[a], k)) {
          lo = c.ys[a];
          break;
        }
      let hi = c.bottom + 1;
      for (let a = b + 1; a < c.ys.length - 1; a++)
        if (ruled(c.ys[a], k)) {
          hi = c.ys[a];
          break;
        }
      const cy = (l: Run[]) => l[0].y - 0.3 * l[0].size;
      const above = colLines[k].filter((l) => cy(l) >= lo && cy(l) < y).pop();
      const below = colLines[k].find((l) => cy(l) >= y && cy(l) < hi);
      if (!above || !below) continue;
      const size = Math.max(above[0].size, below[0].size);
      // A header spanning the columns below it reaches across their boundary: no wrapped cell.
      const within = (l: Run[]) => l.every((r) => r.x0 >= c.xs[k] - RULE_TOLERANCE && r.x1 <= c.xs[k + 1] + RULE_TOLERANCE);
      const wrapped = within(above) && within(below) && below[0].y - above[0].y <= CELL_WRAP_LEADING * size;
      if (!wrapped || valueLike(runsToText(above)) || valueLike(runsToText(below))) {
        seam = false;
        break;
      }
      wraps++;
    }
    if (!seam || wraps === 0) continue;
    c.h = c.h.filter((h) => Math.abs(h.y - y) > RULE_TOLERANCE || h.x1 < c.x0 || h.x0 > c.x1);
    c.ys.splice(b, 1);
    b--;
  }
}

/**
 * Tables ruled between columns but not between rows (a rule under the header only, as financial
 * statements are set) have one tall grid row holding many text lines. When several of its lines
 * fill two or more columns each, or values stand over each other in a column (numbers do not
 * wrap), those lines are rows: a boundary (and a rule, so that they do not merge as a spanning
 * cell) is added before each line that fills two or more columns. Lines above the first values
 * are the header, wrapped over them, and stay one row; a grid row of words only is split only
 * when each of its rows has its label in the first column. A cell wrapped over two lines in an
 * otherwise ruled table fills one column per line and stays one cell.
 */
function splitUnruledRows(c: Candidate, runs: Run[], taken: Set<Run>): void {
  const extra: number[] = [];
  const gridRows = c.ys.length - 1;
  const inGrid = gridRuns(c, runs, taken);
  const column = (r: Run) => locate(c.xs, (r.x0 + r.x1) / 2);
  for (let ri = 0; ri < gridRows; ri++) {
    const inRow = inGrid.filter((r) => {
      const cy = r.y - 0.3 * r.size;
      return cy >= c.ys[ri] && cy < c.ys[ri + 1];
    });
    if (inRow.length < UNRULED_MIN_RUNS) continue;
    const lines = textLines(inRow);
    if (lines.length < 2) continue;
    const filled = lines.map((l) => new Set(l.map(column)).size);
    const rowLike = filled.filter((n) => n >= 2).length;
    // Columns (after the first) holding a value on each line.
    const valueCols = lines.map((l) => new Set(l.filter((r) => column(r) > 0 && valueLike(r.text)).map(column)));
    const stacked = lines.some((_, k) => k > 0 && filled[k] >= 2 && filled[k - 1] >= 2 && [...valueCols[k]].some((col) => valueCols[k - 1].has(col)));
    if (rowLike < UNRULED_MIN_ROW_LINES && !(rowLike >= UNRULED_SMALL_GRID_ROW_LINES && gridRows <= UNRULED_SMALL_GRID_ROWS) && !stacked) continue;
    const values = valueCols.map((v) => v.size > 0);
    const firstValue = values.findIndex((v, k) => v && (k + 1 >= lines.length || values[k + 1]));
    if (firstValue < 0 && lines.some((l, k) => filled[k] >= 2 && !l.some((r) => column(r) === 0))) continue;
    for (let k = 1; k < lines.length; k++) {
      const a = lines[k - 1][0];
      const b = lines[k][0];
      // Only before a line that starts a row (fills ≥ 2 columns): a wrapped label continues its row.
      if (filled[k] < 2 || k < firstValue) continue;
      extra.push((a.y - 0.3 * a.size + (b.y - 0.3 * b.size)) / 2);
    }
  }
  if (extra.length === 0) return;
  for (const y of extra) c.h.push({ y, x0: c.x0, x1: c.x1 } as HLine);
  c.ys = [...c.ys, ...extra].sort((a, b) => a - b);
}

/**
 * Finds grid tables drawn with ruling lines; returns them with the runs that are not inside any
 * table.
 */
export function detectBorderedTables(graphics: PageGraphics, runs: Run[]): { tables: DetectedTable[]; rest: Run[] } {
  const none = { tables: [], rest: runs };
  const hs = mergeH(graphics.hLines).filter((l) => l.x1 - l.x0 >= TABLE_MIN_HRULE);
  const vs = mergeV(graphics.vLines).filter((l) => l.y1 - l.y0 >= TABLE_MIN_VRULE);
  if (hs.length < 2 || vs.length < 2 || hs.length * vs.length > 400_000) return none;

  // Connected components of crossing lines.
  const parent = new Int32Array(hs.length + vs.length).map((_, i) => i);
  for (let i = 0; i < hs.length; i++) {
    const h = hs[i];
    for (let j = 0; j < vs.length; j++) {
      const v = vs[j];
      if (v.x >= h.x0 - RULE_TOLERANCE && v.x <= h.x1 + RULE_TOLERANCE && h.y >= v.y0 - RULE_TOLERANCE && h.y <= v.y1 + RULE_TOLERANCE) {
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

  const candidates: Candidate[] = [];
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
    const cols = mergeTracks(
      cluster([...g.v.map((v) => v.x), x0, x1], GRID_BOUNDARY_MERGE),
      g.v.map((v) => ({ at: v.x, length: v.y1 - v.y0 })),
    );
    const { bounds: xs } = cols;
    // Rows are not merged so: two boundaries close together between the lines of a wrapped
    // cell are the seam of its shadings (dropSeams), which merging would make a rule across.
    const ys = cluster([...g.h.map((h) => h.y), top, bottom], GRID_BOUNDARY_MERGE);
    if (xs.length < 3 || ys.length < 3 || xs.length > GRID_MAX_COLUMN_BOUNDARIES || ys.length > GRID_MAX_ROW_BOUNDARIES) continue;
    const v = g.v.map((l) => ({ ...l, x: cols.snap(l.x) }));
    candidates.push({ x0, x1, top, bottom, xs, ys, h: g.h, v });
  }
  if (candidates.length === 0) return none;
  candidates.sort((a, b) => (b.x1 - b.x0) * (b.bottom - b.top) - (a.x1 - a.x0) * (a.bottom - a.top));

  const tables: DetectedTable[] = [];
  const taken = new Set<Run>();
  for (const c of candidates) {
    if (tables.some((t) => c.x0 >= t.x0 - 1 && c.x1 <= t.x1 + 1 && c.top >= t.top - 1 && c.bottom <= t.bottom + 1)) continue;
    dropSeams(c, runs, taken);
    splitUnruledRows(c, runs, taken);
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
    const spanned = spanCells(cells, c);
    // Drop rows and columns without any text (decorative strips, double rules), and rows whose
    // only text is that of cells spanning down into them from the row above (a strip cut off
    // by a boundary drawn in some columns only).
    const keepRows = spanned.texts.map((row, ri) => row.some((t, ci) => t && (ri === 0 || spanned.ids[ri][ci] !== spanned.ids[ri - 1][ci])));
    let grid = spanned.texts.filter((_, ri) => keepRows[ri]);
    let ids = spanned.ids.filter((_, ri) => keepRows[ri]);
    const keepCols = grid.length ? grid[0].map((_, ci) => grid.some((row) => row[ci])) : [];
    grid = grid.map((row) => row.filter((_, ci) => keepCols[ci]));
    ids = ids.map((row) => row.filter((_, ci) => keepCols[ci]));
    const rowsN = grid.length;
    const colsN = rowsN ? grid[0].length : 0;
    if (rowsN < 2 || colsN < 2) continue;
    const filled = grid.reduce((n, row) => n + row.filter((t) => t).length, 0);
    // A row of one cell spanning every column (a chart's legend in its frame) is no row of cells.
    const fullRows = grid.filter((row, ri) => new Set(ids[ri].filter((_, ci) => row[ci])).size >= 2).length;
    const longest = grid.reduce((m, row) => row.reduce((mm, t) => Math.max(mm, t.length), m), 0);
    if (filled < GRID_MIN_FILL * rowsN * colsN || fullRows < GRID_MIN_FULL_ROWS || longest > GRID_MAX_CELL_CHARS) continue;
    // Right-to-left tables are read from their rightmost column: that is the first one.
    let rtlChars = 0;
    let allChars = 0;
    for (const r of inside) {
      if (r.space) continue;
      allChars += r.text.length;
      if (r.rtl) rtlChars += r.text.length;
    }
    if (rtlChars * 2 > allChars) {
      grid = grid.map((row) => row.slice().reverse());
      ids = ids.map((row) => row.slice().reverse());
    }
    tables.push({ x0: c.x0, x1: c.x1, top: c.top, bottom: c.bottom, rows: grid, cells: gridCells(grid, ids) });
    for (const r of inside) taken.add(r);
  }
  if (tables.length === 0) return none;
  return { tables, rest: runs.filter((r) => !taken.has(r)) };
}
