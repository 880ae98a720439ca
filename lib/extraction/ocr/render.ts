/**
 * Renders one PDF page to a PNG for OCR, at the resolution of the scan embedded in it (see
 * render-dpi.ts). Poppler's `pdftoppm` renders when it is installed (fast, native, see
 * poppler.ts); otherwise pdfjs-dist draws the page into an @napi-rs/canvas canvas.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkPixelBudget, extractionLimits } from '../limits';
import { ExtractionError } from '../types';
import { abortError } from './common';
import { multiplyMatrix } from '../pdf/read/matrix';
import { loadPdfjs, openDocument, RENDER_OPTIONS, type PdfDocument, type PdfPage } from '../pdf/read/pdfjs';
import { popplerAvailable, renderPdfPageWithPoppler } from './poppler';
import { chooseRender, renderFailed, type PageImage, type RenderedPage } from './render-dpi';

export { chooseRender, chooseRenderDpi, DEFAULT_RENDER_DPI, MAX_RENDER_DPI, MIN_RENDER_DPI, type PageImage, type RenderChoice, type RenderedPage } from './render-dpi';
export { parsePdfimagesList, parsePdfinfoPageSize, popplerAvailable, popplerPageDpi, renderPdfPageWithPoppler } from './poppler';

// ---------------------------------------------------------------------------------------------
// pdfjs-dist (loaded and opened by pdf/read/pdfjs.ts) + @napi-rs/canvas

/** Opens a PDF with pdfjs with every resource it may need taken from the package on disk. */
export async function openPdfWithPdfjs(pdfPath: string): Promise<PdfDocument> {
  const { pdfjs, dir } = await loadPdfjs();
  const data = new Uint8Array(await fs.promises.readFile(pdfPath));
  return openDocument(pdfjs, dir, data, RENDER_OPTIONS).promise;
}

type Matrix = [number, number, number, number, number, number];
/** The @napi-rs/canvas Canvas pdfjs's factory makes in Node. */
type NodeCanvas = { width: number; height: number; encode(format: 'png'): Promise<Buffer> };

/** The images a pdfjs page draws, with their resolution, from its operator list. */
export async function pdfjsPageImages(page: PdfPage): Promise<PageImage[]> {
  const { pdfjs } = await loadPdfjs();
  const OPS = pdfjs.OPS;
  const ops = await page.getOperatorList();
  const images: PageImage[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const add = (width: number, height: number) => {
    const drawnW = Math.hypot(ctm[0], ctm[1]);
    const drawnH = Math.hypot(ctm[2], ctm[3]);
    if (!(width > 0 && height > 0 && drawnW > 0 && drawnH > 0)) return;
    const ppi = Math.max(width / (drawnW / 72), height / (drawnH / 72));
    images.push({ width, height, ppi, area: drawnW * drawnH });
  };
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform && args) ctm = multiplyMatrix(ctm, args as Matrix);
    else if (fn === OPS.paintFormXObjectBegin && args) {
      stack.push(ctm);
      if (Array.isArray(args[0]) && args[0].length === 6) ctm = multiplyMatrix(ctm, args[0] as Matrix);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.paintImageXObject && args) add(Number(args[1]), Number(args[2]));
    else if ((fn === OPS.paintImageMaskXObject || fn === OPS.paintInlineImageXObject) && args) {
      const img = args[0] as { width?: number; height?: number } | null;
      add(Number(img?.width), Number(img?.height));
    }
  }
  return images;
}

/** Renders one page of an open pdfjs document to a PNG in `tmpDir`. */
export async function renderPdfjsPage(
  doc: PdfDocument,
  pageNumber: number,
  tmpDir: string,
  signal: AbortSignal,
  dpi?: number,
): Promise<RenderedPage> {
  if (pageNumber < 1 || pageNumber > doc.numPages) throw renderFailed(pageNumber, `the document has ${doc.numPages} pages`);
  const page = await doc.getPage(pageNumber);
  try {
    const base = page.getViewport({ scale: 1 });
    const { maxImagePixels } = extractionLimits();
    const choice = dpi ? { dpi } : chooseRender(await pdfjsPageImages(page), base.width, base.height, maxImagePixels);
    const resolution = choice.dpi;
    if (signal.aborted) throw abortError(signal);
    const viewport = page.getViewport({ scale: resolution / 72 });
    checkPixelBudget(`Page ${pageNumber} rendered for OCR`, Math.ceil(viewport.width), Math.ceil(viewport.height), maxImagePixels);
    // The canvas comes from pdfjs's own factory: that is @napi-rs/canvas as pdfjs-dist resolves
    // it (its own dependency), the same copy whose Path2D and DOMMatrix pdfjs draws with; a
    // canvas from another copy of the package rejects those objects.
    const factory = doc.canvasFactory as { create(width: number, height: number): unknown };
    const { canvas, context } = factory.create(
      Math.max(1, Math.ceil(viewport.width)),
      Math.max(1, Math.ceil(viewport.height)),
    ) as { canvas: NodeCanvas; context: CanvasRenderingContext2D };
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    const task = page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      canvasContext: context,
      viewport,
    } as Parameters<PdfPage['render']>[0]);
    const onAbort = () => task.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await task.promise;
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      throw renderFailed(pageNumber, err instanceof Error ? err.message : String(err));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    const file = path.join(tmpDir, `ocr-page-${pageNumber}-${process.hrtime.bigint()}.png`);
    await fs.promises.writeFile(file, await canvas.encode('png'));
    return choice.scanDpi ? { path: file, dpi: resolution, scanDpi: choice.scanDpi } : { path: file, dpi: resolution };
  } finally {
    page.cleanup();
  }
}

/** Renders one page with pdfjs (opening and closing the document). */
export async function renderPdfPageWithPdfjs(
  pdfPath: string,
  page: number,
  tmpDir: string,
  signal: AbortSignal,
  dpi?: number,
): Promise<RenderedPage> {
  const doc = await openPdfWithPdfjs(pdfPath);
  try {
    return await renderPdfjsPage(doc, page, tmpDir, signal, dpi);
  } finally {
    await doc.destroy();
  }
}

/**
 * Renders pages of PDFs for one OCR service: poppler when installed, else pdfjs with the
 * document kept open between pages (one task reads one document page after page).
 */
export class PdfPageRenderer {
  private pdfjsDoc: { path: string; doc: Promise<PdfDocument> } | null = null;

  constructor(
    private readonly tmpDir: string,
    private readonly preferPoppler = true,
  ) {}

  /** Renders page `page` at `dpi`, or at the resolution render-dpi.ts chooses. */
  async render(pdfPath: string, page: number, signal: AbortSignal, dpi?: number): Promise<RenderedPage> {
    if (signal.aborted) throw abortError(signal);
    await fs.promises.mkdir(this.tmpDir, { recursive: true });
    if (this.preferPoppler && (await popplerAvailable())) {
      try {
        return await renderPdfPageWithPoppler(pdfPath, page, this.tmpDir, signal, dpi);
      } catch (err) {
        // Over a limit, pdfjs would only do the same inside the worker.
        if (signal.aborted || (err instanceof ExtractionError && err.code !== 'OCR_FAILED')) throw err;
        // A page poppler cannot draw gets one more chance with pdfjs; its failure reports poppler's.
        try {
          return await this.renderWithPdfjs(pdfPath, page, signal, dpi);
        } catch {
          throw err;
        }
      }
    }
    return this.renderWithPdfjs(pdfPath, page, signal, dpi);
  }

  private async renderWithPdfjs(pdfPath: string, page: number, signal: AbortSignal, dpi?: number): Promise<RenderedPage> {
    if (this.pdfjsDoc?.path !== pdfPath) {
      await this.closeDocument();
      this.pdfjsDoc = { path: pdfPath, doc: openPdfWithPdfjs(pdfPath) };
    }
    let doc: PdfDocument;
    try {
      doc = await this.pdfjsDoc.doc;
    } catch (err) {
      this.pdfjsDoc = null;
      throw renderFailed(page, err instanceof Error ? err.message : String(err));
    }
    return renderPdfjsPage(doc, page, this.tmpDir, signal, dpi);
  }

  private async closeDocument(): Promise<void> {
    const open = this.pdfjsDoc;
    this.pdfjsDoc = null;
    if (open) await open.doc.then((d) => d.destroy()).catch(() => {});
  }

  async close(): Promise<void> {
    await this.closeDocument();
  }
}
