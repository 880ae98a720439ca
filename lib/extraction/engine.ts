import {
  extractDocx, extractXlsx, extractPptx, extractCsv, extractTsv, extractHtml, extractText,
  extractOdf, extractRst, extractOrg, extractXml, extractJson, extractEml, extractMsg, extractEpub, extractRtf, extractDoc, extractWithLibreOffice,
  extractImage, extractPdf, type Extractor,
} from './extractors';
import { createOcrService } from './ocr';
import { isImageType } from './formats';
import { ExtractionError, type ExtractInput, type ExtractResult } from './types';

export { extractImage, extractPdf } from './extractors';

const OFFICE: Record<string, Extractor> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': extractDocx,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': extractXlsx,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': extractPptx,
  'application/vnd.oasis.opendocument.text': extractOdf,
  'application/vnd.oasis.opendocument.spreadsheet': extractOdf,
  'application/vnd.oasis.opendocument.presentation': extractOdf,
  'application/epub+zip': extractEpub,
  'application/rtf': extractRtf,
  'application/msword': extractDoc,
  'application/vnd.ms-excel': extractWithLibreOffice,
  'application/vnd.ms-powerpoint': extractWithLibreOffice,
  'message/rfc822': extractEml,
  'application/vnd.ms-outlook': extractMsg,
  'text/csv': extractCsv,
  'text/tab-separated-values': extractTsv,
  'text/x-rst': extractRst,
  'text/x-org': extractOrg,
  'application/xml': extractXml,
  'application/json': extractJson,
  'text/html': extractHtml,
  'text/plain': extractText,
  'text/markdown': extractText,
};

/** Turns one stored document into Markdown, choosing the extractor by type and OCR by mode. */
export async function extractDocument(input: ExtractInput): Promise<ExtractResult> {
  if (input.mimeType === 'application/pdf') {
    const ocr = input.mode === 'simple' ? null : createOcrService(input.options, input.tmpDir);
    try {
      return await extractPdf(input, ocr);
    } finally {
      await ocr?.close();
    }
  }
  if (isImageType(input.mimeType)) {
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
  const extractor = OFFICE[input.mimeType];
  if (!extractor) throw new ExtractionError('UNSUPPORTED_FORMAT', `Documents of type ${input.mimeType} cannot be extracted`);
  return extractor(input);
}
