import {
  extractDocx, extractXlsx, extractPptx, extractCsv, extractTsv, extractHtml, extractText,
  extractOdf, extractRst, extractOrg, extractXml, extractJson, extractEml, extractMsg, extractEpub, extractRtf, extractDoc, extractWithLibreOffice,
} from './office';
import { createOcrService } from './ocr';
import { readImage } from './ocr/image';
import { readPdf } from './pdf';
import { finishExtraction } from './result';
import { isImageType } from './formats';
import { ExtractionError, type ExtractInput, type ExtractResult } from './types';
import type { OcrService } from './ocr/types';

const OFFICE: Record<string, (input: ExtractInput) => Promise<ExtractResult>> = {
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

/** A PDF's extraction result (the text layer, and OCR by `ocr` where the mode asks for it). */
export async function extractPdf(input: ExtractInput, ocr: OcrService | null): Promise<ExtractResult> {
  return finishExtraction(await readPdf(input, ocr));
}

/** An image upload's extraction result, by OCR. */
export async function extractImage(input: ExtractInput, ocr: OcrService): Promise<ExtractResult> {
  return finishExtraction(await readImage(input, ocr));
}

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
