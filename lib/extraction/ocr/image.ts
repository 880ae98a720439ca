/**
 * Extraction of image uploads (PNG, JPEG, TIFF, WebP, BMP, GIF, HEIC/HEIF) by OCR, the format
 * found from the content whatever the declared type. A multi-page TIFF is read page by page;
 * every page is a page section and each recognised paragraph a paragraph holding its lines.
 *
 * What was read is given however sure the engine is of it, with each page's confidence in the
 * metadata (`ocr`, see OcrMetadata): a short line, a stamp or a poor scan reads at confidences a
 * whole page of clean print never has, and is still what the image says. A blank page (no ink,
 * ink.ts) is an empty page; only an image with ink of which no page gave a word fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { distributeLines } from '@/lib/document/layout';
import type { Block, Paragraph, Section } from '@/lib/document/types';
import { ExtractionError, throwIfAborted, type ExtractedDocument, type ExtractInput } from '../types';
import { readImageWithinBudget } from './dimensions';
import { tiffPage, tiffPageCount } from './tiff';
import { ocrPageMetadata, type OcrMetadata } from './metadata';
import type { OcrOutput, OcrService } from './types';

export { ocrPageMetadata, type OcrMetadata, type OcrPageMetadata } from './metadata';

/** OCR text (lines by "\n", paragraphs by a blank line) → paragraphs, each its lines joined by "\n". */
export function ocrParagraphs(text: string): string[] {
  return text
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.length > 0)
        .join('\n'),
    )
    .filter((p) => p.length > 0);
}

/** A page's OCR output as paragraphs, each with the recognised lines it holds. */
export function ocrPageBlocks(output: OcrOutput, page: number): Paragraph[] {
  const paragraphs = ocrParagraphs(output.text);
  const lines = output.lines ? distributeLines(paragraphs, output.lines) : [];
  return paragraphs.map((text, i) => ({
    type: 'paragraph',
    content: [{ type: 'text', text }],
    prov: lines[i]?.length ? { page, lines: lines[i] } : { page },
  }));
}

/**
 * OCRs an image upload. Fails with OCR_FAILED only when no page gave a word and the image is not
 * blank (ink that nothing could be read from).
 */
/**
 * A page's content when its OCR words and ruling lines form a table (the PDF reader's layout of a
 * scanned page, given by the caller: lib/extraction/extractors.ts), null to keep the paragraphs.
 */
export type OcrTableLayout = (output: OcrOutput, page: number) => Block[] | null;

export async function readImage(input: ExtractInput, ocr: OcrService, tables?: OcrTableLayout): Promise<ExtractedDocument> {
  const { signal } = input;
  throwIfAborted(signal);
  // Every image in the file is measured before any page is decoded.
  const { format, bytes } = await readImageWithinBudget(input.path);
  const tiff = format === 'tiff' ? bytes : null;
  const pages = tiff ? tiffPageCount(tiff) : 1;
  if (pages > input.maxPages) {
    throw new ExtractionError('TOO_MANY_PAGES', `The image has ${pages} pages; at most ${input.maxPages} can be extracted`);
  }
  input.onProgress(0, pages);

  const outputs: OcrOutput[] = [];
  // Tables are looked for as in scanned PDF pages: not when the layout is to be kept as it is.
  const wantTables = !!tables && input.options.extract_tables && !input.options.preserve_layout;
  for (let page = 1; page <= pages; page++) {
    throwIfAborted(signal);
    let file = input.path;
    let pageFile: string | null = null;
    if (tiff && pages > 1) {
      await fs.promises.mkdir(input.tmpDir, { recursive: true });
      pageFile = path.join(input.tmpDir, `image-page-${page}.tif`);
      await fs.promises.writeFile(pageFile, tiffPage(tiff, page - 1));
      file = pageFile;
    }
    try {
      outputs.push(await ocr.recognizeImage(file, input.options.language, signal, { rules: wantTables }));
    } finally {
      if (pageFile) await fs.promises.rm(pageFile, { force: true });
    }
    input.onProgress(page, pages);
  }

  const read = outputs.some((o) => o.words > 0);
  if (!read && !outputs.every((o) => o.blank)) {
    throw new ExtractionError('OCR_FAILED', 'No text was found in the image');
  }

  const blocks: Section[] = outputs.map((o, i) => ({
    type: 'section',
    kind: 'page',
    page: i + 1,
    content: o.words > 0 ? ((wantTables && tables?.(o, i + 1)) || ocrPageBlocks(o, i + 1)) : [],
  }));
  const ocrMetadata: OcrMetadata = { engine: ocr.engine, pages: outputs.map((o, i) => ocrPageMetadata(o, i + 1)) };
  return { document: { version: 1, metadata: { ocr: ocrMetadata }, blocks }, totalPages: pages };
}
