/**
 * Every extractor as the rest of Quarry calls it: the format's reader (lib/extraction/pdf, ocr,
 * office) gives the document model, and its Markdown and layout record are rendered here by the
 * one renderer (lib/document/render.ts), so no reader writes Markdown itself.
 */
import * as office from './office';
import { readImage } from './ocr/image';
import type { OcrService } from './ocr/types';
import { ocrTablePage, readPdf } from './pdf';
import { finishExtraction } from './result';
import type { ExtractorName } from '@/lib/formats/registry';
import type { ExtractedDocument, ExtractInput, ExtractResult } from './types';

export type Extractor = (input: ExtractInput) => Promise<ExtractResult>;

/** An Office or text reader as an extractor: its model rendered (result.ts). */
function rendered(read: (input: ExtractInput) => Promise<ExtractedDocument>): Extractor {
  return async (input) => finishExtraction(await read(input));
}

/** A PDF's extraction result (the text layer, and OCR by `ocr` where the mode asks for it). */
export async function extractPdf(input: ExtractInput, ocr: OcrService | null): Promise<ExtractResult> {
  return finishExtraction(await readPdf(input, ocr));
}

/** An image upload's extraction result, by OCR; tables laid out as in scanned PDF pages. */
export async function extractImage(input: ExtractInput, ocr: OcrService): Promise<ExtractResult> {
  return finishExtraction(await readImage(input, ocr, ocrTablePage));
}

export const extractDocx = rendered(office.readDocx);
export const extractXlsx = rendered(office.readXlsx);
export const extractPptx = rendered(office.readPptx);
export const extractCsv = rendered(office.readCsv);
export const extractTsv = rendered(office.readTsv);
export const extractHtml = rendered(office.readHtml);
export const extractText = rendered(office.readText);
export const extractOdf = rendered(office.readOdf);
export const extractRst = rendered(office.readRst);
export const extractOrg = rendered(office.readOrg);
export const extractXml = rendered(office.readXml);
export const extractJson = rendered(office.readJson);
export const extractEml = rendered(office.readEml);
export const extractMsg = rendered(office.readMsg);
export const extractEpub = rendered(office.readEpub);
export const extractRtf = rendered(office.readRtf);
export const extractDoc = rendered(office.readDoc);
export const extractWithLibreOffice = rendered(office.readWithLibreOffice);

/**
 * The reader of every extractor name of the format registry (lib/formats/registry.ts) but PDF and
 * images, which the engine runs with OCR. A name without a reader does not compile.
 */
export const EXTRACTORS: Record<Exclude<ExtractorName, 'pdf' | 'image'>, Extractor> = {
  docx: extractDocx,
  xlsx: extractXlsx,
  pptx: extractPptx,
  odf: extractOdf,
  epub: extractEpub,
  rtf: extractRtf,
  doc: extractDoc,
  libreoffice: extractWithLibreOffice,
  eml: extractEml,
  msg: extractMsg,
  csv: extractCsv,
  tsv: extractTsv,
  rst: extractRst,
  org: extractOrg,
  xml: extractXml,
  json: extractJson,
  html: extractHtml,
  text: extractText,
};
