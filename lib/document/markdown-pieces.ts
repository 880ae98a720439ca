/**
 * Markdown cut into pieces that mdast-util-from-markdown parses one at a time (from-markdown.ts).
 *
 * Why: micromark recurses once per nested container (10,000 ">" overflow the stack), keeps about
 * 900 bytes of events per byte of a table (a 5 MB table would need 4.5 GB), and is quadratic in
 * the emphasis and link delimiters of a paragraph and in the lines of lists nested on one line.
 * Small pieces bound each of those costs, so the time grows about linearly with the input.
 *
 * - Each line's container prefix is capped outside fenced code (PIECE_LIMITS.markers markers,
 *   PIECE_LIMITS.columns columns of indentation), which caps how deep the model nests.
 * - The text is cut before a line at column 0 that is not inside fenced code or an HTML block.
 *   After a blank line (and not before a list item) such a cut ends every open block, so the
 *   pieces parse as the whole would ("safe"); elsewhere (a long list, table, quote or paragraph)
 *   the piece's first block continues the previous piece's last one ("seam") and the caller
 *   joins the two. A piece starting inside a table gets the table's header rows in front.
 * - Pieces are filled up to PIECE_LIMITS.pieceBytes and .pieceLines, and while their delimiter
 *   weight w keeps w² ≤ PIECE_LIMITS.weight × bytes (then the quadratic part of the parse costs
 *   about what the linear part does). A run of lines that cannot be cut and is over that weight
 *   on its own is plain text ("literal"): its text is kept, its markup not read. A run longer
 *   than PIECE_LIMITS.unitBytes is cut between any two lines (a longer line is plain text).
 * Documents within the limits (most) are one piece and parse exactly as a whole.
 */

export interface MarkdownPiece {
  text: string;
  /** Starts inside the previous piece's last block (merge the two). */
  seam: boolean;
  /** Taken as plain text: its markup would cost too much to parse. */
  literal: boolean;
  /**
   * What was put in front of the piece to carry its context: a table's header rows (its first
   * table row is their copy) or the opening line of the fenced code it starts inside.
   */
  carried: 'table' | 'fence' | null;
  /** Whether the piece ends inside fenced code or an HTML block (nothing may be appended). */
  openAtEnd: boolean;
  /** The index of the piece's first line of its own among the Markdown's lines. */
  firstLine: number;
  /** How many lines `carried` put in front of it. */
  carriedLines: number;
}

export const PIECE_LIMITS = {
  markers: 16,
  columns: 64,
  pieceBytes: 64 * 1024,
  pieceLines: 512,
  unitBytes: 256 * 1024,
  weight: 600,
  /** Pieces smaller than this are weighed as if they had this size. */
  weightFloor: 1024,
};

interface Fence {
  char: string;
  length: number;
  /** Quote markers before the fence: the fence ends with the quote. */
  quotes: number;
  /** The opening line, put in front of a piece cut inside the fence. */
  opening: string;
}

interface Line {
  text: string;
  /** Where the text may be cut before this line. */
  cut: 'safe' | 'seam' | null;
  /** Emphasis and link delimiters (`*`, `_` weigh 1, `[`, `]` weigh 3). */
  weight: number;
  /** The top-level fenced code block this line is inside, if any. */
  fence: Fence | null;
  /** The header rows of the table this line is a body row of, if any. */
  table: [string, string] | null;
  /** Inside an HTML block or fenced code (a piece ending before this line is left open). */
  open: boolean;
}

const PREFIX_TOKEN = /[ \t]+|>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)|\[\^[^\]\s]{1,999}\]:/y;
const QUOTE_PREFIX = /^(?: {0,3}>[ \t]?)*/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
/** Lines that end a table: other blocks' starts, indented code, thematic breaks. */
const TABLE_END = /^(?: {0,3}(?:#{1,6}(?:[ \t]|$)|>|`{3,}|~{3,}|<|(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$))| {4}|\t| {0,3}([-*_])[ \t]*(?:\1[ \t]*){2,}$)/;
const HTML_ENDS: [RegExp, RegExp | null][] = [
  [/^ {0,3}<(?:pre|script|style|textarea)(?:[ \t>]|$)/i, /<\/(?:pre|script|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
  // Other tags: the block ends at a blank line.
  [/^ {0,3}<\/?[A-Za-z]/, null],
];

function columnsOf(whitespace: string, column: number): number {
  let width = 0;
  for (const ch of whitespace) width += ch === '\t' ? 4 - ((column + width) % 4) : 1;
  return width;
}

/**
 * The line with its container prefix capped: markers past the limit are dropped (with the
 * whitespace after them) and indentation past the column limit is narrowed. Lines within the
 * limits are returned as they are.
 */
export function capLinePrefix(line: string): string {
  let pos = 0;
  let column = 0;
  let markers = 0;
  let out = '';
  let changed = false;
  let dropSpace = false;
  while (pos < line.length) {
    PREFIX_TOKEN.lastIndex = pos;
    const m = PREFIX_TOKEN.exec(line);
    if (!m) break;
    const token = m[0];
    pos += token.length;
    if (token[0] === ' ' || token[0] === '\t') {
      if (dropSpace) {
        dropSpace = false;
        changed = true;
        continue;
      }
      const width = columnsOf(token, column);
      if (column + width > PIECE_LIMITS.columns) {
        const kept = Math.max(1, PIECE_LIMITS.columns - column);
        out += ' '.repeat(kept);
        column += kept;
        changed = true;
      } else {
        out += token;
        column += width;
      }
    } else if (markers >= PIECE_LIMITS.markers) {
      dropSpace = true;
      changed = true;
    } else {
      out += token;
      column += token.length;
      markers++;
      dropSpace = false;
    }
  }
  return changed ? out + line.slice(pos) : line;
}

function weightOf(line: string): number {
  let weight = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 42 /* * */ || c === 95 /* _ */) weight += 1;
    else if (c === 91 /* [ */ || c === 93 /* ] */) weight += 3;
  }
  return weight;
}

function quoteDepth(line: string): number {
  const prefix = QUOTE_PREFIX.exec(line)![0];
  let n = 0;
  for (const ch of prefix) if (ch === '>') n++;
  return n;
}

/** The lines with their cut points and context, in one pass. */
function scanLines(markdown: string): Line[] {
  const raw = markdown.split(/\r\n|\r|\n/);
  const lines: Line[] = [];
  let fence: Fence | null = null;
  let html: RegExp | 'blank' | null = null;
  let table: [string, string] | null = null;
  let prevBlank = true;
  let prevText = '';
  // A line of quote markers alone ends a paragraph in the quote as a blank line does.
  let prevQuoteBlank = false;
  for (let i = 0; i < raw.length; i++) {
    // A fence inside a quote ends with the quote.
    if (fence && fence.quotes > 0 && quoteDepth(raw[i]) < fence.quotes) fence = null;
    const inFence: Fence | null = fence;
    const text: string = inFence ? raw[i] : capLinePrefix(raw[i]);
    const blank = !/[^ \t]/.test(text);
    if (html === 'blank' && blank) html = null;
    const open = inFence !== null || html !== null;
    let cut: Line['cut'] = null;
    const first = text.charCodeAt(0);
    const cuttable = i > 0 && !open && !blank && !prevQuoteBlank && first !== 32 && first !== 9;
    if (cuttable && !DELIMITER_ROW.test(text) && (prevBlank || !SETEXT_UNDERLINE.test(text))) {
      cut = prevBlank && !LIST_ITEM.test(text) ? 'safe' : 'seam';
    }
    if (table && (blank || TABLE_END.test(text))) table = null;
    const line: Line = { text, cut, weight: 0, fence: inFence, table, open };
    if (inFence) {
      const body = text.slice(QUOTE_PREFIX.exec(text)![0].length);
      const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(body);
      if (close && close[1][0] === inFence.char && close[1].length >= inFence.length) fence = null;
    } else if (html && html !== 'blank') {
      if (html.test(text)) html = null;
      line.weight = weightOf(text);
    } else {
      const prefix: string = QUOTE_PREFIX.exec(text)![0];
      const body = text.slice(prefix.length);
      const opening = FENCE_OPEN.exec(body);
      if (opening && (opening[1][0] === '~' || !opening[2].includes('`'))) {
        fence = { char: opening[1][0], length: opening[1].length, quotes: quoteDepth(prefix), opening: text };
      } else {
        line.weight = weightOf(text);
        if (!html && prefix === '') {
          for (const [start, end] of HTML_ENDS) {
            if (!start.test(body)) continue;
            html = end === null ? 'blank' : end.test(body.replace(start, '')) ? null : end;
            break;
          }
        }
        if (!table && !prevBlank && DELIMITER_ROW.test(text) && prevText.includes('|')) table = [prevText, text];
      }
    }
    lines.push(line);
    prevBlank = blank;
    prevQuoteBlank = !blank && /^[ \t>]*$/.test(text);
    prevText = text;
  }
  return lines;
}

interface Unit {
  start: number;
  end: number;
  bytes: number;
  weight: number;
}

function overweight(weight: number, bytes: number): boolean {
  return weight * weight > PIECE_LIMITS.weight * Math.max(bytes, PIECE_LIMITS.weightFloor);
}

/** Runs of lines between cut points; runs over PIECE_LIMITS.unitBytes cut between any lines. */
function unitsOf(lines: Line[]): Unit[] {
  const units: Unit[] = [];
  let unit: Unit | null = null;
  for (let i = 0; i < lines.length; i++) {
    const bytes = lines[i].text.length + 1;
    if (!unit || lines[i].cut || unit.bytes + bytes > PIECE_LIMITS.unitBytes) {
      if (unit) units.push(unit);
      unit = { start: i, end: i, bytes: 0, weight: 0 };
    }
    unit.end = i + 1;
    unit.bytes += bytes;
    unit.weight += lines[i].weight;
  }
  if (unit) units.push(unit);
  return units;
}

/** Splits Markdown into pieces to parse one by one (see the file comment). */
export function markdownPieces(markdown: string): MarkdownPiece[] {
  const lines = scanLines(markdown);
  const pieces: MarkdownPiece[] = [];
  let current: { start: number; end: number; bytes: number; weight: number; literal: boolean } | null = null;
  const flush = () => {
    if (!current) return;
    const { start, end } = current;
    const first = lines[start];
    const seam = start > 0 && first.cut !== 'safe';
    let text = '';
    let carried: MarkdownPiece['carried'] = null;
    if (seam && !current.literal) {
      if (first.table) {
        text = `${first.table[0]}\n${first.table[1]}\n`;
        carried = 'table';
      } else if (first.fence && first.fence.quotes === 0) {
        text = `${first.fence.opening}\n`;
        carried = 'fence';
      }
    }
    for (let i = start; i < end; i++) text += i < end - 1 ? `${lines[i].text}\n` : lines[i].text;
    const openAtEnd = end < lines.length && lines[end].open;
    const carriedLines = carried === 'table' ? 2 : carried === 'fence' ? 1 : 0;
    pieces.push({ text, seam, literal: current.literal, carried, openAtEnd, firstLine: start, carriedLines });
    current = null;
  };
  for (const unit of unitsOf(lines)) {
    // A line longer than a unit (the only run that cannot be cut) is plain text as well.
    if (overweight(unit.weight, unit.bytes) || unit.bytes > PIECE_LIMITS.unitBytes) {
      flush();
      current = { ...unit, literal: true };
      flush();
      continue;
    }
    if (current) {
      const bytes = current.bytes + unit.bytes;
      const full = bytes > PIECE_LIMITS.pieceBytes || unit.end - current.start > PIECE_LIMITS.pieceLines || overweight(current.weight + unit.weight, bytes);
      if (!full) {
        current.end = unit.end;
        current.bytes = bytes;
        current.weight += unit.weight;
        continue;
      }
      flush();
    }
    current = { ...unit, literal: false };
  }
  flush();
  return pieces;
}
