import { formatOf } from '@/lib/formats/registry';
import { EXTRACTORS, extractImage, extractPdf } from './extractors';
import { createOcrService } from './ocr';
import { ExtractionError, type ExtractInput, type ExtractResult } from './types';

export { extractImage, extractPdf } from './extractors';

/** Turns one stored document into Markdown, choosing the extractor by type and OCR by mode. */
export async function extractDocument(input: ExtractInput): Promise<ExtractResult> {
  const format = formatOf(input.mimeType);
  if (format?.extractor === 'pdf') {
    const ocr = input.mode === 'simple' ? null : createOcrService(input.options, input.tmpDir);
    try {
      return await extractPdf(input, ocr);
    } finally {
      await ocr?.close();
    }
  }
  if (format?.extractor === 'image') {
    if (input.mode === 'simple') {
      throw new ExtractionError('OCR_FAILED', 'Images can only be read with OCR, which simple mode does not run; use normal or advanced mode');
    }
    const ocr = createOcrService(input.options, input.tmpDir);
    try {
      return await extractImage(input, ocr);
    } finally {
      await ocr.close();
    }
  }
  if (!format) throw new ExtractionError('UNSUPPORTED_FORMAT', `Documents of type ${input.mimeType} cannot be extracted`);
  return EXTRACTORS[format.extractor](input);
}
