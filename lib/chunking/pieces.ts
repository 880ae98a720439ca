import type { Block } from './source';
import { countTokens } from './tokenizer';
import { tokenWindows } from './text';

/*
 * Pieces: text that goes into a chunk as a unit, with its exact token count and the offset (in
 * the parsed text) used for page and section metadata. Oversized blocks are split into pieces
 * here, each within its budget, by the structure the document model gives them (source.ts):
 *  - tables between rows, every piece repeating the caption, the header rows and the delimiter row;
 *  - fenced code between lines, every piece re-fenced with the original opening fence line;
 *  - lists between top-level items;
 *  - anything else (and any single row, line or item that is still too big) by token windows
 *    cut at sentence or word boundaries.
 */

export interface Piece {
  text: string;
  tokens: number;
  /** Offset in the parsed text of the piece's first character (for page/section). */
  offset: number;
  /**
   * Offset just after the last character of the parsed text the piece holds (a repeated table
   * header or a re-opened fence is not part of it); absent: offset + text length.
   */
  end?: number;
  heading: boolean;
  /** Joiner placed before this piece when it follows another piece in the same chunk. */
  sep: string;
  /** Start a new chunk at this piece (unless the chunk so far holds only headings). */
  breakBefore: boolean;
}

/** Budget of the i-th piece of a split. */
export type Budget = (index: number) => number;

interface Line {
  text: string;
  /** Offset of the line in the parsed text. */
  offset: number;
  tokens: number;
}

function linesOf(block: Block): Line[] {
  const lines: Line[] = [];
  let at = block.start;
  for (const text of block.text.split('\n')) {
    lines.push({ text, offset: at, tokens: -1 });
    at += text.length + 1;
  }
  return lines;
}

function tokensOf(line: Line): number {
  if (line.tokens < 0) line.tokens = countTokens(line.text);
  return line.tokens;
}

function piece(text: string, offset: number, tokens = countTokens(text), end?: number): Piece {
  return { text, tokens, offset, end, heading: false, sep: '\n\n', breakBefore: false };
}

/** Where a piece's text ends in the parsed text. */
export function pieceEnd(p: Piece): number {
  return p.end ?? p.offset + p.text.length;
}

/** Token windows over arbitrary text; offsets are shifted by `base`. */
export function splitProse(text: string, base: number, budget: Budget, startIndex = 0): Piece[] {
  return tokenWindows(text, { budget: (i) => budget(startIndex + i), overlap: 0 }).map((w) =>
    piece(w.content, base + w.start, w.tokens, base + w.end),
  );
}

/**
 * Greedy packing of lines into pieces rendered by `render`. A line that cannot fit even alone is
 * handed to `oversized`. Counts are estimated from per-line counts (each counted once) plus one
 * token per line break, then every rendered piece is counted exactly; a piece over budget gives
 * back its last line.
 */
function packLines(
  lines: Line[],
  budget: Budget,
  overhead: number,
  render: (lines: Line[]) => string,
  oversized: (line: Line, index: number) => Piece[],
): Piece[] {
  const out: Piece[] = [];
  let group: Line[] = [];
  let estimate = overhead;
  const cost = (line: Line) => tokensOf(line) + 1;
  // A smaller first budget (room left in the current chunk) is only a preference: when the
  // first line does not fit it (with the header or fence) but fits a whole chunk, every piece
  // gets the whole-chunk budgets and the caller's packer starts a new chunk for the first one.
  if (lines.length > 0 && overhead + cost(lines[0]) > budget(0) && overhead + cost(lines[0]) <= budget(1)) {
    const shifted = budget;
    budget = (i) => shifted(i + 1);
  }
  /** Emits the group as one piece; lines that do not fit after an exact count stay in the group. */
  const emit = () => {
    const b = budget(out.length);
    const rest: Line[] = [];
    let text = render(group);
    let tokens = countTokens(text);
    while (tokens > b && group.length > 1) {
      rest.unshift(group.pop() as Line);
      text = render(group);
      tokens = countTokens(text);
    }
    const last = group[group.length - 1];
    out.push(piece(text, group[0].offset, tokens, last.offset + last.text.length));
    group = rest;
    estimate = overhead + rest.reduce((sum, l) => sum + cost(l), 0);
  };
  for (const line of lines) {
    while (group.length > 0 && estimate + cost(line) > budget(out.length)) emit();
    if (overhead + cost(line) > budget(out.length)) {
      out.push(...oversized(line, out.length));
      continue;
    }
    group.push(line);
    estimate += cost(line);
  }
  while (group.length > 0) emit();
  return out;
}

export function splitTable(block: Block, budget: Budget, text: string): Piece[] {
  const parts = block.table;
  if (!parts || parts.rows.length === 0) return splitProse(block.text, block.start, budget);
  const header = text.slice(parts.header[0], parts.header[1]);
  const headerTokens = countTokens(header) + 1;
  let headerShown = false;
  const rows: Line[] = parts.rows.map(([start, end]) => ({ text: text.slice(start, end), offset: start, tokens: -1 }));
  const pieces = packLines(
    rows,
    budget,
    headerTokens,
    (group) => {
      headerShown = true;
      return `${header}\n${group.map((r) => r.text).join('\n')}`;
    },
    // A row that does not fit with the header: alone if it fits, else cut as text (the only
    // case a row is split; chunk_size is a hard limit). The header is kept at least once.
    (row, index) => {
      if (!headerShown) {
        headerShown = true;
        return splitProse(`${header}\n${row.text}`, block.start, budget, index);
      }
      const alone = tokensOf(row);
      if (alone <= budget(index)) return [piece(row.text, row.offset, alone)];
      return splitProse(row.text, row.offset, budget, index);
    },
  );
  // The first piece holds the table from its first line on (a caption or header is not repeated there).
  if (pieces.length > 0 && pieces[0].offset === parts.rows[0][0]) pieces[0] = { ...pieces[0], offset: block.start };
  if (parts.tail) {
    const tail = text.slice(parts.tail[0], parts.tail[1]);
    pieces.push(...(countTokens(tail) <= budget(pieces.length) ? [piece(tail, parts.tail[0])] : splitProse(tail, parts.tail[0], budget, pieces.length)));
  }
  return pieces;
}

export function splitCode(block: Block, budget: Budget): Piece[] {
  const lines = linesOf(block);
  const open = lines[0].text.trimStart();
  const fenceChars = /^(`{3,}|~{3,})/.exec(open)?.[1] ?? '```';
  const last = lines[lines.length - 1].text.trim();
  const closed = lines.length > 1 && last.startsWith(fenceChars[0]) && /^(`{3,}|~{3,})$/.test(last);
  const body = lines.slice(1, closed ? -1 : undefined);
  const close = closed ? last : fenceChars;
  const wrap = (inner: string[]) => `${open}\n${inner.join('\n')}\n${close}`;
  const overhead = countTokens(`${open}\n`) + countTokens(`\n${close}`);
  return packLines(
    body,
    budget,
    overhead,
    (group) => wrap(group.map((l) => l.text)),
    // A single line too long for a fence of its own: cut it as text, each part re-fenced.
    (line, index) =>
      tokenWindows(line.text, { budget: (i) => budget(index + i) - overhead - 2, overlap: 0 }).map((w) =>
        piece(wrap([w.content]), line.offset + w.start, undefined, line.offset + w.end),
      ),
  );
}

export function splitList(block: Block, budget: Budget, text: string): Piece[] {
  if (!block.items?.length) return splitProse(block.text, block.start, budget);
  const items: Line[] = block.items.map(([start, end]) => ({ text: text.slice(start, end).trimEnd(), offset: start, tokens: -1 }));
  return packLines(
    items,
    budget,
    0,
    (group) => group.map((i) => i.text).join('\n'),
    (item, index) => splitProse(item.text, item.offset, budget, index),
  );
}

/** Splits a block that does not fit its budget. */
export function splitBlock(block: Block, budget: Budget, text: string): Piece[] {
  switch (block.type) {
    case 'table':
      return splitTable(block, budget, text);
    case 'code':
      return splitCode(block, budget);
    case 'list':
      return splitList(block, budget, text);
    default:
      return splitProse(block.text, block.start, budget);
  }
}

/**
 * Packs pieces into chunks of at most `size` tokens: pieces are joined with their `sep`; a chunk
 * ends before a piece marked breakBefore (unless it only holds headings so far) or when the next
 * piece would not fit. The estimate (piece counts plus one token per separator) is checked
 * exactly when a chunk is closed; a chunk over size hands its last pieces to the next chunk.
 */
export interface PackedChunk {
  pieces: Piece[];
  content: string;
  tokens: number;
}

export class Packer {
  readonly chunks: PackedChunk[] = [];
  private group: Piece[] = [];
  private estimate = 0;
  private headings = 0;

  constructor(private readonly size: number) {}

  get isEmpty(): boolean {
    return this.group.length === 0;
  }

  get onlyHeadings(): boolean {
    return this.group.length > 0 && this.headings === this.group.length;
  }

  /** Tokens still free in the current chunk for a piece joined with a separator. */
  get room(): number {
    return this.group.length === 0 ? this.size : this.size - this.estimate - 1;
  }

  add(p: Piece): void {
    if (this.group.length > 0) {
      const breakHere = p.breakBefore && !this.onlyHeadings;
      const cost = p.tokens + (p.sep ? 1 : 0);
      if (breakHere || this.estimate + cost > this.size) this.flush();
    }
    this.estimate += this.group.length > 0 ? p.tokens + (p.sep ? 1 : 0) : p.tokens;
    this.group.push(p);
    if (p.heading) this.headings++;
  }

  flush(): void {
    if (this.group.length === 0) return;
    const carry: Piece[] = [];
    let content = render(this.group);
    let tokens = countTokens(content);
    while (tokens > this.size && this.group.length > 1) {
      carry.unshift(this.group.pop() as Piece);
      content = render(this.group);
      tokens = countTokens(content);
    }
    if (content) this.chunks.push({ pieces: this.group, content, tokens });
    this.group = [];
    this.estimate = 0;
    this.headings = 0;
    for (const p of carry) this.add({ ...p, breakBefore: false });
  }

  finish(): PackedChunk[] {
    while (this.group.length > 0) this.flush();
    return this.chunks;
  }
}

export function render(pieces: Piece[]): string {
  let out = '';
  pieces.forEach((p, i) => {
    out += i === 0 ? p.text : p.sep + p.text;
  });
  return out.trim();
}
