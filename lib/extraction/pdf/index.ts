/**
 * PDF → Markdown: the text layer read by PDFium (pdfium.ts) or, for the pages it hands back and
 * when `QUARRY_PDF_TEXT=pdfjs`, by pdf.js; layout analysis and tables; OCR where the text layer
 * is missing.
 *
 * Modes:
 * - simple: text layer only, never OCR.
 * - normal: text layer; a page whose text layer is unusable (fewer than 10 non-space characters
 *   while the page paints an image, or mostly replacement/control characters) is OCRed and the OCR
 *   text becomes that page. A page that is mostly one big image with only a little text (a scan
 *   with a stamped page number) is OCRed too and merged like in advanced mode.
 * - advanced: every page is OCRed and merged with the text layer (see mergeOcr in ocr-merge.ts:
 *   the structured text layer wins where it is usable, OCR fills in what only exists as pixels).
 *
 * Per page: PDFium's characters or pdf.js's getTextContent (the same item shape) → frames of
 * runs (runs.ts) → rows, segments, columns, lines, blocks (layout.ts) → Markdown once all pages
 * are known (markdown.ts: heading levels need the body size of the whole document; repeated
 * running headers are dropped). Images are never decoded
 * (maxImageSize 1); the operator list (ruling lines for tables, font names for bold/monospace)
 * is only requested for pages that can use it.
 *
 * Failures are ExtractionErrors: ENCRYPTED_DOCUMENT, CORRUPT_DOCUMENT, TOO_MANY_PAGES, CANCELLED,
 * OCR_FAILED (every page empty although OCR ran), INTERNAL_ERROR (anything unexpected).
 */
import type { OcrOutput, OcrService } from '../ocr/types';
import type { ExtractedDocument, ExtractInput } from '../types';
import { ExtractionError, throwIfAborted } from '../types';
import type { Block } from './blocks';
import { placeOnPage } from './geometry';
import type { PageGraphics } from './graphics';
import { layoutFrame, layoutFramePreserved } from './layout';
import { blocksHaveText, buildDocument, type PageBlocks } from './document';
import { buildMetadata } from './metadata';
import { MIN_OCR_CONFIDENCE, MIN_TEXT_CHARS, mergeOcr, ocrAccepted, ocrBlocks, textLayerStats, textLayerUsable } from './ocr-merge';
import {
  abortable,
  loadPdfjs,
  openDocument,
  readPdfFile,
  toExtractionError,
  type PdfDocument,
  type PdfLoadingTask,
  type Pdfjs,
} from './pdfjs';
import { buildFrames, type FontFlags } from './runs';
import { openPdfium, type PdfiumDocument } from './pdfium';
import { pdfiumImages, pdfiumSource, pdfjsSource, type LoadedPage, type PageSource } from './page-sources';
import { Probe } from './probe';
import { onlyOnce, planThreads, startRangeJobs, type PageRange, type RangeJobs } from './threads';
import { detectBorderedTables, type DetectedTable } from './tables';
import type { PageText } from './types';

export { Probe };

export type { PageText } from './types';

/** Pages with less text than this that are mostly one image are treated as scans in normal mode. */
const SCAN_TEXT_CHARS = 200;
/** Share of the page the largest image must cover for such a page to count as a scan. */
const SCAN_IMAGE_AREA = 0.8;

export async function readPdf(input: ExtractInput, ocr: OcrService | null): Promise<ExtractedDocument> {
  try {
    return await extract(input, ocr);
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    if (input.signal.aborted) throwIfAborted(input.signal);
    throw new ExtractionError('INTERNAL_ERROR', `PDF extraction failed unexpectedly: ${(err as Error)?.message ?? String(err)}`);
  }
}

interface OcrTally {
  attempts: number;
  best: OcrOutput | null;
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

    const tally: OcrTally = { attempts: 0, best: null };
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
        t.blocks = mergeOcr(t.blocks, t.usable, await runOcr(ocr!, input, t.page, tally), input.options.preserve_layout);
        pageDone();
      }
    } else {
      texts = await extractRange(pdfjs, () => Promise.resolve(doc), onlyOnce({ from: 1, to: numPages }), input, wantOcr, probe, pdfium, async (t) => {
        if (t.needOcr) t.blocks = mergeOcr(t.blocks, t.usable, await runOcr(ocr!, input, t.page, tally), input.options.preserve_layout);
        pageDone();
      });
    }

    const failed = texts.filter((t) => t.failure !== undefined);
    if (numPages > 0 && failed.length === numPages) throw toExtractionError(new Error(failed[0].failure));
    const pages: PageBlocks[] = texts.map((t) => ({ page: t.page, blocks: t.blocks }));
    if (tally.attempts > 0 && numPages > 0 && pages.every((p) => !blocksHaveText(p.blocks))) {
      const conf = tally.best ? `, mean confidence ${Math.round(tally.best.meanConfidence)}` : '';
      throw new ExtractionError(
        'OCR_FAILED',
        `No text could be recognised in the PDF: it has no text layer and OCR found no readable text${conf} (minimum ${MIN_OCR_CONFIDENCE})`,
      );
    }
    return { document: buildDocument(pages, metadata), totalPages: numPages };
  } finally {
    early?.stop();
    pdfium?.close();
    await probe?.destroy();
    await task?.destroy().catch(() => {});
  }
}

/**
 * Reads the text layers of the pages `next` hands out, a run of pages at a time until it returns
 * null. `onPage` runs after each page, in order within a run, and may change the page (OCR). A page
 * whose layout cannot be read is kept empty with its failure.
 */
export async function extractRange(
  pdfjs: Pdfjs,
  /** The document in pdf.js, opened on first use (with PDFium, only if a page is handed back). */
  doc: () => Promise<PdfDocument>,
  next: () => PageRange | null,
  input: ExtractInput,
  wantOcr: boolean,
  probe: Probe | null,
  pdfium: PdfiumDocument | null,
  onPage: (text: PageText) => Promise<void> | void,
): Promise<PageText[]> {
  const { signal } = input;
  /** Bold/monospace of each pdf.js font id (ids are per document), null when unknown. */
  const fonts = new Map<string, FontFlags | null>();
  // Parsing runs behind pdf.js's message channel: asking for the next pages' text while this
  // page is laid out keeps the thread busy instead of idle between pages.
  const ahead = new Map<number, Promise<LoadedPage>>();
  const fetchPage = (m: number): Promise<LoadedPage> => {
    let pending = ahead.get(m);
    if (!pending) {
      pending = doc().then((d) => d.getPage(m)).then(async (page) => ({ page, content: await page.getTextContent({ disableNormalization: true }) }));
      pending.catch(() => undefined);
      ahead.set(m, pending);
    }
    return pending;
  };
  const texts: PageText[] = [];
  for (let range = next(); range; range = next()) {
    const { from, to } = range;
    for (let n = from; n <= to; n++) {
      throwIfAborted(signal);
      // With PDFium pdf.js reads only the pages handed back to it, so nothing is read ahead.
      if (!pdfium) for (let m = n; m <= Math.min(to, n + LOOKAHEAD); m++) fetchPage(m);
      let text: PageText;
      try {
        const viaPdfium = pdfium ? pdfiumSource(pdfium, n, input) : null;
        if (viaPdfium) {
          text = { page: n, ...(await textLayerPage(pdfjs, viaPdfium, n, input, wantOcr, () => pdfiumImages(pdfium!, n, probe))) };
        } else {
          const { page, content } = await abortable(fetchPage(n), signal);
          try {
            const source = await pdfjsSource(pdfjs, page, content, input, fonts);
            text = { page: n, ...(await textLayerPage(pdfjs, source, n, input, wantOcr, async () => (await probe?.images(n)) ?? null)) };
          } finally {
            page.cleanup();
          }
        }
      } catch (err) {
        if (err instanceof ExtractionError) throw err;
        if (signal.aborted) throwIfAborted(signal);
        text = { page: n, blocks: [], usable: false, needOcr: false, failure: (err as Error)?.message ?? String(err) };
      }
      ahead.delete(n);
      await onPage(text);
      texts.push(text);
    }
  }
  return texts;
}

const LOOKAHEAD = 4;

async function textLayerPage(
  pdfjs: Pdfjs,
  source: PageSource,
  n: number,
  input: ExtractInput,
  wantOcr: boolean,
  /** What images the page paints (to tell scans from blank pages), null when unknown. */
  images: () => Promise<PageGraphics | null>,
): Promise<{ blocks: Block[]; usable: boolean; needOcr: boolean }> {
  const { options } = input;
  const { items, styles, vp, fontFlags, graphics } = source;
  const frames = buildFrames(items, styles, vp, fontFlags, pdfjs.normalizeUnicode);
  const stats = textLayerStats(frames);

  let blocks: Block[] = [];
  try {
    for (const frame of frames) {
      let tables: DetectedTable[] = [];
      if (frame.key === 'q0' && graphics) {
        const found = detectBorderedTables(graphics, frame.runs);
        tables = found.tables;
        frame.runs = found.rest;
      }
      const opts = { preserveLayout: options.preserve_layout, extractTables: options.extract_tables, tables, upright: frame.key === 'q0' };
      const laid = options.preserve_layout ? layoutFramePreserved(frame, opts) : layoutFrame(frame, opts);
      placeOnPage(laid, frame.key, vp);
      blocks.push(...laid);
    }
  } catch {
    // A layout the analysis cannot handle must not cost the page its text: fall back to the
    // text items in content-stream order.
    blocks = ocrBlocks(plainText(items), options.preserve_layout);
  }

  const usable = textLayerUsable(stats);
  if (!wantOcr) return { blocks, usable, needOcr: false };
  let needOcr = input.mode === 'advanced';
  if (!needOcr) {
    if (!usable) {
      // Garbage text → OCR; no text at all → OCR only when the page paints an image (a blank
      // page, or one with only vector art, is left alone).
      const mostlyGarbage = stats.chars >= MIN_TEXT_CHARS && stats.garbage > 0.3 * stats.chars;
      needOcr = mostlyGarbage || (await images())?.images !== 0;
    } else if (stats.chars < SCAN_TEXT_CHARS) {
      const g = await images();
      needOcr = !!g && g.largestImage >= SCAN_IMAGE_AREA;
    }
  }
  return { blocks, usable, needOcr };
}

/** Text items joined in content-stream order, a line break after items that end a line. */
function plainText(items: readonly unknown[]): string {
  let out = '';
  for (const raw of items) {
    const item = raw as { str?: unknown; hasEOL?: unknown };
    if (typeof item.str !== 'string') continue;
    out += item.str;
    if (item.hasEOL) out += '\n';
  }
  return out;
}

async function runOcr(ocr: OcrService, input: ExtractInput, n: number, tally: OcrTally): Promise<OcrOutput | null> {
  tally.attempts++;
  try {
    const out = await ocr.recognizePdfPage(input.path, n, input.options.language, input.signal);
    if (!tally.best || out.meanConfidence > tally.best.meanConfidence) tally.best = out;
    return ocrAccepted(out) ? out : null;
  } catch (err) {
    throwIfAborted(input.signal);
    if (err instanceof ExtractionError && (err.code === 'CANCELLED' || err.code === 'EXTRACTION_TIMEOUT')) throw err;
    return null;
  }
}
