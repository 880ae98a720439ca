/**
 * What an extraction's metadata says of its OCR (`metadata.ocr`), for images (image.ts) and for
 * the pages of a PDF that were read by OCR (pdf/index.ts): the engine, and each page's reading.
 */
import type { OcrOutput } from './types';

/** One page's reading in the extraction's metadata. */
export interface OcrPageMetadata {
  page: number;
  /** Mean word confidence of the kept reading, 0–100 (one decimal); below 50 (MIN_MEAN_CONFIDENCE) expect errors. */
  confidence: number;
  words: number;
  /** The Tesseract data it was read with. */
  languages?: string[];
  /** No ink on the page: nothing to read. */
  blank?: true;
}

/** `metadata.ocr` of an OCR'd image or PDF. */
export interface OcrMetadata {
  /** The engine that read it: tesseract-cli, tesseract.js or cloud. */
  engine: string;
  pages: OcrPageMetadata[];
}

/** A page's entry from its reading. */
export function ocrPageMetadata(output: OcrOutput, page: number): OcrPageMetadata {
  const entry: OcrPageMetadata = { page, confidence: Math.round(output.meanConfidence * 10) / 10, words: output.words };
  if (output.languages?.length) entry.languages = [...output.languages];
  if (output.blank) entry.blank = true;
  return entry;
}
