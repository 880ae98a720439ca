/*
 * Where the text of an extraction's Markdown came from on its pages: the layout record kept
 * beside the Markdown, and the boxes a span of the Markdown (a chunk) covers.
 *
 * Positions are page fractions (0–1, origin top-left of the page as it is shown, /Rotate
 * applied), so they do not depend on the resolution a page is rendered at.
 *
 * Stored form (compact; the API expands it, see toLayoutView):
 *   { version: 1, pages: [{ page, blocks: [[line, ...], ...] }] }
 *   line = [char_start, char_end, x0, y0, x1, y1]: a line of the page written at
 *   markdown.slice(char_start, char_end). Lines are in Markdown order across the whole record.
 *   A block is a paragraph, list item, heading, table or code block: the lines a chunk covers
 *   within one block are reported as one box.
 */

import { isLetterOrDigitCode, isSpaceCode } from '@/lib/text/classes';
import type { Box, SourceLine } from './types';

export type { Box, SourceLine } from './types';

export type LayoutLine = [number, number, number, number, number, number];

export interface LayoutPage {
  page: number;
  blocks: LayoutLine[][];
}

export interface ExtractionLayout {
  version: 1;
  pages: LayoutPage[];
}

export interface CitationBox {
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Whether a code point is a letter or a digit (`\p{L}` or `\p{N}`). */
export const isContentCode = isLetterOrDigitCode;

/** Letters and digits: what survives of a source line in its Markdown (markup, spaces and hyphens aside). */
export function contentChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i++;
    if (isContentCode(code)) n++;
  }
  return n;
}

function round(v: number): number {
  return Math.round(Math.min(1, Math.max(0, v)) * 10000) / 10000;
}

export function unionBox(boxes: readonly Box[]): Box {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    x0 = Math.min(x0, b[0]);
    y0 = Math.min(y0, b[1]);
    x1 = Math.max(x1, b[2]);
    y1 = Math.max(y1, b[3]);
  }
  return [x0, y0, x1, y1];
}

/**
 * Splits source lines among consecutive texts by their letters and digits: each line goes to the
 * text where its middle falls. OCR's word list and its text output come from one reading, so
 * their letters agree almost exactly.
 */
export function distributeLines(texts: readonly string[], lines: readonly SourceLine[]): SourceLine[][] {
  const counts = texts.map(contentChars);
  const total = counts.reduce((a, n) => a + n, 0);
  const lineTotal = lines.reduce((a, l) => a + l.chars, 0);
  const out: SourceLine[][] = texts.map(() => []);
  if (total === 0 || lineTotal === 0 || texts.length === 0) return out;
  let k = 0;
  let blockEnd = counts[0];
  let seen = 0;
  for (const line of lines) {
    const mid = ((seen + line.chars / 2) * total) / lineTotal;
    seen += line.chars;
    while (k < texts.length - 1 && mid >= blockEnd) blockEnd += counts[++k];
    out[k].push(line);
  }
  return out;
}

/** LayoutBuilder.add's buffer of content positions, grown as needed. */
let contentPositions = new Int32Array(4096);

/** Collects the positions of the Markdown being written; `build` gives the record. */
export class LayoutBuilder {
  private readonly pages = new Map<number, LayoutLine[][]>();

  /**
   * `markdown.slice(start, end)` was written from `lines` (in reading order) on `page`. Each line
   * gets the part of the span holding its share of the letters and digits, so a chunk that
   * starts mid-paragraph is placed on the right line.
   */
  add(page: number, markdown: string, start: number, end: number, lines: readonly SourceLine[]): void {
    const usable = lines.filter((l) => l.box.every(Number.isFinite) && l.box[2] >= l.box[0] && l.box[3] >= l.box[1]);
    if (usable.length === 0 || end <= start) return;
    // Where the span's letters and digits are, in a buffer kept between calls (a document's
    // worth of spans made a new array each otherwise).
    let positions = contentPositions;
    let count = 0;
    for (let i = start; i < end; i++) {
      const code = markdown.codePointAt(i)!;
      if (isContentCode(code)) {
        if (count === positions.length) {
          const grown = new Int32Array(positions.length * 2);
          grown.set(positions);
          positions = contentPositions = grown;
        }
        positions[count++] = i;
      }
      if (code > 0xffff) i++;
    }
    let total = 0;
    for (const l of usable) total += l.chars;
    const starts: number[] = [];
    let cum = 0;
    for (let i = 0; i < usable.length; i++) {
      if (i === 0 || total === 0 || count === 0) starts.push(start);
      else {
        const idx = Math.min(count - 1, Math.floor((cum * count) / total));
        starts.push(Math.max(starts[i - 1], positions[idx]));
      }
      cum += usable[i].chars;
    }
    let blocks = this.pages.get(page);
    if (!blocks) this.pages.set(page, (blocks = []));
    let current: LayoutLine[] = [];
    let group: number | undefined;
    for (let i = 0; i < usable.length; i++) {
      const l = usable[i];
      let s = starts[i];
      let e = i + 1 < usable.length ? starts[i + 1] : end;
      while (e > s && isSpaceCode(markdown.charCodeAt(e - 1))) e--;
      while (s < e && isSpaceCode(markdown.charCodeAt(s))) s++;
      if (e <= s) continue;
      if (current.length && l.group !== group) {
        blocks.push(current);
        current = [];
      }
      group = l.group;
      current.push([s, e, round(l.box[0]), round(l.box[1]), round(l.box[2]), round(l.box[3])]);
    }
    if (current.length) blocks.push(current);
  }

  /** One block whose lines are known exactly: each `[start, end)` was written from `box`. */
  addExact(page: number, lines: readonly { start: number; end: number; box: Box }[]): void {
    const block: LayoutLine[] = lines
      .filter((l) => l.end > l.start && l.box.every(Number.isFinite))
      .map((l) => [l.start, l.end, round(l.box[0]), round(l.box[1]), round(l.box[2]), round(l.box[3])]);
    if (!block.length) return;
    let blocks = this.pages.get(page);
    if (!blocks) this.pages.set(page, (blocks = []));
    blocks.push(block);
  }

  build(): ExtractionLayout {
    const pages = [...this.pages].sort((a, b) => a[0] - b[0]).map(([page, blocks]) => ({ page, blocks }));
    return { version: 1, pages };
  }
}

/** Whether a stored value is a layout record this code can read. */
export function isExtractionLayout(value: unknown): value is ExtractionLayout {
  return !!value && typeof value === 'object' && (value as ExtractionLayout).version === 1 && Array.isArray((value as ExtractionLayout).pages);
}

interface IndexedLine {
  line: LayoutLine;
  page: number;
  block: number;
}

/** Finds the boxes of Markdown spans; build once per document, ask per chunk. */
export class LayoutIndex {
  private readonly lines: IndexedLine[] = [];

  constructor(layout: ExtractionLayout) {
    let block = 0;
    for (const p of layout.pages) for (const b of p.blocks) {
      for (const line of b) this.lines.push({ line, page: p.page, block });
      block++;
    }
    this.lines.sort((a, b) => a.line[0] - b.line[0]);
  }

  /**
   * The page regions `[start, end)` of the Markdown came from: per block, the union of the lines
   * the span overlaps; in Markdown order.
   */
  boxes(start: number, end: number): CitationBox[] {
    const out: CitationBox[] = [];
    // Lines are short and never nest: the first candidate is the last line starting before `start`.
    let lo = 0;
    let hi = this.lines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.lines[mid].line[0] < start) lo = mid + 1;
      else hi = mid;
    }
    let last: { block: number; box: CitationBox } | null = null;
    for (let i = Math.max(0, lo - 1); i < this.lines.length; i++) {
      const { line, page, block } = this.lines[i];
      if (line[0] >= end) break;
      if (line[1] <= start) continue;
      if (last && last.block === block) {
        const b = last.box;
        b.x0 = Math.min(b.x0, line[2]);
        b.y0 = Math.min(b.y0, line[3]);
        b.x1 = Math.max(b.x1, line[4]);
        b.y1 = Math.max(b.y1, line[5]);
      } else {
        last = { block, box: { page, x0: line[2], y0: line[3], x1: line[4], y1: line[5] } };
        out.push(last.box);
      }
    }
    return out;
  }
}
