/**
 * Helpers shared by the OCR engines: image sniffing, text tidying and the confidence thresholds
 * (language codes: ./languages.ts). External programs are started through ../programs.ts.
 */
import { isHeif } from './heif';
import type { OcrOutput } from './types';

export { abortError } from '../types';
export { SCRIPT_LANGUAGES, tesseractLanguages, verticalLanguages } from './languages';

/**
 * Below this mean word confidence a reading is likely guesswork. An image is still given what was
 * read (its confidence is in the extraction's metadata, image.ts); the PDF reader does not add
 * such OCR text to a page whose text layer is usable (pdf/settings.ts). Measured on the fixtures
 * with both engines (test/extraction-ocr.test.ts): clean pages score 95–96, synthetic Korean
 * 89–93, the Traditional-Chinese sample read with the Simplified model (half the characters
 * exact, the rest their simplified forms) 63 (CLI) and 95 (tesseract.js). Garbage scores 0–38:
 * that sample read as English (9 and 0), Korean read as English (38). 50 sits in the middle of
 * the gap between 38 and 63.
 */
export const MIN_MEAN_CONFIDENCE = 50;

/**
 * Below this mean confidence the service tries a second reading (the CJK model alone, or the
 * script OSD detects when no language was given) and keeps the better one. Costs a second
 * pass only on doubtful pages.
 */
export const RETRY_BELOW_CONFIDENCE = 60;

/**
 * Below this mean confidence a page is read again with orientation detection. Clean upright
 * pages score 90–96 (Chinese photos about 81), text turned upside down about 40, so this catches
 * turned pages with room to spare, and costs a second pass only on pages already doubtful.
 */
export const ORIENTATION_CHECK_BELOW = 80;

/**
 * An orientation is trusted when OSD is at least this sure of it. Tesseract's own default (7)
 * leaves many real pages unturned: OSD's confidence is 2.7 on the scanned page of ocr_test.pdf
 * and 3.0 on webp-test (11 on phototest). 2 is what the native engine is run with
 * (`min_orientation_margin`); every upright fixture is given orientation 0.
 */
export const MIN_ORIENTATION_CONFIDENCE = 2;

/** Scripts worth a second reading in their own language when a page read badly as English. */
export const SECOND_READING_LANGUAGE = /^(chi|jpn|kor|ara|heb)/;

export type ImageFormat = 'png' | 'jpeg' | 'tiff' | 'webp' | 'bmp' | 'gif' | 'heif';

export const IMAGE_CONTENT_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
  webp: 'image/webp',
  bmp: 'image/bmp',
  gif: 'image/gif',
  heif: 'image/heif',
};

/**
 * The image format from its first bytes, or null. Engines are only ever given files that pass
 * this check: the tesseract CLI reads a file it does not recognise as an image as a *list of
 * image paths*, which would let a crafted upload make it open other files on the server.
 */
export function sniffImageFormat(head: Uint8Array): ImageFormat | null {
  const b = head;
  const starts = (...bytes: number[]) => bytes.every((v, i) => b[i] === v);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  if (starts(0x49, 0x49, 0x2b, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2b)) return 'tiff';
  if (starts(0x52, 0x49, 0x46, 0x46) && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) return 'webp';
  if (starts(0x42, 0x4d) && b.length >= 18) return 'bmp';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (isHeif(b)) return 'heif';
  return null;
}

// Han, kana and CJK punctuation: scripts written without spaces between words.
const CJK = '\\u3000-\\u303f\\u3040-\\u30ff\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff01-\\uff60';
const CJK_SPACE = new RegExp(`([${CJK}]) +(?=[${CJK}])`, 'g');

/**
 * Removes the spaces Tesseract puts between Chinese or Japanese "words" (each recognised
 * character group is a word to it); Hangul keeps its spaces, Korean is written with them.
 */
export function tidyCjkSpacing(text: string): string {
  return text.replace(CJK_SPACE, '$1');
}

/** Joins a line's words with spaces, except between two CJK characters. */
export function joinWords(words: string[]): string {
  return tidyCjkSpacing(words.join(' '));
}

/**
 * Tesseract's own text output (its spacing is right: it knows which "words" a space separated,
 * which TSV and JSON word lists do not say) in the OcrOutput layout: lines trimmed, one blank
 * line between paragraphs, pages (form feeds) as paragraph breaks.
 */
export function normalizeOcrText(raw: string): string {
  const paragraphs = raw
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, '\n\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.split('\n').map((line) => tidyCjkSpacing(line.replace(/\s+/g, ' ').trim())));
  return layoutText(paragraphs);
}

/** Lines and paragraphs (each a list of lines) to the OcrOutput text layout. */
export function layoutText(paragraphs: string[][]): string {
  return paragraphs
    .map((lines) => lines.map((l) => l.trim()).filter((l) => l.length > 0))
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'))
    .join('\n\n');
}

export function meanOf(values: number[]): number {
  if (values.length === 0) return 0;
  return values.reduce((a, v) => a + v, 0) / values.length;
}

/** The better of two readings: more confident, or the only one with words. */
export function betterOutput(a: OcrOutput, b: OcrOutput): OcrOutput {
  if (a.words === 0) return b;
  if (b.words === 0) return a;
  return b.meanConfidence > a.meanConfidence ? b : a;
}

/** The last meaningful lines of a tool's stderr, for error messages. */
export function stderrTail(stderr: string, lines = 3): string {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/^Estimating resolution/.test(l) && !/^Warning/.test(l))
    .slice(-lines)
    .join('; ');
}
