/** OCR of one page through the OCR service, keeping the best result for the error message. */
import type { OcrOutput, OcrService, OcrWants } from '@/lib/extraction/ocr/types';
import { ExtractionError, throwIfAborted, type ExtractInput } from '@/lib/extraction/types';
import { ocrAccepted } from './merge';

/**
 * The OCR runs of one document that could have found text: how many, and the best result (for
 * OCR_FAILED's message). A page found blank (no ink, ocr/ink.ts) is not one: a scan of empty
 * pages is an empty document, not a failed reading.
 */
export interface OcrTally {
  attempts: number;
  best: OcrOutput | null;
}

/** Page `n` through the OCR service: its output when accepted, null when blank, unusable or failed (cancellation and timeouts are thrown). */
export async function recognizePage(ocr: OcrService, input: ExtractInput, n: number, tally: OcrTally, want: OcrWants = {}): Promise<OcrOutput | null> {
  try {
    const out = await ocr.recognizePdfPage(input.path, n, input.options.language, input.signal, want);
    if (out.blank) return null;
    tally.attempts++;
    if (!tally.best || out.meanConfidence > tally.best.meanConfidence) tally.best = out;
    return ocrAccepted(out) ? out : null;
  } catch (err) {
    throwIfAborted(input.signal);
    if (err instanceof ExtractionError && (err.code === 'CANCELLED' || err.code === 'EXTRACTION_TIMEOUT')) throw err;
    tally.attempts++;
    return null;
  }
}
