/**
 * Extraction of image uploads (PNG, JPEG, TIFF, WebP, BMP, GIF, HEIC/HEIF) by OCR, the format
 * found from the content whatever the declared type. A multi-page TIFF is read page by page;
 * every page starts with its `<!-- page N -->` marker and each recognised paragraph becomes a
 * Markdown paragraph.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LayoutBuilder } from '@/lib/chunking/layout';
import { ExtractionError, pageMarker, throwIfAborted, type ExtractInput, type ExtractResult } from '../types';
import { MIN_MEAN_CONFIDENCE } from './common';
import { readImageWithinBudget } from './dimensions';
import { tiffPage, tiffPageCount } from './tiff';
import type { OcrOutput, OcrService } from './types';

/** Escapes what would turn an OCR line into Markdown structure or HTML. */
export function escapeMarkdownLine(line: string): string {
  let out = line.replace(/&(?=[#A-Za-z0-9]+;)/g, '&amp;').replace(/<(?=[A-Za-z!/?])/g, '&lt;');
  if (/^(#{1,6}(\s|$)|>|```|~~~)/.test(out)) out = `\\${out}`;
  // A line of only = or - (setext heading underline) or a thematic break.
  else if (/^(=+|-+|(\*\s*){3,}|(_\s*){3,})$/.test(out)) out = `\\${out}`;
  return out;
}

/** OCR text (lines by "\n", paragraphs by a blank line) as Markdown paragraphs. */
export function ocrTextToMarkdown(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((l) => escapeMarkdownLine(l.trim()))
        .filter((l) => l.length > 0)
        .join('\n'),
    )
    .filter((p) => p.length > 0)
    .join('\n\n');
}

function trusted(output: OcrOutput): boolean {
  return output.words > 0 && output.meanConfidence >= MIN_MEAN_CONFIDENCE;
}

/**
 * OCRs an image upload. Fails with OCR_FAILED when no page yields text the engine is at least
 * MIN_MEAN_CONFIDENCE sure of (no words at all, or guesswork); a page of a multi-page TIFF
 * below it contributes its marker but no text.
 */
export async function extractImage(input: ExtractInput, ocr: OcrService): Promise<ExtractResult> {
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

  const written: { page: number; start: number; end: number; o: OcrOutput }[] = [];
  let at = 0;
  const markdown = outputs
    .map((o, i) => {
      const body = trusted(o) ? ocrTextToMarkdown(o.text) : '';
      const marker = pageMarker(i + 1);
      if (body) written.push({ page: i + 1, start: at + marker.length + 2, end: at + marker.length + 2 + body.length, o });
      const page = body ? `${marker}\n\n${body}` : marker;
      at += page.length + 2;
      return page;
    })
    .join('\n\n');
  // The recognised lines are placed over each page's text by their letters (see LayoutBuilder).
  const layout = new LayoutBuilder();
  for (const w of written) if (w.o.lines) layout.add(w.page, markdown, w.start, w.end, w.o.lines);
  return { markdown: `${markdown}\n`, totalPages: pages, metadata: {}, layout: layout.build() };
}
