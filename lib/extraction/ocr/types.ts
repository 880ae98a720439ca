import type { SourceLine } from '@/lib/document/layout';

/** One recognised word with its box in fractions of the image ([x0, y0, x1, y1], y downwards). */
export interface OcrWord {
  text: string;
  box: [number, number, number, number];
  /** The line it was read in: words of one line share the number (numbered across the page). */
  line: number;
  /** Tesseract's confidence in it, 0–100 (-1 when not given). */
  confidence: number;
}

/**
 * Ruling lines found in the image (rules.ts), in fractions of it: horizontal ones at `y` from
 * `x0` to `x1`, vertical ones at `x` from `y0` to `y1`.
 */
export interface OcrRules {
  h: { y: number; x0: number; x1: number }[];
  v: { x: number; y0: number; y1: number }[];
}

/** What a reading should bring besides the text. */
export interface OcrWants {
  /** The image's ruling lines (`OcrOutput.rules`), for tables: a decode and a pass over the pixels more. */
  rules?: boolean;
}

export interface OcrOutput {
  /** Recognised text: lines separated by "\n", blocks (paragraphs) by a blank line. */
  text: string;
  /** Mean word confidence, 0–100 (0 when no words were found). */
  meanConfidence: number;
  /** Number of recognised words. */
  words: number;
  /**
   * The recognised lines in reading order with their boxes in fractions of the image, grouped by
   * paragraph; absent when the engine does not report positions.
   */
  lines?: SourceLine[];
  /** Every recognised word with its box; absent when the engine does not report positions. */
  wordBoxes?: OcrWord[];
  /** The image's size in pixels, when known (the boxes are fractions of it). */
  size?: { width: number; height: number };
  /** Ruling lines in the image, when asked for (OcrWants.rules) and words were read. */
  rules?: OcrRules;
  /** The Tesseract data the kept reading was made with (e.g. ["chi_sim", "chi_tra", "eng"]); absent for the cloud. */
  languages?: string[];
  /** Set when no words were found and the page has no ink either: there was nothing to read (ink.ts). */
  blank?: boolean;
}

/**
 * OCR as the PDF and image extractors use it; one instance per extraction task. `language` is an
 * `options.language` code (./languages.ts), undefined for none.
 */
export interface OcrService {
  /** Which engine answers: "tesseract-cli", "tesseract.js" or "cloud". */
  readonly engine: string;
  /** Recognises an image file (PNG, JPEG, TIFF, WebP, BMP, GIF, HEIC/HEIF), turned upright. */
  recognizeImage(path: string, language: string | undefined, signal: AbortSignal, want?: OcrWants): Promise<OcrOutput>;
  /** Renders one PDF page (1-based) at its embedded image resolution and recognises it. */
  recognizePdfPage(pdfPath: string, page: number, language: string | undefined, signal: AbortSignal, want?: OcrWants): Promise<OcrOutput>;
  /** Frees engine resources (workers, temp files). */
  close(): Promise<void>;
}
