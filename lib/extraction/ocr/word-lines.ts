/** The lines of an OCR reading's words (Tesseract's own lines), with their vertical extents. */
import type { OcrWord } from './types';

export interface WordLine {
  /** Top and bottom of its words' boxes, in fractions of the image. */
  top: number;
  bottom: number;
  /** Its words, in reading order. */
  words: OcrWord[];
}

/** The words grouped by the line they were read in, in the order the lines first appear. */
export function wordLines(words: readonly OcrWord[]): WordLine[] {
  const lines = new Map<number, WordLine>();
  for (const w of words) {
    const l = lines.get(w.line);
    if (l) {
      l.top = Math.min(l.top, w.box[1]);
      l.bottom = Math.max(l.bottom, w.box[3]);
      l.words.push(w);
    } else lines.set(w.line, { top: w.box[1], bottom: w.box[3], words: [w] });
  }
  return [...lines.values()];
}

/** The median height of the lines the words were read in, as a fraction of the image's height. */
export function textHeight(words: readonly OcrWord[]): number {
  const heights = wordLines(words)
    .map((l) => l.bottom - l.top)
    .sort((a, b) => a - b);
  return heights.length ? heights[heights.length >> 1] : 0;
}
