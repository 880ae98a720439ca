/**
 * Turns an uploaded image into a file a Tesseract engine reads correctly: the file itself when
 * the engine decodes its format and nothing needs turning, else a grey PNG we decode ourselves.
 * TIFF (every variant, see tiff-decode.ts) and HEIF are always decoded here; a JPEG with an
 * EXIF orientation is decoded upright (@napi-rs/canvas applies the tag); formats the engine
 * lacks go through @napi-rs/canvas. The pixel budget is checked first (readImageWithinBudget).
 */
import fs from 'node:fs';
import { readImageWithinBudget } from './dimensions';
import { jpegExifOrientation } from './exif';
import { decodeHeif } from './heif';
import { decodeWithCanvas, writeRasterPng, type GreyRaster } from './raster';
import { decodeTiffPage } from './tiff-decode';
import type { ImageFormat } from './common';

export interface PreparedImage {
  /** The file to give the engine. */
  path: string;
  /** Removes the converted file, if one was written. */
  release(): Promise<void>;
}

async function decodeForOcr(format: ImageFormat, bytes: Buffer): Promise<GreyRaster> {
  if (format === 'tiff') return decodeTiffPage(bytes, 0);
  if (format === 'heif') return decodeHeif(bytes);
  return decodeWithCanvas(bytes);
}

/**
 * The image as the engine should read it. A multi-page TIFF is read as its first page: image.ts
 * splits pages before they get here.
 */
export async function prepareImage(file: string, engineFormats: Set<ImageFormat>, tmpDir: string): Promise<PreparedImage> {
  const { format, bytes } = await readImageWithinBudget(file);
  const ownDecode =
    format === 'tiff' || format === 'heif' || !engineFormats.has(format) || (format === 'jpeg' && jpegExifOrientation(bytes) !== 1);
  if (!ownDecode) return { path: file, release: async () => {} };
  const converted = await writeRasterPng(await decodeForOcr(format, bytes), tmpDir, 'converted');
  return { path: converted, release: () => fs.promises.rm(converted, { force: true }) };
}
