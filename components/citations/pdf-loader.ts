import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/*
 * pdf.js for the browser, loaded only when an original PDF page is shown (this module is imported
 * on demand, so neither pdf.js nor its worker weighs on any other page). Its "legacy" build, which
 * also runs in browsers a few versions old. The worker is bundled with the console and runs beside
 * the page, so drawing a large page never freezes it.
 */

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

const DATA = '/pdfjs';

let library: Promise<Pdfjs> | undefined;

function pdfjs(): Promise<Pdfjs> {
  library ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((lib) => {
    if (!lib.GlobalWorkerOptions.workerPort) {
      lib.GlobalWorkerOptions.workerPort = new Worker(new URL('pdfjs-dist/legacy/build/pdf.worker.min.mjs', import.meta.url), { type: 'module' });
    }
    return lib;
  });
  return library;
}

/** Opens a PDF from an address of this site (the session cookie goes with the request). */
export async function openPdf(url: string): Promise<PDFDocumentProxy> {
  const lib = await pdfjs();
  return lib.getDocument({
    url,
    withCredentials: true,
    isEvalSupported: false,
    // pdf.js's data files, served by this site (app/pdfjs): CJK character maps, standard fonts, scan decoders.
    cMapUrl: `${DATA}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${DATA}/standard_fonts/`,
    wasmUrl: `${DATA}/wasm/`,
    iccUrl: `${DATA}/iccs/`,
  }).promise;
}

/**
 * Draws a page into the canvas at the given width (in CSS pixels), sharp on high-density screens.
 * Answers a function that stops the drawing, for when the page changes before it ends.
 */
export function drawPage(page: PDFPageProxy, canvas: HTMLCanvasElement, cssWidth: number): { done: Promise<void>; cancel: () => void } {
  const base = page.getViewport({ scale: 1 });
  const density = Math.min(window.devicePixelRatio || 1, 3);
  const viewport = page.getViewport({ scale: (cssWidth / base.width) * density });
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  const task = page.render({ canvas, viewport });
  return { done: task.promise, cancel: () => task.cancel() };
}
