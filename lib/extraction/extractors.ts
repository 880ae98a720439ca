/**
 * Every extractor as the rest of Quarry calls it: the format's reader (lib/extraction/pdf, ocr,
 * office) gives the document model, and its Markdown and layout record are rendered here by the
 * one renderer (lib/document/render.ts), so no reader writes Markdown itself.
 */
import * as office from './office';
import { readImage } from './ocr/image';
import type { OcrService } from './ocr/types';
import { readPdf } from './pdf';
import { finishExtraction } from './result';
import type { ExtractorName } from '@/lib/formats/registry';
import type { ExtractedDocument, ExtractInput, ExtractResult } from './types';

/** A reader's output: the model, or (formats not yet reading into the model) a finished result. */
type ReaderOutput = ExtractedDocument | ExtractResult;

export type Extractor = (input: ExtractInput) => Promise<ExtractResult>;

/** The extraction result of a reader's output. */
export function finish(out: ReaderOutput): ExtractResult {
  return 'metadata' in out ? out : finishExtraction(out);
}

function rendered(read: (input: ExtractInput) => Promise<ReaderOutput>): Extractor {
  return async (input) => finish(await read(input));
}

/** A PDF's extraction result (the text layer, and OCR by `ocr` where the mode asks for it). */
export async function extractPdf(input: ExtractInput, ocr: OcrService | null): Promise<ExtractResult> {
  return finishExtraction(await readPdf(input, ocr));
}

/** An image upload's extraction result, by OCR. */
export async function extractImage(input: ExtractInput, ocr: OcrService): Promise<ExtractResult> {
  return finishExtraction(await readImage(input, ocr));
}

export const extractDocx = rendered(office.extractDocx);
export const extractXlsx = rendered(office.extractXlsx);
export const extractPptx = rendered(office.extractPptx);
export const extractCsv = rendered(office.extractCsv);
export const extractTsv = rendered(office.extractTsv);
export const extractHtml = rendered(office.extractHtml);
export const extractText = rendered(office.extractText);
export const extractOdf = rendered(office.extractOdf);
export const extractRst = rendered(office.extractRst);
export const extractOrg = rendered(office.extractOrg);
export const extractXml = rendered(office.extractXml);
export const extractJson = rendered(office.extractJson);
export const extractEml = rendered(office.extractEml);
export const extractMsg = rendered(office.extractMsg);
export const extractEpub = rendered(office.extractEpub);
export const extractRtf = rendered(office.extractRtf);
export const extractDoc = rendered(office.extractDoc);
export const extractWithLibreOffice = rendered(office.extractWithLibreOffice);

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
