/**
 * Grey pixel rasters for images the engines cannot be trusted to read themselves (every TIFF,
 * HEIC, JPEG with an EXIF orientation) and for turning pages upright. OCR needs no colour, so a
 * decoded image is kept as one byte per pixel (a quarter of RGBA) and written as an 8-bit grey
 * PNG, which both Tesseract engines read.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ExtractionError } from '../types';

export interface GreyRaster {
  width: number;
  height: number;
  /** One byte per pixel, row by row, 0 black to 255 white. */
  grey: Uint8Array;
}

/** RGBA (8 bits a channel) to grey, transparent pixels on white (text on a clear background stays legible). */
export function rgbaToGrey(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GreyRaster {
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) {
    const luma = (rgba[p] * 299 + rgba[p + 1] * 587 + rgba[p + 2] * 114) / 1000;
    const alpha = rgba[p + 3] / 255;
    grey[i] = Math.round(luma * alpha + 255 * (1 - alpha));
  }
  return { width, height, grey };
}

/**
 * Applies an EXIF orientation (1–8): the raster as stored becomes the raster as displayed.
 * 2/4 mirror, 3 turns 180°, 6 turns 90° clockwise, 8 90° counter-clockwise, 5/7 transpose.
 */
export function orientRaster(src: GreyRaster, orientation: number): GreyRaster {
  if (!(orientation >= 2 && orientation <= 8)) return src;
  const { width: w, height: h, grey } = src;
  const swap = orientation >= 5;
  const W = swap ? h : w;
  const H = swap ? w : h;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // The source pixel shown at (x, y) of the displayed image.
      let sx: number;
      let sy: number;
      switch (orientation) {
        case 2: sx = w - 1 - x; sy = y; break;
        case 3: sx = w - 1 - x; sy = h - 1 - y; break;
        case 4: sx = x; sy = h - 1 - y; break;
        case 5: sx = y; sy = x; break;
        case 6: sx = y; sy = h - 1 - x; break;
        case 7: sx = w - 1 - y; sy = h - 1 - x; break;
        default: sx = w - 1 - y; sy = x; break; // 8
      }
      out[y * W + x] = grey[sy * w + sx];
    }
  }
  return { width: W, height: H, grey: out };
}

/** Turns a raster clockwise by 0, 90, 180 or 270 degrees. */
export function rotateRaster(src: GreyRaster, degrees: number): GreyRaster {
  const turn = ((degrees % 360) + 360) % 360;
  if (turn === 90) return orientRaster(src, 6);
  if (turn === 180) return orientRaster(src, 3);
  if (turn === 270) return orientRaster(src, 8);
  return src;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** An 8-bit grey PNG of the raster (filter "none", fast deflate: it only lives until OCR reads it). */
export function encodeGreyPng({ width, height, grey }: GreyRaster): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: grey
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) rows.set(grey.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes the raster as a PNG in `tmpDir` and returns its path. */
export async function writeRasterPng(raster: GreyRaster, tmpDir: string, label: string): Promise<string> {
  await fs.promises.mkdir(tmpDir, { recursive: true });
  const file = path.join(tmpDir, `ocr-${label}-${process.hrtime.bigint()}.png`);
  await fs.promises.writeFile(file, encodeGreyPng(raster));
  return file;
}

/** Decodes PNG, JPEG, WebP, GIF (first frame) or BMP bytes with @napi-rs/canvas. */
export async function decodeWithCanvas(bytes: Buffer): Promise<GreyRaster> {
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  let image: Awaited<ReturnType<typeof loadImage>>;
  try {
    image = await loadImage(bytes);
  } catch (err) {
    throw new ExtractionError('CORRUPT_DOCUMENT', `The image could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!(image.width > 0 && image.height > 0)) throw new ExtractionError('CORRUPT_DOCUMENT', 'The image could not be decoded');
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return rgbaToGrey(ctx.getImageData(0, 0, image.width, image.height).data, image.width, image.height);
}
