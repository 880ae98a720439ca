/**
 * Straightens pages scanned a few degrees askew. Tesseract's layout analysis copes with some
 * skew but not all: phototest turned 3° or 4° clockwise loses its second paragraph with both
 * engines (24 and 38 of 60 words), while 1–2°, 5° and any counter-clockwise angle read whole.
 * The angle is found from the ink's projection profile (text lines give the sharpest profile
 * when they run exactly across), on a reduced copy, and the page is turned back before OCR.
 */
import fs from 'node:fs';
import { ExtractionError } from '../types';
import { sniffImageFormat } from './common';
import { imageSizes } from './dimensions';
import { decodeWithCanvas, writeRasterPng, type GreyRaster } from './raster';

/** Angles searched, in degrees either way; larger ones are orientation (OSD) or not a page of lines. */
const MAX_SKEW = 6;
/** Below this Tesseract's own handling is enough, and turning would only blur the page. */
const MIN_SKEW = 0.8;
/** The sharpest profile must beat the page as it is by this much to count as a skew. */
const MIN_GAIN = 1.15;
/** Ink points used at most (every nth dark pixel of a reduced copy). */
const MAX_POINTS = 60_000;
/**
 * Larger pages are left to Tesseract: straightening decodes the page in this process (RGBA,
 * 4 bytes a pixel, twice while turning), which beyond this would crowd the worker's memory cap.
 * An A4 page at 400 dpi has 15.5 megapixels.
 */
const MAX_PIXELS = 40_000_000;

function profileScore(xs: Float64Array, ys: Float64Array, n: number, degrees: number, across: boolean, bins: Float64Array): number {
  const t = (degrees * Math.PI) / 180;
  const sin = Math.sin(t);
  const cos = Math.cos(t);
  bins.fill(0);
  const offset = bins.length / 2;
  for (let i = 0; i < n; i++) {
    // The coordinate across the lines once the page is turned back by `degrees`.
    const v = across ? ys[i] * cos - xs[i] * sin : xs[i] * cos + ys[i] * sin;
    const bin = Math.round(v) + offset;
    if (bin >= 0 && bin < bins.length) bins[bin] += 1;
  }
  let score = 0;
  for (const b of bins) score += b * b;
  return score;
}

/**
 * The clockwise angle (degrees) the page's lines are turned by, or 0 when it is straight enough
 * or has no clear lines. Works for lines running across or (a page turned sideways) down.
 */
export function estimateSkew(raster: GreyRaster): number {
  const { width, height, grey } = raster;
  const step = Math.max(1, Math.ceil(Math.max(width, height) / 1200));
  let dark = 0;
  for (let y = 0; y < height; y += step) for (let x = 0; x < width; x += step) if (grey[y * width + x] < 128) dark++;
  if (dark < 200) return 0;
  const every = Math.max(1, Math.ceil(dark / MAX_POINTS));
  const xs = new Float64Array(Math.ceil(dark / every));
  const ys = new Float64Array(xs.length);
  let n = 0;
  let seen = 0;
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      if (grey[y * width + x] >= 128) continue;
      if (seen++ % every === 0 && n < xs.length) {
        xs[n] = x / step;
        ys[n] = y / step;
        n++;
      }
    }
  }
  const bins = new Float64Array(2 * Math.ceil(Math.hypot(width, height) / step) + 4);
  let best = { degrees: 0, score: 0, across: true };
  const straight: Record<string, number> = {};
  for (const across of [true, false]) {
    straight[String(across)] = profileScore(xs, ys, n, 0, across, bins);
    for (let d = -MAX_SKEW; d <= MAX_SKEW + 1e-9; d += 0.25) {
      const score = profileScore(xs, ys, n, d, across, bins);
      if (score > best.score) best = { degrees: d, score, across };
    }
  }
  for (let d = best.degrees - 0.2; d <= best.degrees + 0.2 + 1e-9; d += 0.05) {
    const score = profileScore(xs, ys, n, d, best.across, bins);
    if (score > best.score) best = { ...best, degrees: d, score };
  }
  if (Math.abs(best.degrees) < MIN_SKEW || best.score < straight[String(best.across)] * MIN_GAIN) return 0;
  return Math.round(best.degrees * 100) / 100;
}

/** A raster turned counter-clockwise by `degrees` (undoing a clockwise skew), white where nothing was. */
async function turnBack(raster: GreyRaster, degrees: number): Promise<GreyRaster> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const { width, height } = raster;
  const source = createCanvas(width, height);
  const sctx = source.getContext('2d');
  const image = sctx.createImageData(width, height);
  for (let i = 0; i < raster.grey.length; i++) {
    const v = raster.grey[i];
    image.data[i * 4] = v;
    image.data[i * 4 + 1] = v;
    image.data[i * 4 + 2] = v;
    image.data[i * 4 + 3] = 255;
  }
  sctx.putImageData(image, 0, 0);
  // Large enough for the whole turned page: no corner of text is cut off.
  const t = (degrees * Math.PI) / 180;
  const W = Math.ceil(width * Math.abs(Math.cos(t)) + height * Math.abs(Math.sin(t)));
  const H = Math.ceil(width * Math.abs(Math.sin(t)) + height * Math.abs(Math.cos(t)));
  const target = createCanvas(W, H);
  const ctx = target.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  ctx.translate(W / 2, H / 2);
  ctx.rotate(-t);
  ctx.drawImage(source, -width / 2, -height / 2);
  const out = ctx.getImageData(0, 0, W, H).data;
  const grey = new Uint8Array(W * H);
  for (let i = 0; i < grey.length; i++) grey[i] = out[i * 4];
  return { width: W, height: H, grey };
}

/**
 * The page straightened when it is askew: a new PNG in `tmpDir`, or null when the page is
 * straight (or cannot be decoded here, in which case the engine gets it as it is).
 */
export async function straightenPage(file: string, tmpDir: string): Promise<string | null> {
  const bytes = await fs.promises.readFile(file);
  let raster: GreyRaster;
  try {
    const format = sniffImageFormat(bytes.subarray(0, 64));
    if (!format || format === 'tiff' || format === 'heif') return null;
    const [size] = imageSizes(bytes, format);
    if (!size || size.width * size.height > MAX_PIXELS) return null;
    raster = await decodeWithCanvas(bytes);
  } catch (err) {
    if (err instanceof ExtractionError) return null;
    throw err;
  }
  const skew = estimateSkew(raster);
  if (skew === 0) return null;
  return writeRasterPng(await turnBack(raster, skew), tmpDir, 'straightened');
}
