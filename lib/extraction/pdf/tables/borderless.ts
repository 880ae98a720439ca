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
  BORDERLESS_MIN_SUPPORTED_COLUMNS,
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
} from '../settings';
import { joinWrappedHeader } from './wrapped-header';

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

/**
 * A label set apart (larger, as a section title is) alone in the first column (or left of the
 * columns, above the first row label), with a row of the table's size right below it: a section row of the table ("Sex" over "Male" and "Female"), not
 * the end of it.
 */
function sectionLabel(lines: TableLineLike[], j: number, i: number, cols: Column[]): boolean {
  const next = lines[j + 1];
  const line = lines[j];
  if (!next || next.excluded || next.segs.length < 2 || line.excluded || line.segs.length !== 1) return false;
  // In the first column, or left of all columns while the row labels' column has no text yet.
  if (singleInColumn(line, cols) !== 0 && !(line.segs[0].x1 < cols[0].x0)) return false;
  if (Math.abs(next.size - lines[i].size) > BORDERLESS_SIZE_CHANGE * lines[i].size) return false;
  return next.y - lines[j].y <= BORDERLESS_MAX_LINE_GAP * Math.max(next.size, lines[j].size);
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
      if (Math.abs(line.size - lines[i].size) > BORDERLESS_SIZE_CHANGE * lines[i].size && !(rows > 0 && sectionLabel(lines, j, i, cols))) break;
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
  // Columns line up across rows: most hold text in two body rows at least (charts side by side
  // have their axis labels in one row each, a label column and a value column in all).
  const supported = cols.filter((_, c) => rows.filter((l) => l.segs.some((s) => columnIndex(cols, s) === c)).length >= 2).length;
  if (supported < BORDERLESS_MIN_SUPPORTED_COLUMNS * cols.length) return false;
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
 * The columns a header piece stands over: the slots its ends fall into (a header centred over
 * several columns spans them all), except that a piece overlapping the text of one column only
 * stands over that one ("Portugal" over its column of numbers, running on into the gutter after
 * it).
 */
function headerSpan(cols: Column[], s: { x0: number; x1: number }): { first: number; last: number } {
  let over = -1;
  let count = 0;
  for (let i = 0; i < cols.length; i++)
    if (s.x0 < cols[i].x1 && s.x1 > cols[i].x0) {
      over = i;
      count++;
    }
  if (count === 1) return { first: over, last: over };
  return { first: slotOf(cols, s.x0 + 0.01), last: slotOf(cols, s.x1 - 0.01) };
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
    const { first, last } = headerSpan(cols, s);
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
    // A lone piece over the row labels' column, running on past it, is the table's title: a
    // header of that column fits it, or shares its line with the other columns' headers.
    if (l.segs.length === 1 && headerSpan(cols, l.segs[0]).last === 0 && l.segs[0].x1 > cols[0].x1 + size) break;
    first = k;
  }
  return first;
}

/**
 * A line of pieces that carries on the row above (its cells wrapped onto a second line): no
 * label in the first column, and each of its pieces starts in lower case under a filled cell.
 */
function continuesRow(prev: readonly string[], row: readonly string[]): boolean {
  if (row[0] || !row.some((t) => t)) return false;
  return row.every((t, c) => !t || (/^\p{Ll}/u.test(t) && Boolean(prev[c])));
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
      const prev = rows[rows.length - 1];
      if (pending.length === 0 && prev && continuesRow(prev, row)) {
        row.forEach((t, c) => {
          if (t) prev[c] = `${prev[c]} ${t}`;
        });
        continue;
      }
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
        // Lines that only carry on the rows above them make no rows of their own.
        if (rows.length < BORDERLESS_MIN_ROWS) {
          i++;
          continue;
        }
        out.push({ start: head, end: body.end, rows, ids });
        i = floor = body.end + 1;
        continue;
      }
    }
    i++;
  }
  return out;
}
