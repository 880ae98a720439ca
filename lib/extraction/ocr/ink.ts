/**
 * Whether a page in which OCR found no words has anything on it. A blank page (no ink) is an
 * empty page of the document; a page with ink that nothing could be read from is a failed
 * reading (image.ts, pdf/ocr/recognize.ts). Asked only when a page gave no words, so clear pages
 * never pay for the decode.
 */
import fs from 'node:fs';
import { sniffImageFormat } from './common';
import { imageSizes } from './dimensions';
import { decodeWithCanvas, type GreyRaster } from './raster';

/** A pixel at least this far from the background's grey level is ink (JPEG noise and paper grain stay well below). */
const INK_CONTRAST = 64;
/**
 * Ink must cover this share of the page: a short line of 12-point text on an A4 page scanned at
 * 300 dpi covers about 0.02 %, a few specks of dust less.
 */
const MIN_INK_SHARE = 0.0001;
/** ... and at least this many pixels, for small images. */
const MIN_INK_PIXELS = 20;
/** Pixels looked at, at most (every nth row and column beyond). */
const MAX_SAMPLES = 4_000_000;
/** Larger pages are not decoded here (the worker's memory); they count as inked. */
const MAX_PIXELS = 40_000_000;

/**
 * The page's background grey level: the most common one, in bins of four levels, over every
 * `step`th row and column (every pixel by default).
 */
export function paperGrey({ width, height, grey }: GreyRaster, step = Math.max(1, Math.floor(Math.sqrt((width * height) / MAX_SAMPLES)))): number {
  const histogram = new Uint32Array(64);
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) histogram[grey[y * width + x] >> 2]++;
  }
  let mode = 0;
  for (let bin = 1; bin < histogram.length; bin++) if (histogram[bin] > histogram[mode]) mode = bin;
  return mode * 4 + 2;
}

/** Whether a raster has ink: pixels clearly darker (or, on a dark page, lighter) than its background. */
export function rasterHasInk(raster: GreyRaster): boolean {
  const { width, height, grey } = raster;
  const step = Math.max(1, Math.floor(Math.sqrt((width * height) / MAX_SAMPLES)));
  const background = paperGrey(raster, step);
  let ink = 0;
  let samples = 0;
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      samples++;
      if (Math.abs(grey[y * width + x] - background) >= INK_CONTRAST) ink++;
    }
  }
  return ink >= Math.max(MIN_INK_PIXELS, samples * MIN_INK_SHARE);
}

/**
 * An image file the engines read (PNG, JPEG, WebP, BMP, GIF) decoded to grey in this process,
 * for looking at its pixels; null when it is not one of those, is over MAX_PIXELS or does not
 * decode.
 */
export async function decodeGreyFile(file: string): Promise<GreyRaster | null> {
  try {
    const bytes = await fs.promises.readFile(file);
    const format = sniffImageFormat(bytes.subarray(0, 64));
    if (!format || format === 'tiff' || format === 'heif') return null;
    const [size] = imageSizes(bytes, format);
    if (!size || size.width * size.height > MAX_PIXELS) return null;
    return await decodeWithCanvas(bytes);
  } catch {
    return null;
  }
}

/** Whether the image file (one the engines read: PNG, JPEG, WebP, BMP, GIF) has ink; true when that cannot be told. */
export async function imageHasInk(file: string): Promise<boolean> {
  const raster = await decodeGreyFile(file);
  // Not decodable here: the engine's "no words" stands as a failed reading.
  return raster ? rasterHasInk(raster) : true;
}
