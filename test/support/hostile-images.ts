/**
 * Images for the resource-limit tests: valid files that decode to far more pixels than their
 * size suggests, and headers that declare huge canvases in each format extraction reads.
 */
import { once } from 'node:events';
import zlib from 'node:zlib';
import { greyTiff } from './tiff';

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(zlib.crc32(body), body.length + 4);
  return out;
}

/**
 * A complete, valid 8-bit grey PNG, all white: 20000 × 20000 (400 megapixels) is a 1.8 MB file
 * that takes 400 MB as decoded grey pixels and gigabytes in an OCR engine.
 */
export async function blankPng(width: number, height: number): Promise<Buffer> {
  const row = Buffer.alloc(width + 1, 0xff);
  row[0] = 0; // filter: none
  const deflate = zlib.createDeflate({ level: 1 });
  const parts: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => parts.push(chunk));
  const ended = once(deflate, 'end');
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await once(deflate, 'drain');
  }
  deflate.end();
  await ended;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit grey, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.concat(parts)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG whose first frame header is SOF`n` (0xC0 baseline, 0xC9 arithmetic-coded, …). */
export function jpegHeader(width: number, height: number, sof = 0xc9): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const frame = Buffer.from([0xff, sof, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]);
  const scan = Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, frame, scan, Buffer.alloc(64), Buffer.from([0xff, 0xd9])]);
}

/** An extended WebP (VP8X) header declaring a canvas of width × height. */
export function webpHeader(width: number, height: number): Buffer {
  const buf = Buffer.alloc(30);
  buf.write('RIFF', 0, 'latin1');
  buf.writeUInt32LE(22, 4);
  buf.write('WEBPVP8X', 8, 'latin1');
  buf.writeUInt32LE(10, 16);
  buf.writeUIntLE(width - 1, 24, 3);
  buf.writeUIntLE(height - 1, 27, 3);
  return buf;
}

/** A 24-bit BMP header (no pixel data) declaring width × height. */
export function bmpHeader(width: number, height: number): Buffer {
  const buf = Buffer.alloc(54);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(54, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(-height, 22); // top-down rows
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  return buf;
}

/** A GIF header (logical screen only) of width × height. */
export function gifHeader(width: number, height: number): Buffer {
  const buf = Buffer.alloc(14);
  buf.write('GIF89a', 0, 'latin1');
  buf.writeUInt16LE(width, 6);
  buf.writeUInt16LE(height, 8);
  buf[13] = 0x3b; // trailer
  return buf;
}

/**
 * A TIFF of 8-bit grey pages given by their sizes; only the first page carries (white) pixels,
 * the others just declare their size.
 */
export function tiffPages(pages: { width: number; height: number; thumbnail?: boolean }[]): Buffer {
  const [first, ...rest] = pages;
  return greyTiff([{ ...first, grey: new Uint8Array(first.width * first.height).fill(0xff) }, ...rest]);
}

/**
 * A PNG of width × height covered in lines of small text: a valid, ordinary-looking page that
 * keeps tesseract busy far longer than a test waits (3000 × 3000 takes it over a minute).
 */
export async function denseTextPng(width: number, height: number): Promise<Buffer> {
  const { createCanvas, GlobalFonts } = await import('@napi-rs/canvas');
  GlobalFonts.registerFromPath('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', 'DenseTextSans');
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000';
  ctx.font = '28px DenseTextSans';
  const line = 'The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs. '.repeat(Math.ceil(width / 1200));
  for (let y = 40; y < height; y += 40) ctx.fillText(line, 20, y);
  return canvas.encode('png');
}
