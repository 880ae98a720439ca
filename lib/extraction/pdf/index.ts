/**
 * PDF → the document model: the text layer read by PDFium (read/pdfium.ts) or, for the pages it
 * hands back and when `QUARRY_PDF_TEXT=pdfjs`, by pdf.js; layout analysis, reading order and
 * tables; OCR where the text layer is missing. The stages and the order they run in are declared
 * in stages.ts (pages, frames, OCR, document), their thresholds in settings.ts. This file runs
 * the document: opens it, reads the metadata, has the pages read (in page threads for long
 * documents: run/threads.ts, run/pages.ts), OCRs the pages that need it and writes the model.
 *
 * Folders, lowest first: each imports only folders before it in this list (settings.ts sits below
 * them all; stages.ts above all but run/, which reads pages through it):
 * - read/: the text layer (PDFium, pdf.js), ruling lines and images, runs in reading frames;
 * - layout/: rows, segments, furniture, lines, blocks and lists; what a line's text says (titles);
 * - order/: reading order (column gutters, bands); tables/: bordered and borderless tables;
 * - ocr/: when a page needs OCR, merging OCR text with the text layer, OCR words as a text layer
 *   (words.ts) and whether the tables found in them were read as text (tables.ts);
 * - model/: running furniture, heading levels, the document model;
 * - run/: reading page ranges, page threads, the warm-up document and the PDF writer it uses.
 *
 * Modes:
 * - simple: text layer only, never OCR.
 * - normal: text layer; a page whose text layer is unusable (fewer than MIN_TEXT_CHARS non-space
 *   characters while the page paints an image, or mostly replacement/control characters) is OCRed
 *   and the OCR text becomes that page. A page that is mostly one big image with only a little
 *   text (a scan with a stamped page number) is OCRed too and merged like in advanced mode.
 * - advanced: every page is OCRed and merged with the text layer (see mergeOcr in ocr/merge.ts:
 *   the structured text layer wins where it is usable, OCR fills in what only exists as pixels).
 *
 * Images are never decoded (maxImageSize 1); the operator list (ruling lines for tables, font
 * names for bold/monospace) is only requested for pages that can use it.
 *
 * Failures are ExtractionErrors: ENCRYPTED_DOCUMENT, CORRUPT_DOCUMENT, TOO_MANY_PAGES, CANCELLED,
 * OCR_FAILED (every page empty although OCR ran on a page with ink), INTERNAL_ERROR (anything
 * unexpected). The pages OCR read are in the document's metadata (`ocr`: engine, and each page's
 * confidence, words and languages).
 */
import type { OcrService } from '@/lib/extraction/ocr/types';
import { ExtractionError, throwIfAborted, type ExtractedDocument, type ExtractInput } from '@/lib/extraction/types';
import { blocksHaveText, type PageBlocks } from './model/document';
import type { OcrTally } from './ocr/recognize';
import { buildMetadata } from './read/metadata';
import { openPdfium } from './read/pdfium';
import { abortable, loadPdfjs, openDocument, readPdfFile, toExtractionError, type PdfDocument, type PdfLoadingTask } from './read/pdfjs';
import { Probe } from './read/probe';
import { extractRange } from './run/pages';
import { onlyOnce, planThreads, startRangeJobs, type RangeJobs } from './run/threads';
import type { PageText } from './run/types';
import { runDocumentStages, runOcrStages } from './stages';

export type { PageText } from './run/types';
export { ocrTablePage } from './stages';

export async function readPdf(input: ExtractInput, ocr: OcrService | null): Promise<ExtractedDocument> {
  try {
    return await extract(input, ocr);
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    if (input.signal.aborted) throwIfAborted(input.signal);
    throw new ExtractionError('INTERNAL_ERROR', `PDF extraction failed unexpectedly: ${(err as Error)?.message ?? String(err)}`);
  }
}

async function extract(input: ExtractInput, ocr: OcrService | null): Promise<ExtractedDocument> {
  const { signal } = input;
  throwIfAborted(signal);
  const data = await readPdfFile(input.path);
  const { pdfjs, dir } = await loadPdfjs();
  // PDFium copies the bytes; pdf.js then takes them.
  const pdfium = await openPdfium(data);
  const wantOcr = input.mode !== 'simple' && ocr !== null;
  let numPages = pdfium?.numPages ?? 0;
  let done = 0;
  const pagesDone = (pages: number) => {
    done += pages;
    input.onProgress(done, numPages);
  };
  const pageDone = () => pagesDone(1);
  // Pages read in page threads count when done; those needing OCR when it has run, here.
  const countPage = (needOcr: boolean) => {
    if (!needOcr) pageDone();
  };
  // With PDFium the page threads start on their ranges now, while pdf.js opens the document for
  // its metadata (35 ms of a 619-page PDF); they are stopped if pdf.js counts the pages otherwise.
  let early: RangeJobs | null = null;
  if (pdfium && pdfium.numPages <= input.maxPages) {
    const threads = planThreads(pdfium.numPages);
    if (threads > 1) early = startRangeJobs(input, pdfium.numPages, threads, wantOcr, pagesDone);
  }
  let task: PdfLoadingTask | null = null;
  let probe: Probe | null = null;
  try {
    task = openDocument(pdfjs, dir, data, { maxImageSize: 1 });
    let doc: PdfDocument;
    try {
      doc = await abortable(task.promise, signal);
    } catch (err) {
      throw toExtractionError(err);
    }
    if (early && doc.numPages !== numPages) {
      early.stop();
      early = null;
    }
    numPages = doc.numPages;
    if (numPages > input.maxPages) {
      throw new ExtractionError(
        'TOO_MANY_PAGES',
        `The PDF has ${numPages} pages; at most ${input.maxPages} pages can be extracted`,
      );
    }
    let metadata;
    try {
      const meta = await abortable(doc.getMetadata(), signal);
      metadata = buildMetadata(meta.info, meta.metadata, numPages);
    } catch {
      if (signal.aborted) throwIfAborted(signal);
      metadata = buildMetadata(null, null, numPages);
    }
    if (input.mode === 'normal' && wantOcr) probe = new Probe(pdfjs, dir, input.path, signal);

    const tally: OcrTally = { attempts: 0, pages: [] };
    const threads = planThreads(numPages);
    let texts: PageText[];
    if (threads > 1) {
      // Text layers of page ranges in parallel threads; OCR afterwards, here, page by page.
      const jobs = early ?? startRangeJobs(input, numPages, threads, wantOcr, pagesDone);
      early = null;
      texts = await jobs.join(() =>
        extractRange(pdfjs, () => Promise.resolve(doc), () => jobs.claims.claim(), input, wantOcr, probe, pdfium, (t) => countPage(t.needOcr)),
      );
      for (const t of texts) {
        if (!t.needOcr) continue;
        throwIfAborted(signal);
        await runOcrStages(t, ocr!, input, tally);
        pageDone();
      }
    } else {
      texts = await extractRange(pdfjs, () => Promise.resolve(doc), onlyOnce({ from: 1, to: numPages }), input, wantOcr, probe, pdfium, async (t) => {
        if (t.needOcr) await runOcrStages(t, ocr!, input, tally);
        pageDone();
      });
    }

    const failed = texts.filter((t) => t.failure !== undefined);
    if (numPages > 0 && failed.length === numPages) throw toExtractionError(new Error(failed[0].failure));
    const pages: PageBlocks[] = texts.map((t) => ({ page: t.page, blocks: t.blocks }));
    if (tally.attempts > 0 && numPages > 0 && pages.every((p) => !blocksHaveText(p.blocks))) {
      throw new ExtractionError('OCR_FAILED', 'No text could be recognised in the PDF: it has no text layer and OCR found no words on its pages');
    }
    // Each OCR'd page's reading, as images have it: how sure the engine was, with which data.
    if (tally.pages.length) metadata = { ...metadata, ocr: { engine: ocr!.engine, pages: [...tally.pages].sort((a, b) => a.page - b.page) } };
    return { document: runDocumentStages(pages, metadata, { mergeTables: input.options.merge_tables !== false }), totalPages: numPages };
  } finally {
    early?.stop();
    pdfium?.close();
    await probe?.destroy();
    await task?.destroy().catch(() => {});
  }
}
