/**
 * Extraction of image uploads (PNG, JPEG, TIFF, WebP, BMP, GIF, HEIC/HEIF) by OCR, the format
 * found from the content whatever the declared type. A multi-page TIFF is read page by page;
 * every page is a page section and each recognised paragraph a paragraph holding its lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { distributeLines } from '@/lib/document/layout';
import type { Paragraph, Section } from '@/lib/document/types';
import { ExtractionError, throwIfAborted, type ExtractedDocument, type ExtractInput } from '../types';
import { MIN_MEAN_CONFIDENCE } from './common';
import { readImageWithinBudget } from './dimensions';
import { tiffPage, tiffPageCount } from './tiff';
import type { OcrOutput, OcrService } from './types';

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

function trusted(output: OcrOutput): boolean {
  return output.words > 0 && output.meanConfidence >= MIN_MEAN_CONFIDENCE;
}

/**
 * OCRs an image upload. Fails with OCR_FAILED when no page yields text the engine is at least
 * MIN_MEAN_CONFIDENCE sure of (no words at all, or guesswork); a page of a multi-page TIFF
 * below it contributes its marker but no text.
 */
export async function readImage(input: ExtractInput, ocr: OcrService): Promise<ExtractedDocument> {
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
      outputs.push(await ocr.recognizeImage(file, input.options.language, signal));
    } finally {
      if (pageFile) await fs.promises.rm(pageFile, { force: true });
    }
    input.onProgress(page, pages);
  }

  const words = outputs.reduce((n, o) => n + o.words, 0);
  if (words === 0) {
    throw new ExtractionError('OCR_FAILED', 'No text was found in the image');
  }
  if (!outputs.some(trusted)) {
    const mean = outputs.reduce((s, o) => s + o.meanConfidence * o.words, 0) / words;
    throw new ExtractionError(
      'OCR_FAILED',
      `The text in the image could not be read reliably (OCR confidence ${Math.round(mean)} of 100, at least ${MIN_MEAN_CONFIDENCE} needed); ` +
        'a sharper or higher-resolution image, or the right language option, may help',
    );
  }

  const blocks: Section[] = outputs.map((o, i) => ({
    type: 'section',
    kind: 'page',
    page: i + 1,
    content: trusted(o) ? ocrPageBlocks(o, i + 1) : [],
  }));
  return { document: { version: 1, metadata: {}, blocks }, totalPages: pages };
}
