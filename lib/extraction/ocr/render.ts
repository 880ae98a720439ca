/**
 * Renders one PDF page to a PNG for OCR, at the resolution of the scan embedded in it.
 *
 * Poppler's `pdftoppm` renders when it is installed (fast, native); otherwise pdfjs-dist draws
 * the page into an @napi-rs/canvas canvas. The resolution comes from the page's largest image
 * (`pdfimages -list`, or the pdfjs operator list): a 300 ppi scan is rendered at 300 dpi, so
 * OCR sees the scanner's pixels without resampling, within 150–400 dpi (finer scans are divided
 * by a whole factor: 600 ppi renders at 300); pages without a page-sized image render at 300.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ExtractionError } from '../types';
import { abortError, runProcess, stderrTail } from './common';
import { multiplyMatrix } from '../pdf/matrix';

export const DEFAULT_RENDER_DPI = 300;
export const MIN_RENDER_DPI = 150;
export const MAX_RENDER_DPI = 400;
/** An image must cover this share of the page for its resolution to count as the scan's. */
const MIN_SCAN_COVERAGE = 0.3;
/** Renders never exceed this many pixels (a poster-sized page gets a lower dpi). */
const MAX_RENDER_PIXELS = 50_000_000;
/** Nor this many pixels on a side (Tesseract refuses images over 32767). */
const MAX_RENDER_SIDE = 20_000;

export interface RenderedPage {
  /** PNG file in the scratch directory; the caller deletes it. */
  path: string;
  dpi: number;
}

export interface PageImage {
  /** Pixel size. */
  width: number;
  height: number;
  /** Resolution as drawn on the page. */
  ppi: number;
  /** Drawn area in square points. */
  area: number;
}

/**
 * The dpi to render a page at: the ppi of the largest image on it when that image covers at
 * least 30 % of the page (at least 150; above 400 divided by the smallest whole factor that
 * brings it to 400 or below); otherwise 300. Then lowered if needed so the render stays within
 * the pixel limits.
 */
export function chooseRenderDpi(images: PageImage[], pageWidthPt: number, pageHeightPt: number): number {
  const pageArea = pageWidthPt * pageHeightPt;
  let dpi = DEFAULT_RENDER_DPI;
  const largest = [...images].filter((i) => i.ppi > 0 && Number.isFinite(i.ppi)).sort((a, b) => b.area - a.area)[0];
  if (largest && pageArea > 0 && largest.area >= MIN_SCAN_COVERAGE * pageArea) {
    const ppi = Math.round(largest.ppi);
    if (ppi > MAX_RENDER_DPI) {
      // Scale down by a whole factor (600 → 300, 1200 → 400): every output pixel is an average
      // of whole scan pixels, and poppler takes its fast path (600 → 400 renders 2.5× slower).
      const factor = Math.ceil(ppi / MAX_RENDER_DPI);
      dpi = Math.max(MIN_RENDER_DPI, Math.floor(ppi / factor));
    } else {
      dpi = Math.max(MIN_RENDER_DPI, ppi);
    }
  }
  const w = (pageWidthPt / 72) * dpi;
  const h = (pageHeightPt / 72) * dpi;
  let scale = 1;
  if (w * h > MAX_RENDER_PIXELS) scale = Math.sqrt(MAX_RENDER_PIXELS / (w * h));
  if (Math.max(w, h) * scale > MAX_RENDER_SIDE) scale = MAX_RENDER_SIDE / Math.max(w, h);
  return scale < 1 ? Math.max(1, Math.floor(dpi * scale)) : dpi;
}

// ---------------------------------------------------------------------------------------------
// Poppler

let popplerProbe: Promise<boolean> | null = null;

/** Whether pdftoppm, pdfimages and pdfinfo run (checked once per process). */
export function popplerAvailable(): Promise<boolean> {
  popplerProbe ??= Promise.all(
    ['pdftoppm', 'pdfimages', 'pdfinfo'].map((tool) =>
      runProcess(tool, ['-v'], { maxStdout: 1 << 16 }).then(
        (r) => r.code === 0,
        () => false,
      ),
    ),
  ).then((ok) => ok.every(Boolean));
  return popplerProbe;
}

/** Parses `pdfimages -list` output into the images of `page`. */
export function parsePdfimagesList(output: string, page: number): PageImage[] {
  const images: PageImage[] = [];
  for (const line of output.split('\n')) {
    const f = line.trim().split(/\s+/);
    // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    if (f.length < 14 || !/^\d+$/.test(f[0]) || Number(f[0]) !== page) continue;
    if (f[2] !== 'image' && f[2] !== 'stencil') continue;
    const width = Number(f[3]);
    const height = Number(f[4]);
    const xppi = Number(f[12]);
    const yppi = Number(f[13]);
    if (!(width > 0 && height > 0 && xppi > 0 && yppi > 0)) continue;
    images.push({ width, height, ppi: Math.max(xppi, yppi), area: (width / xppi) * 72 * ((height / yppi) * 72) });
  }
  return images;
}

/** Page size in points from `pdfinfo -f N -l N` ("Page    1 size: 595.2 x 841.9 pts"). */
export function parsePdfinfoPageSize(output: string, page: number): { width: number; height: number } | null {
  const re = /^Page\s+(\d+)\s+size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/gm;
  for (let m = re.exec(output); m; m = re.exec(output)) {
    if (Number(m[1]) === page) return { width: Number(m[2]), height: Number(m[3]) };
  }
  const single = /^Page size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/m.exec(output);
  return single ? { width: Number(single[1]), height: Number(single[2]) } : null;
}

function renderFailed(page: number, detail: string): ExtractionError {
  return new ExtractionError('OCR_FAILED', `Page ${page} could not be rendered for OCR${detail ? `: ${detail}` : ''}`);
}

/** The render dpi for a page, from poppler's view of its images. */
export async function popplerPageDpi(pdfPath: string, page: number, signal: AbortSignal): Promise<number> {
  const range = ['-f', String(page), '-l', String(page)];
  const [info, list] = await Promise.all([
    runProcess('pdfinfo', [...range, pdfPath], { signal, maxStdout: 1 << 20 }),
    runProcess('pdfimages', ['-list', ...range, pdfPath], { signal, maxStdout: 16 << 20 }),
  ]);
  const size = info.code === 0 ? parsePdfinfoPageSize(info.stdout.toString('utf8'), page) : null;
  if (!size) return DEFAULT_RENDER_DPI;
  const images = list.code === 0 ? parsePdfimagesList(list.stdout.toString('utf8'), page) : [];
  return chooseRenderDpi(images, size.width, size.height);
}

/** Renders with pdftoppm (grey, PNG) into `tmpDir`. */
export async function renderPdfPageWithPoppler(
  pdfPath: string,
  page: number,
  tmpDir: string,
  signal: AbortSignal,
  dpi?: number,
): Promise<RenderedPage> {
  const resolution = dpi ?? (await popplerPageDpi(pdfPath, page, signal));
  const base = path.join(tmpDir, `ocr-page-${page}-${process.hrtime.bigint()}`);
  const result = await runProcess(
    'pdftoppm',
    ['-f', String(page), '-l', String(page), '-r', String(resolution), '-gray', '-png', '-singlefile', pdfPath, base],
    { signal, maxStdout: 1 << 20 },
  );
  const file = `${base}.png`;
  if (result.code !== 0 || !fs.existsSync(file)) {
    fs.rmSync(file, { force: true });
    // Messages reach API clients: no server paths in them.
    throw renderFailed(page, stderrTail(result.stderr).split(pdfPath).join('<document>').split(base).join('<output>'));
  }
  return { path: file, dpi: resolution };
}

// ---------------------------------------------------------------------------------------------
// pdfjs-dist + @napi-rs/canvas

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

let pdfjsModule: Promise<Pdfjs> | null = null;

function pdfjsDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
}

function loadPdfjs(): Promise<Pdfjs> {
  pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((mod) => {
    const m = ((mod as { default?: Pdfjs }).default ?? mod) as Pdfjs;
    if (!m.GlobalWorkerOptions.workerSrc) {
      m.GlobalWorkerOptions.workerSrc = pathToFileURL(path.join(pdfjsDir(), 'legacy/build/pdf.worker.mjs')).href;
    }
    return m;
  });
  return pdfjsModule;
}

/** Opens a PDF with pdfjs with every resource it may need taken from the package on disk. */
export async function openPdfWithPdfjs(pdfPath: string): Promise<PdfDocument> {
  const pdfjs = await loadPdfjs();
  const dir = pdfjsDir();
  const data = new Uint8Array(await fs.promises.readFile(pdfPath));
  return pdfjs.getDocument({
    data,
    cMapUrl: path.join(dir, 'cmaps') + path.sep,
    cMapPacked: true,
    standardFontDataUrl: path.join(dir, 'standard_fonts') + path.sep,
    wasmUrl: path.join(dir, 'wasm') + path.sep,
    iccUrl: path.join(dir, 'iccs') + path.sep,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  } as Parameters<Pdfjs['getDocument']>[0]).promise;
}

type Matrix = [number, number, number, number, number, number];
/** The @napi-rs/canvas Canvas pdfjs's factory makes in Node. */
type NodeCanvas = { width: number; height: number; encode(format: 'png'): Promise<Buffer> };

/** The images a pdfjs page draws, with their resolution, from its operator list. */
export async function pdfjsPageImages(page: PdfPage): Promise<PageImage[]> {
  const pdfjs = await loadPdfjs();
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
    const resolution = dpi ?? chooseRenderDpi(await pdfjsPageImages(page), base.width, base.height);
    if (signal.aborted) throw abortError(signal);
    const viewport = page.getViewport({ scale: resolution / 72 });
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
    return { path: file, dpi: resolution };
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

  async render(pdfPath: string, page: number, signal: AbortSignal): Promise<RenderedPage> {
    if (signal.aborted) throw abortError(signal);
    await fs.promises.mkdir(this.tmpDir, { recursive: true });
    if (this.preferPoppler && (await popplerAvailable())) {
      try {
        return await renderPdfPageWithPoppler(pdfPath, page, this.tmpDir, signal);
      } catch (err) {
        if (signal.aborted) throw err;
        // A page poppler cannot draw gets one more chance with pdfjs; its failure reports poppler's.
        try {
          return await this.renderWithPdfjs(pdfPath, page, signal);
        } catch {
          throw err;
        }
      }
    }
    return this.renderWithPdfjs(pdfPath, page, signal);
  }

  private async renderWithPdfjs(pdfPath: string, page: number, signal: AbortSignal): Promise<RenderedPage> {
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
    return renderPdfjsPage(doc, page, this.tmpDir, signal);
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
