/** OCR of one page through the OCR service, keeping the best result for the error message. */
import type { OcrOutput, OcrService, OcrWants } from '@/lib/extraction/ocr/types';
import { ExtractionError, throwIfAborted, type ExtractInput } from '@/lib/extraction/types';
import { ocrPageMetadata, type OcrPageMetadata } from '@/lib/extraction/ocr/metadata';
import { ocrRead } from './merge';

/**
 * The OCR runs of one document: how many could have found text, and each page's reading for the
 * document's metadata (`ocr`, as images have it). A page found blank (no ink, ocr/ink.ts) is no
 * attempt: a scan of empty pages is an empty document, not a failed reading.
 */
export interface OcrTally {
  attempts: number;
  /** Each page read (blank ones too), in the order they were read. */
  pages: OcrPageMetadata[];
}

/** Page `n` through the OCR service: its output when it read words, null when blank, wordless or failed (cancellation and timeouts are thrown). */
export async function recognizePage(ocr: OcrService, input: ExtractInput, n: number, tally: OcrTally, want: OcrWants = {}): Promise<OcrOutput | null> {
  try {
    const out = await ocr.recognizePdfPage(input.path, n, input.options.language, input.signal, want);
    tally.pages.push(ocrPageMetadata(out, n));
    if (out.blank) return null;
    tally.attempts++;
    return ocrRead(out) ? out : null;
  } catch (err) {
    throwIfAborted(input.signal);
    if (err instanceof ExtractionError && (err.code === 'CANCELLED' || err.code === 'EXTRACTION_TIMEOUT')) throw err;
    tally.attempts++;
    return null;
  }
}
