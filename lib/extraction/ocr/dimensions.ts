/**
 * Pixel sizes of images read from their headers, so the pixel budget is checked before any
 * decoder allocates a canvas. PNG, WebP, BMP and GIF go through image-size; HEIF through heif.ts
 * (every `ispe` property); JPEG and TIFF are read here, because image-size knows only baseline
 * and progressive JPEG frame headers
 * (libjpeg-turbo also decodes arithmetic-coded and lossless ones, so a file could declare its
 * real size in one of those) and only the first of a TIFF's images.
 */
import fs from 'node:fs';
import { imageSize } from 'image-size';
import { checkPixelBudget } from '../limits';
import { ExtractionError } from '../types';
import { sniffImageFormat, type ImageFormat } from './common';
import { heifImageSizes } from './heif';
import { tiffImageSizes } from './tiff';

export interface ImageSize {
  width: number;
  height: number;
}

function unreadable(detail: string): ExtractionError {
  return new ExtractionError('CORRUPT_DOCUMENT', `The image's dimensions could not be read: ${detail}`);
}

/** The size in the first frame header (SOFn marker), which is the one libjpeg decodes. */
export function jpegSize(buf: Buffer): ImageSize {
  let at = 2;
  while (at + 4 <= buf.length) {
    if (buf[at] !== 0xff) throw unreadable('a JPEG marker is missing');
    const marker = buf[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width follow the length.
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) {
      if (at + 9 > buf.length) break;
      return { height: buf.readUInt16BE(at + 5), width: buf.readUInt16BE(at + 7) };
    }
    at += 2 + buf.readUInt16BE(at + 2);
  }
  throw unreadable('the JPEG file has no frame header before its image data');
}

/** The size of each image in the file (a TIFF may hold many; other formats one). */
export function imageSizes(buf: Buffer, format: ImageFormat): ImageSize[] {
  if (format === 'tiff') return tiffImageSizes(buf).map(({ width, height }) => ({ width, height }));
  if (format === 'jpeg') return [jpegSize(buf)];
  if (format === 'heif') return heifImageSizes(buf);
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(buf);
  } catch (err) {
    throw unreadable(err instanceof Error ? err.message : String(err));
  }
  if (size.type !== format) throw unreadable(`the ${format.toUpperCase()} header is not valid`);
  return [{ width: size.width, height: size.height }];
}

/**
 * Reads an image file and refuses it (RESOURCE_LIMIT_EXCEEDED) when any image in it has more
 * pixels than the task's budget; CORRUPT_DOCUMENT when it is no image or its size is unreadable.
 */
export async function readImageWithinBudget(file: string): Promise<{ format: ImageFormat; bytes: Buffer; sizes: ImageSize[] }> {
  const bytes = await fs.promises.readFile(file);
  const format = sniffImageFormat(bytes.subarray(0, 64));
  if (!format) throw new ExtractionError('CORRUPT_DOCUMENT', 'The file is not a readable image (its content matches no supported image format)');
  const sizes = imageSizes(bytes, format);
  sizes.forEach(({ width, height }, i) =>
    checkPixelBudget(sizes.length > 1 ? `Image ${i + 1} of the ${sizes.length} in the ${format.toUpperCase()} file` : 'The image', width, height),
  );
  return { format, bytes, sizes };
}
