/**
 * The resolution a PDF page is rendered at for OCR: that of the scan embedded in it. The
 * resolution comes from the page's largest image (`pdfimages -list`, or the pdfjs operator
 * list): a 300 ppi scan is rendered at 300 dpi, so OCR sees the scanner's pixels without
 * resampling, within 200–400 dpi (finer scans are divided by a whole factor: 600 ppi renders at
 * 300; coarser ones multiplied: 150 ppi renders at 300); pages without a page-sized image render
 * at 300.
 */
import { ExtractionError } from '../types';

export const DEFAULT_RENDER_DPI = 300;
export const MIN_RENDER_DPI = 150;
export const MAX_RENDER_DPI = 400;
/**
 * Scans coarser than this are rendered at the smallest whole multiple of their resolution that
 * reaches it (150 ppi at 300 dpi, 72 at 216): Tesseract reads small print far better at about
 * 300 dpi. On the ICDAR pages scanned at 150 dpi: 10.9% of table cells misread instead of 14.3%,
 * at 1.8 times the OCR time. A noisy scan can read worse so (its specks grown with the letters):
 * a page that reads badly finer is read at its own resolution too (ocr/service.ts).
 */
const UPSCALE_BELOW_DPI = 200;
/** An image must cover this share of the page for its resolution to count as the scan's. */
const MIN_SCAN_COVERAGE = 0.3;
/**
 * Renders never exceed this many pixels, nor the task's pixel budget when that is lower (a
 * poster-sized page gets a lower dpi).
 */
const MAX_RENDER_PIXELS = 50_000_000;
/** Nor this many pixels on a side (Tesseract refuses images over 32767). */
const MAX_RENDER_SIDE = 20_000;

export interface RenderedPage {
  /** PNG file in the scratch directory; the caller deletes it. */
  path: string;
  dpi: number;
  /** The scan's own resolution, when the page was rendered finer than it (UPSCALE_BELOW_DPI). */
  scanDpi?: number;
}

/** A render resolution, and the scan's own when that is coarser (rendered finer for OCR). */
export interface RenderChoice {
  dpi: number;
  scanDpi?: number;
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
 * least 30 % of the page (below 200 multiplied by the smallest whole factor that brings it to 200
 * or above; above 400 divided by the smallest whole factor that brings it to 400 or below);
 * otherwise 300. Then lowered if needed so the render stays within
 * the pixel limits.
 */
export function chooseRenderDpi(images: PageImage[], pageWidthPt: number, pageHeightPt: number, pixelBudget = MAX_RENDER_PIXELS): number {
  return chooseRender(images, pageWidthPt, pageHeightPt, pixelBudget).dpi;
}

/** chooseRenderDpi, with the scan's own resolution when the choice is finer than it. */
export function chooseRender(images: PageImage[], pageWidthPt: number, pageHeightPt: number, pixelBudget = MAX_RENDER_PIXELS): RenderChoice {
  const maxPixels = Math.min(MAX_RENDER_PIXELS, pixelBudget);
  const pageArea = pageWidthPt * pageHeightPt;
  let dpi = DEFAULT_RENDER_DPI;
  let scanDpi: number | undefined;
  const largest = [...images].filter((i) => i.ppi > 0 && Number.isFinite(i.ppi)).sort((a, b) => b.area - a.area)[0];
  if (largest && pageArea > 0 && largest.area >= MIN_SCAN_COVERAGE * pageArea) {
    const ppi = Math.round(largest.ppi);
    if (ppi > MAX_RENDER_DPI) {
      // Scale down by a whole factor (600 → 300, 1200 → 400): every output pixel is an average
      // of whole scan pixels, and poppler takes its fast path (600 → 400 renders 2.5× slower).
      const factor = Math.ceil(ppi / MAX_RENDER_DPI);
      dpi = Math.max(MIN_RENDER_DPI, Math.floor(ppi / factor));
    } else if (ppi < UPSCALE_BELOW_DPI) {
      dpi = Math.min(MAX_RENDER_DPI, ppi * Math.ceil(UPSCALE_BELOW_DPI / ppi));
      scanDpi = ppi;
    } else {
      dpi = Math.max(MIN_RENDER_DPI, ppi);
    }
  }
  const w = (pageWidthPt / 72) * dpi;
  const h = (pageHeightPt / 72) * dpi;
  let scale = 1;
  if (w * h > maxPixels) scale = Math.sqrt(maxPixels / (w * h));
  if (Math.max(w, h) * scale > MAX_RENDER_SIDE) scale = MAX_RENDER_SIDE / Math.max(w, h);
  if (scale < 1) return { dpi: Math.max(1, Math.floor(dpi * scale)) };
  return scanDpi ? { dpi, scanDpi } : { dpi };
}

export function renderFailed(page: number, detail: string): ExtractionError {
  return new ExtractionError('OCR_FAILED', `Page ${page} could not be rendered for OCR${detail ? `: ${detail}` : ''}`);
}
