/**
 * The pieces PDFium's reader (pdfium.ts) builds pdf.js-shaped text items from: what the characters
 * of one text object share, and the writer that groups characters into items.
 */
import type { Matrix } from './matrix';
import { decimal } from './pdfium-numbers';
import type { FontFlags, TextItemLike } from './runs';
import { expandLigatures } from './text';

/** What the characters of one text object share. */
export interface TextObjectInfo {
  handle: number;
  font: FontEntry;
  fontSize: number;
  dirX: number;
  dirY: number;
  em: number;
  height: number;
  scale: readonly number[];
}

export interface FontEntry {
  handle: number;
  id: string;
  flags: FontFlags | null;
  mono: boolean;
}

export type PdfiumItem = TextItemLike & { hasEOL: boolean };

/**
 * The text items of a page as pdf.js shapes them, built a character at a time: the item under way
 * (its UTF-16 code units, start matrix and extent along the baseline) and the items so far.
 */
export class ItemWriter {
  readonly items: PdfiumItem[] = [];
  /** The start matrix of the item under way, or null between items. */
  start: Matrix | null = null;
  private codes: number[] = [];
  private end = 0;
  private fontId = '';
  private last: PdfiumItem | null = null;

  begin(obj: TextObjectInfo, x: number, y: number): void {
    const [a, b, c, d] = obj.scale;
    this.start = [a, b, c, d, x, y];
    this.end = 0;
    this.fontId = obj.font.id;
  }

  /** Appends a code point to the item under way; a Latin ligature (U+FB00–FB06) as its letters. */
  char(u: number): void {
    if (u > 0xffff) this.codes.push(0xd800 + ((u - 0x10000) >> 10), 0xdc00 + ((u - 0x10000) & 0x3ff));
    else if (u >= 0xfb00 && u <= 0xfb06) for (const ch of expandLigatures(String.fromCharCode(u))) this.codes.push(ch.charCodeAt(0));
    else this.codes.push(u);
  }

  /** The glyph just added ends its advance at (x, y). */
  reach(x: number, y: number, dirX: number, dirY: number): void {
    const s0 = this.start!;
    this.end = Math.max(this.end, (x - s0[4]) * dirX + (y - s0[5]) * dirY);
  }

  /** Ends the item under way; `eol`: a line ends after it (or after the item before when none is under way). */
  flush(eol: boolean): void {
    const start = this.start;
    if (start !== null && this.codes.length > 0) {
      const str = codesToString(this.codes);
      this.last = { str, transform: start, width: Math.max(0, this.end), height: Math.hypot(start[2], start[3]), fontName: this.fontId, dir: 'ltr', hasEOL: eol };
      this.items.push(this.last);
    } else if (eol && this.last !== null) {
      this.last.hasEOL = true;
    }
    this.codes.length = 0;
    this.start = null;
  }

  /**
   * pdf.js's whitespace item: at the end (x, y) of the glyph before, as wide as the gap in units
   * of the text matrix (not scaled by the font size).
   */
  whitespace(before: TextObjectInfo, gap: number, x: number, y: number): void {
    const [a, b, c, d] = before.scale;
    this.items.push({ str: ' ', transform: [a, b, c, d, decimal(x), decimal(y)], width: Math.abs(gap) / (before.em / before.fontSize || 1), height: 0, fontName: this.fontId, dir: 'ltr', hasEOL: false });
  }
}

/** UTF-16 code units as a string, in slices small enough for the argument list. */
function codesToString(codes: number[]): string {
  if (codes.length <= 4096) return String.fromCharCode.apply(null, codes);
  let out = '';
  for (let i = 0; i < codes.length; i += 4096) out += String.fromCharCode.apply(null, codes.slice(i, i + 4096));
  return out;
}
