import type { SourceLine } from '@/lib/document/layout';

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
  recognizeImage(path: string, language: string | undefined, signal: AbortSignal): Promise<OcrOutput>;
  /** Renders one PDF page (1-based) at its embedded image resolution and recognises it. */
  recognizePdfPage(pdfPath: string, page: number, language: string | undefined, signal: AbortSignal): Promise<OcrOutput>;
  /** Frees engine resources (workers, temp files). */
  close(): Promise<void>;
}
