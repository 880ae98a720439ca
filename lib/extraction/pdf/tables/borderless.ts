/**
 * Borderless (and partially ruled, booktabs-style) tables, found from text alignment alone, in the
 * spirit of stream-mode detectors: a table body is a run of consecutive lines whose pieces fall
 * into the same ≥ 2 columns, with the whitespace between the columns empty on every line. Around
 * the body:
 * - header lines just above it whose words sit over the columns; a header phrase spanning several
 *   columns ("Retrieval Accuracy" over four score columns) is repeated in each of them, as a
 *   spanning cell is written in a GFM grid;
 * - single pieces between two rows in one column (a label centred on the rows it spans) fill that
 *   column in both rows;
 * - single pieces just below a row (a cell wrapped onto a second line) join that cell, unless they
 *   start a new labelled row in the first column.
 * It is conservative: justified prose, label/value lists and code must not turn into tables.
 */
import { isSpaceCode } from '@/lib/text/classes';
import { isCaption } from '../layout/titles';
import { byLeft, sortedView } from '../layout/sort';
import {
  BORDERLESS_COLUMN_GAP,
  BORDERLESS_MAX_COLUMNS,
  BORDERLESS_MAX_COLUMN_SHARE,
  BORDERLESS_MAX_LINE_GAP,
  BORDERLESS_MAX_MEDIAN_CHARS,
  BORDERLESS_MIN_FILL,
  BORDERLESS_MIN_ROWS,
  BORDERLESS_SINGLE_MAX_GAP,
  BORDERLESS_SINGLE_TOLERANCE,
  BORDERLESS_SIZE_CHANGE,
  BORDERLESS_TWO_ROW_MIN_COLUMNS,
  HEADER_MAX_CHARS,
  HEADER_MAX_GAP,
  HEADER_MAX_LINES,
  HEADER_SIZE_CHANGE,
  PROSE_CELL_WORDS,
  PROSE_COLUMN_SHARE,
  PROSE_FLOW_SHARE,
  SPANNING_LABEL_GAP,
  WRAPPED_HEADER_MAX_LEADING,
  WRAPPED_HEADER_VALUE_SHARE,
} from '../settings';

/** A line as the borderless detector sees it: its pieces separated by wide gaps. */
export interface TableLineLike {
  segs: { x0: number; x1: number; text: string }[];
  y: number;
  size: number;
  /** Excluded lines (code, list items) end a candidate table. */
  excluded: boolean;
}

export interface BorderlessTable {
  /** Index of the first and last line the table takes (header lines included). */
  start: number;
  end: number;
  /** The text at each grid position (a spanning cell's text at every position it covers). */
  rows: string[][];
  /** Which cell each grid position belongs to: positions of one spanning cell share an id. */
  ids: number[][];
}

/** Ids of a table's cells: a new one per position, or a shared one for the positions a cell spans. */
class CellIds {
  private next = 0;
  fresh(): number {
    return this.next++;
  }
  row(width: number): number[] {
    return Array.from({ length: width }, () => this.next++);
  }
}

interface Column {
  x0: number;
  x1: number;
}

/**
 * The columns of a table's lines with one more line's pieces added: pieces sorted by their left
 * edge merge into a column while they start no more than `tol` after its right edge. The columns
 * so far are runs of such pieces, so merging them with the new pieces gives what merging every
 * piece again would. `merged` tells whether two of the old columns became one.
 */
function addToColumns(cols: Column[], segs: readonly { x0: number; x1: number }[], tol: number): { cols: Column[]; merged: boolean } {
  // The columns are in order already and a line's pieces nearly always are: a merge of the two
  // (the columns first where they start together) is the stable sort of both.
  const pieces = sortedView(segs, byLeft);
  const out: Column[] = [];
  let merged = false;
  let oldInLast = 0;
  let c = 0;
  let p = 0;
  while (c < cols.length || p < pieces.length) {
    const old = p >= pieces.length || (c < cols.length && cols[c].x0 <= pieces[p].x0);
    const next = old ? cols[c++] : pieces[p++];
    const last = out.length > 0 ? out[out.length - 1] : null;
    if (last !== null && next.x0 <= last.x1 + tol) {
      last.x1 = Math.max(last.x1, next.x1);
      if (old && ++oldInLast > 1) merged = true;
    } else {
      out.push({ x0: next.x0, x1: next.x1 });
      oldInLast = old ? 1 : 0;
    }
  }
  return { cols: out, merged };
}

function columnIndex(cols: Column[], seg: { x0: number; x1: number }): number {
  for (let i = 0; i < cols.length; i++) if (seg.x0 >= cols[i].x0 - 0.01 && seg.x1 <= cols[i].x1 + 0.01) return i;
  return -1;
}

/** How many different columns (or none, -1) a line's pieces fall into. */
function filledColumns(cols: Column[], line: TableLineLike): number {
  const { segs } = line;
  let count = 0;
  for (let i = 0; i < segs.length; i++) {
    const col = columnIndex(cols, segs[i]);
    let seen = false;
    for (let k = 0; k < i && !seen; k++) seen = columnIndex(cols, segs[k]) === col;
    if (!seen) count++;
  }
  return count;
}

/** Column whose slot (up to the midpoints to its neighbours) holds x. */
function slotOf(cols: Column[], x: number): number {
  for (let i = 0; i < cols.length - 1; i++) if (x < (cols[i].x1 + cols[i + 1].x0) / 2) return i;
  return cols.length - 1;
}

/** A single-piece line inside the table: it fits one column and sits close to its neighbours. */
function singleInColumn(line: TableLineLike, cols: Column[]): number {
  if (line.excluded || line.segs.length !== 1) return -1;
  const s = line.segs[0];
  const tol = BORDERLESS_SINGLE_TOLERANCE * line.size;
  // Inside a column, or starting in it and running into the empty space before the next one.
  for (let i = 0; i < cols.length; i++) if (s.x0 >= cols[i].x0 - tol && s.x0 <= cols[i].x1 && s.x1 <= (cols[i + 1]?.x0 ?? cols[i].x1 + tol)) return i;
  return -1;
}

interface Body {
  end: number;
  cols: Column[];
  rows: number;
}

/**
 * How a single-piece line relates to the columns: inside one (a wrapped cell), clear of all of
 * them (a label column of its own, such as a label centred on the rows it spans), or across them.
 */
function singleFits(line: TableLineLike, cols: Column[]): boolean {
  if (line.excluded || line.segs.length !== 1) return false;
  if (singleInColumn(line, cols) >= 0) return true;
  const s = line.segs[0];
  return cols.every((c) => s.x1 < c.x0 || s.x0 > c.x1);
}

/** The longest run of table lines from `i` (multi-piece rows, with single pieces between them). */
function growBody(lines: TableLineLike[], i: number): Body | null {
  let best: Body | null = null;
  const members: TableLineLike[] = [];
  let rows = 0;
  let cols: Column[] = [];
  for (let j = i; j < lines.length && j - i < 300; j++) {
    const line = lines[j];
    if (j > i) {
      const prev = lines[j - 1];
      if (line.y - prev.y > BORDERLESS_MAX_LINE_GAP * Math.max(line.size, prev.size)) break;
      if (Math.abs(line.size - lines[i].size) > BORDERLESS_SIZE_CHANGE * lines[i].size) break;
    }
    if (line.excluded) break;
    const single = line.segs.length < 2;
    if (single && (rows === 0 || !singleFits(line, cols) || line.y - lines[j - 1].y > BORDERLESS_SINGLE_MAX_GAP * line.size)) break;
    const next = addToColumns(cols, line.segs, BORDERLESS_COLUMN_GAP * lines[i].size);
    if (next.cols.length < 2) break;
    // Columns only widen as lines join, which keeps every piece in its column: the lines already
    // in need checking again only when two of their columns have become one.
    if (line.segs.length >= 2 && filledColumns(next.cols, line) < 2) break;
    if (next.merged && members.some((l) => l.segs.length >= 2 && filledColumns(next.cols, l) < 2)) break;
    members.push(line);
    cols = next.cols;
    if (!single) rows++;
    if (!single && rows >= 2) best = { end: j, cols, rows };
  }
  return best;
}

function acceptTable(lines: TableLineLike[], cols: Column[]): boolean {
  if (cols.length < 2 || cols.length > BORDERLESS_MAX_COLUMNS) return false;
  const width = cols[cols.length - 1].x1 - cols[0].x0;
  if (cols.some((c) => c.x1 - c.x0 > BORDERLESS_MAX_COLUMN_SHARE * width)) return false;
  const rows = lines.filter((l) => l.segs.length >= 2);
  const fill = rows.reduce((n, l) => n + filledColumns(cols, l), 0) / (rows.length * cols.length);
  if (fill < BORDERLESS_MIN_FILL) return false;
  const lengths = rows.flatMap((l) => l.segs.map((s) => s.text.trim().length)).sort((a, b) => a - b);
  if (lengths[lengths.length >> 1] > BORDERLESS_MAX_MEDIAN_CHARS) return false;
  // Prose set in columns is not a table: a column whose cells are mostly word sequences.
  for (let c = 0; c < cols.length; c++) {
    const cells = rows.map((l) => l.segs.filter((s) => columnIndex(cols, s) === c).map((s) => s.text).join(' ').trim()).filter(Boolean);
    // (A comma-separated list of names is no prose: "Costco, Walmart, Target, Aldi, Lidl".)
    const wordy = cells.filter((t) => {
      const words = wordCount(t);
      return words >= PROSE_CELL_WORDS && commaCount(t) < words / 2;
    }).length;
    if (cells.length && wordy >= PROSE_COLUMN_SHARE * cells.length) return false;
    if (cols.length === 2 && flowsAcrossRows(cells)) return false;
  }
  return true;
}

/**
 * Prose wrapped in narrow columns reads on from one line into the next: a cell without a sentence
 * end, followed by one starting in lower case (or a hyphenated word's end). Table cells stand
 * alone, so a column where that happens often is running text set beside other text.
 */
function flowsAcrossRows(cells: string[]): boolean {
  if (cells.length < 3) return false;
  let flows = 0;
  for (let k = 1; k < cells.length; k++) {
    const prev = cells[k - 1];
    if (/\p{L}-$/u.test(prev) || (!/[.!?:;)]$/.test(prev) && /^\p{Ll}/u.test(cells[k]))) flows++;
  }
  return flows >= PROSE_FLOW_SHARE * (cells.length - 1);
}

/** `t.split(/\s+/).length` of a trimmed, non-empty text: its words. */
function wordCount(t: string): number {
  let words = 1;
  let inSpace = false;
  for (let i = 0; i < t.length; i++) {
    const space = isSpaceCode(t.charCodeAt(i));
    if (space && !inSpace) words++;
    inSpace = space;
  }
  return words;
}

function commaCount(t: string): number {
  let n = 0;
  for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) === 0x2c) n++;
  return n;
}

/**
 * Cells of a header line: a piece over one column is that column's cell; a piece over several
 * columns is split into its words when they line up one per column ("Top-1 Top-5 Top-20"), and
 * repeated over the columns otherwise (a spanning header).
 */
function headerCells(line: TableLineLike, cols: Column[], cellIds: CellIds): { cells: string[]; ids: number[] } {
  const cells = cols.map(() => [] as string[]);
  const ids = cellIds.row(cols.length);
  const pieces = cols.map(() => 0);
  for (const s of line.segs) {
    const first = slotOf(cols, s.x0 + 0.01);
    const last = slotOf(cols, s.x1 - 0.01);
    const text = s.text.trim();
    if (first === last) {
      cells[first].push(text);
      pieces[first]++;
      continue;
    }
    const words = text.split(/\s+/);
    const total = text.length;
    let offset = 0;
    const slots = words.map((w) => {
      const at = text.indexOf(w, offset);
      offset = at + w.length;
      return slotOf(cols, s.x0 + ((s.x1 - s.x0) * (at + w.length / 2)) / total);
    });
    if (words.length === last - first + 1 && new Set(slots).size === words.length) {
      words.forEach((w, k) => {
        cells[slots[k]].push(w);
        pieces[slots[k]]++;
      });
    } else {
      const id = cellIds.fresh();
      for (let c = first; c <= last; c++) {
        cells[c].push(text);
        ids[c] = id;
        pieces[c]++;
      }
    }
  }
  // A position holding a spanning header and another piece is a cell of its own.
  for (let c = 0; c < cols.length; c++) if (pieces[c] > 1) ids[c] = cellIds.fresh();
  return { cells: cells.map((c) => c.join(' ')), ids };
}

/** Header lines directly above the body: short pieces within the table's width, not a caption. */
function headerLines(lines: TableLineLike[], start: number, cols: Column[]): number {
  const x0 = cols[0].x0;
  const x1 = cols[cols.length - 1].x1;
  let first = start;
  for (let k = start - 1; k >= 0 && start - k <= HEADER_MAX_LINES; k--) {
    const l = lines[k];
    const below = lines[k + 1];
    if (l.excluded || below.y - l.y > HEADER_MAX_GAP * Math.max(l.size, below.size)) break;
    if (Math.abs(l.size - below.size) > HEADER_SIZE_CHANGE * below.size) break;
    const text = l.segs.map((s) => s.text).join(' ');
    if (isCaption(text) || /[.:]$/.test(text.trim())) break;
    const size = l.size;
    if (l.segs.some((s) => s.x0 < x0 - size || s.x1 > x1 + size || s.text.trim().length > HEADER_MAX_CHARS)) break;
    first = k;
  }
  return first;
}

function bodyRows(lines: TableLineLike[], from: number, to: number, cols: Column[], cellIds: CellIds): { rows: string[][]; ids: number[][]; lines: TableLineLike[] } {
  const rows: string[][] = [];
  const ids: number[][] = [];
  /** The line each row starts on. */
  const starts: TableLineLike[] = [];
  const pending: { col: number; text: string; y: number }[] = [];
  let lastRowY = -Infinity;
  for (let j = from; j <= to; j++) {
    const l = lines[j];
    if (l.segs.length >= 2) {
      const cells = cols.map(() => [] as string[]);
      for (const s of l.segs) cells[Math.max(0, columnIndex(cols, s))].push(s.text.trim());
      const row = cells.map((c) => c.join(' ').trim());
      const rowIds = cellIds.row(cols.length);
      // Labels centred between the previous row and this one span both.
      for (const p of pending.splice(0)) {
        const prevRow = rows[rows.length - 1];
        const prevFree = prevRow && !prevRow[p.col];
        if (prevFree) prevRow[p.col] = p.text;
        if (!row[p.col]) {
          row[p.col] = p.text;
          if (prevFree) rowIds[p.col] = ids[ids.length - 1][p.col];
        }
      }
      rows.push(row);
      ids.push(rowIds);
      starts.push(l);
      lastRowY = l.y;
      continue;
    }
    const col = singleInColumn(l, cols);
    const text = l.segs[0].text.trim();
    const next = lines[j + 1];
    const between = next && next.segs.length >= 2 && l.y - lastRowY < SPANNING_LABEL_GAP * l.size && next.y - l.y < SPANNING_LABEL_GAP * l.size;
    const row = rows[rows.length - 1];
    if (between && row) pending.push({ col, text, y: l.y });
    else if (row && (col > 0 || /^\p{Ll}/u.test(text)) && !/:$/.test(row[0])) row[col] = row[col] ? `${row[col]} ${text}` : text;
    else {
      rows.push(cols.map((_, c) => (c === col ? text : '')));
      ids.push(cellIds.row(cols.length));
      starts.push(l);
    }
  }
  return { rows, ids, lines: starts };
}

/** A cell that reads as a value: a number, an amount, a share, a dash. */
function valueLike(text: string): boolean {
  const t = text.trim();
  if (/^[-–—]$|^n\.?a\.?$/i.test(t)) return true;
  return /\d/.test(t) && t.replace(/[\d\s.,%()$€£¥+\-−–*/:]/g, '').length <= 1;
}

/** A row of values: most of its filled cells after the first read as values. */
function dataLike(row: readonly string[]): boolean {
  const cells = row.slice(1).filter((t) => t.trim());
  return cells.length > 0 && cells.filter(valueLike).length >= WRAPPED_HEADER_VALUE_SHARE * cells.length;
}

/**
 * Header cells wrapped over several lines ("Population" / "(million)" / "1995" in one column) are
 * one cell: above the first row of values (two in a row, the first one at least the second row of
 * the table; in a table with row labels, a row of values has its label; a label alone in the first
 * column right above it opens a section and stays a row; no row of values above them, and at
 * most HEADER_MAX_LINES lines to a header row), consecutive header rows set at line spacing whose cells each stand in one column
 * (no spanning header among them) are joined into one row, column by column. A spanning header
 * row ("How often do you have these symptoms" over three columns) stays a row of its own. Tables
 * without value rows are left as they are.
 */
function joinWrappedHeader(rows: string[][], ids: number[][], rowLines: TableLineLike[], cellIds: CellIds): void {
  // In a table with row labels, a row of values has its label ("1995" under "Population" has none).
  const labelled = rows.filter((row) => row[0]?.trim()).length * 2 >= rows.length;
  const valueRow = (r: number) => dataLike(rows[r]) && (!labelled || Boolean(rows[r][0]?.trim()));
  let first = -1;
  for (let r = 1; r < rows.length; r++) {
    if (valueRow(r) && (r + 1 >= rows.length || valueRow(r + 1))) {
      first = r;
      break;
    }
  }
  if (first < 2) return;
  // Above the first two value rows, no row of values: else the rows are data, not a header.
  // (A decimal number, "1.451" or "26,9", is a value too: years and units like "1995" or "($000)" are not.)
  for (let r = 0; r < first; r++) if (valueRow(r) || rows[r].some((t) => /\d[.,]\d/.test(t))) return;
  const spanning = (r: number) => new Set(ids[r].filter((_, c) => rows[r][c])).size < rows[r].filter((t) => t).length;
  const out: { row: string[]; ids: number[]; line: TableLineLike }[] = [];
  let run: number[] = [];
  const flush = () => {
    // More lines than a header has (HEADER_MAX_LINES) are rows, not one wrapped header row.
    if (run.length === 1 || run.length > HEADER_MAX_LINES) for (const r of run) out.push({ row: rows[r], ids: ids[r], line: rowLines[r] });
    else if (run.length > 1) {
      const row = rows[0].map((_, c) => run.map((r) => rows[r][c].trim()).filter(Boolean).join(' '));
      out.push({ row, ids: cellIds.row(row.length), line: rowLines[run[0]] });
    }
    run = [];
  };
  // A label alone in the first column right above the values opens a section of rows ("Effectiveness").
  const section = (r: number) => r === first - 1 && Boolean(rows[r][0]?.trim()) && rows[r].slice(1).every((t) => !t.trim());
  for (let r = 0; r < first; r++) {
    if (!rows[r].some((t) => t.trim())) continue; // an empty line of the header
    if (spanning(r) || section(r)) {
      flush();
      out.push({ row: rows[r], ids: ids[r], line: rowLines[r] });
      continue;
    }
    const prev = run.length ? rowLines[run[run.length - 1]] : null;
    const line = rowLines[r];
    if (prev && line.y - prev.y > WRAPPED_HEADER_MAX_LEADING * Math.max(line.size, prev.size)) flush();
    run.push(r);
  }
  flush();
  rows.splice(0, first, ...out.map((o) => o.row));
  ids.splice(0, first, ...out.map((o) => o.ids));
  rowLines.splice(0, first, ...out.map((o) => o.line));
}

/**
 * Tables among `lines`: at least two rows of ≥ 2 pieces in the same ≥ 2 columns, with at least
 * three rows counting header lines and at least three columns when there are only two body rows.
 */
export function findBorderlessTables(lines: TableLineLike[]): BorderlessTable[] {
  const out: BorderlessTable[] = [];
  let i = 0;
  let floor = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.excluded || line.segs.length < 2) {
      i++;
      continue;
    }
    let body = growBody(lines, i);
    // A first line over fewer columns ("Train" over two columns of numbers) is a header line.
    const below = body && i + 1 < lines.length ? growBody(lines, i + 1) : null;
    if (body && below && below.cols.length > body.cols.length && below.end >= body.end) {
      i++;
      body = below;
    }
    if (body && acceptTable(lines.slice(i, body.end + 1), body.cols)) {
      const head = Math.max(floor, headerLines(lines, i, body.cols));
      const total = body.rows + (i - head);
      if (total >= BORDERLESS_MIN_ROWS && (body.rows >= BORDERLESS_MIN_ROWS || body.cols.length >= BORDERLESS_TWO_ROW_MIN_COLUMNS)) {
        const rows: string[][] = [];
        const ids: number[][] = [];
        const rowLines: TableLineLike[] = [];
        const cellIds = new CellIds();
        for (let k = head; k < i; k++) {
          const header = headerCells(lines[k], body.cols, cellIds);
          rows.push(header.cells);
          ids.push(header.ids);
          rowLines.push(lines[k]);
        }
        const bodyPart = bodyRows(lines, i, body.end, body.cols, cellIds);
        rows.push(...bodyPart.rows);
        ids.push(...bodyPart.ids);
        rowLines.push(...bodyPart.lines);
        joinWrappedHeader(rows, ids, rowLines, cellIds);
        out.push({ start: head, end: body.end, rows, ids });
        i = floor = body.end + 1;
        continue;
      }
    }
    i++;
  }
  return out;
}
