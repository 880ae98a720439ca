/**
 * PDF → Markdown with pdf.js (text layer, layout analysis, tables) and OCR where the text layer
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
 * Failures are ExtractionErrors: ENCRYPTED_DOCUMENT, CORRUPT_DOCUMENT, TOO_MANY_PAGES, CANCELLED,
 * OCR_FAILED (every page empty although OCR ran), INTERNAL_ERROR (anything unexpected).
 */
import type { OcrOutput, OcrService } from '../ocr/types';
import type { ExtractInput, ExtractResult } from '../types';
import { ExtractionError, throwIfAborted } from '../types';
import type { Block } from './blocks';
import { analyzeOperatorList, type PageGraphics } from './graphics';
import { layoutFrame, layoutFramePreserved } from './layout';
import { blocksHaveText, renderDocument, type PageBlocks } from './markdown';
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
  type PdfPage,
  type Pdfjs,
} from './pdfjs';
import { buildFrames, fontFlagsFromName, type FontStyleLike } from './runs';
import { detectBorderedTables, type DetectedTable } from './tables';

/** Pages with less text than this that are mostly one image are treated as scans in normal mode. */
const SCAN_TEXT_CHARS = 200;
/** Share of the page the largest image must cover for such a page to count as a scan. */
const SCAN_IMAGE_AREA = 0.8;

export async function extractPdf(input: ExtractInput, ocr: OcrService | null): Promise<ExtractResult> {
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

async function extract(input: ExtractInput, ocr: OcrService | null): Promise<ExtractResult> {
  const { signal } = input;
  throwIfAborted(signal);
  const data = await readPdfFile(input.path);
  const { pdfjs, dir } = await loadPdfjs();
  const useOcr = input.mode !== 'simple' && ocr !== null;
  // pdf.js takes ownership of the bytes it is given; the probe (images at full size) gets a copy.
  const probeBytes = useOcr && input.mode === 'normal' ? data.slice() : null;
  const task = openDocument(pdfjs, dir, data, { maxImageSize: 1 });
  let probe: Probe | null = null;
  try {
    let doc: PdfDocument;
    try {
      doc = await abortable(task.promise, signal);
    } catch (err) {
      throw toExtractionError(err);
    }
    const numPages = doc.numPages;
    if (numPages > input.maxPages) {
      throw new ExtractionError(
        'TOO_MANY_PAGES',
        `The PDF has ${numPages} pages; at most ${input.maxPages} pages can be extracted`,
      );
    }
    let metadata;
    try {
      const meta = await abortable(doc.getMetadata(), signal);
      metadata = buildMetadata(meta.info, meta.metadata as never, numPages);
    } catch (err) {
      if (signal.aborted) throwIfAborted(signal);
      metadata = buildMetadata(null, null, numPages);
    }
    if (probeBytes) probe = new Probe(pdfjs, dir, probeBytes, signal);

    const pages: PageBlocks[] = [];
    const tally: OcrTally = { attempts: 0, best: null };
    let failedPages = 0;
    let firstFailure: unknown = null;
    for (let n = 1; n <= numPages; n++) {
      throwIfAborted(signal);
      let blocks: Block[] = [];
      try {
        blocks = await extractPage(pdfjs, doc, n, input, ocr, probe, tally);
      } catch (err) {
        if (err instanceof ExtractionError) throw err;
        if (signal.aborted) throwIfAborted(signal);
        failedPages++;
        firstFailure ??= err;
      }
      pages.push({ page: n, blocks });
      input.onProgress(n, numPages);
    }
    if (numPages > 0 && failedPages === numPages) throw toExtractionError(firstFailure);
    if (tally.attempts > 0 && numPages > 0 && pages.every((p) => !blocksHaveText(p.blocks))) {
      const conf = tally.best ? `, mean confidence ${Math.round(tally.best.meanConfidence)}` : '';
      throw new ExtractionError(
        'OCR_FAILED',
        `No text could be recognised in the PDF: it has no text layer and OCR found no readable text${conf} (minimum ${MIN_OCR_CONFIDENCE})`,
      );
    }
    return { markdown: renderDocument(pages), totalPages: numPages, metadata };
  } finally {
    await probe?.destroy();
    await task.destroy().catch(() => {});
  }
}

async function extractPage(
  pdfjs: Pdfjs,
  doc: PdfDocument,
  n: number,
  input: ExtractInput,
  ocr: OcrService | null,
  probe: Probe | null,
  tally: OcrTally,
): Promise<Block[]> {
  const { signal, options } = input;
  const page = await abortable(doc.getPage(n), signal);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const vp = { transform: viewport.transform, width: viewport.width, height: viewport.height };
    const content = await abortable(page.getTextContent(), signal);
    let graphics: PageGraphics | null = null;
    if (options.extract_tables) {
      const opList = await abortable(page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE }), signal);
      graphics = analyzeOperatorList(opList, pdfjs.OPS as unknown as Record<string, number>, vp);
    }
    // Font names (for bold and monospace) are available once the operator list has loaded them.
    const fontFlags = (id: string) => (graphics ? fontFlagsFromName(fontName(page, id)) : null);
    const frames = buildFrames(content.items, content.styles as Record<string, FontStyleLike>, vp, fontFlags);
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
        blocks.push(...(options.preserve_layout ? layoutFramePreserved(frame, opts) : layoutFrame(frame, opts)));
      }
    } catch {
      // A layout the analysis cannot handle must not cost the page its text: fall back to the
      // text items in content-stream order.
      blocks = ocrBlocks(plainText(content.items), options.preserve_layout);
    }

    if (input.mode === 'simple' || !ocr) return blocks;
    const usable = textLayerUsable(stats);
    let needOcr = input.mode === 'advanced';
    if (!needOcr) {
      if (!usable) {
        // Garbage text → OCR; no text at all → OCR only when the page paints an image (a blank
        // page, or one with only vector art, is left alone).
        const mostlyGarbage = stats.chars >= MIN_TEXT_CHARS && stats.garbage > 0.3 * stats.chars;
        needOcr = mostlyGarbage || (await probe?.images(n))?.images !== 0;
      } else if (stats.chars < SCAN_TEXT_CHARS) {
        const g = await probe?.images(n);
        needOcr = !!g && g.largestImage >= SCAN_IMAGE_AREA;
      }
    }
    if (!needOcr) return blocks;
    const out = await runOcr(ocr, input, n, tally);
    return mergeOcr(blocks, usable, out, options.preserve_layout);
  } finally {
    page.cleanup();
  }
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

function fontName(page: PdfPage, id: string): string | null {
  try {
    if (!page.commonObjs.has(id)) return null;
    const font = page.commonObjs.get(id) as { name?: unknown } | null;
    return typeof font?.name === 'string' ? font.name : null;
  } catch {
    return null;
  }
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

/**
 * A second view of the document that keeps images (the main one skips them for speed), opened
 * on first use, to tell scanned pages from blank ones.
 */
class Probe {
  private task: PdfLoadingTask | null = null;
  private doc: Promise<PdfDocument> | null = null;

  constructor(
    private readonly pdfjs: Pdfjs,
    private readonly dir: string,
    private readonly bytes: Uint8Array,
    private readonly signal: AbortSignal,
  ) {}

  /** Image statistics of page `n`, or null when they cannot be read. */
  async images(n: number): Promise<PageGraphics | null> {
    try {
      if (!this.doc) {
        this.task = openDocument(this.pdfjs, this.dir, this.bytes, { maxImageSize: -1 });
        this.doc = this.task.promise;
      }
      const doc = await abortable(this.doc, this.signal);
      const page = await abortable(doc.getPage(n), this.signal);
      try {
        const vp = page.getViewport({ scale: 1 });
        const opList = await abortable(page.getOperatorList({ annotationMode: this.pdfjs.AnnotationMode.DISABLE }), this.signal);
        return analyzeOperatorList(opList, this.pdfjs.OPS as unknown as Record<string, number>, {
          transform: vp.transform,
          width: vp.width,
          height: vp.height,
        });
      } finally {
        page.cleanup();
      }
    } catch (err) {
      throwIfAborted(this.signal);
      if (err instanceof ExtractionError) throw err;
      return null;
    }
  }

  async destroy(): Promise<void> {
    await this.task?.destroy().catch(() => {});
  }
}
