/**
 * HEIC/HEIF photos (iPhone camera default). Neither tesseract nor @napi-rs/canvas decodes them;
 * heic-decode (libheif compiled to WebAssembly, no network) does. Their sizes are read from the
 * file's `ispe` (image spatial extents) properties before that, so the pixel budget is checked
 * without decoding: every image item must carry one, grid tiles and thumbnails included.
 */
import { ExtractionError } from '../types';
import { rgbaToGrey, type GreyRaster } from './raster';

/** HEVC-coded HEIF brands; plain `mif1` files are accepted too and left to the decoder. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1']);

/** Whether the bytes start with an ISO-BMFF `ftyp` box naming a HEIF brand (AVIF excluded). */
export function isHeif(head: Uint8Array): boolean {
  if (head.length < 16) return false;
  const text = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (text(4, 8) !== 'ftyp') return false;
  const size = ((head[0] << 24) | (head[1] << 16) | (head[2] << 8) | head[3]) >>> 0;
  const end = Math.min(head.length, Math.max(16, size));
  const brands = [text(8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(text(at, at + 4));
  if (brands.some((b) => b === 'avif' || b === 'avis')) return false;
  return brands.some((b) => HEIF_BRANDS.has(b));
}

function corrupt(detail: string): ExtractionError {
  return new ExtractionError('CORRUPT_DOCUMENT', `The HEIF image is damaged: ${detail}`);
}

interface Box {
  type: string;
  start: number;
  end: number;
  /** Where the box's content begins (after the header). */
  body: number;
}

function* boxes(buf: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > to) throw corrupt('a box header is cut off');
      size = Number(buf.readBigUInt64BE(at + 8));
      body = at + 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < body - at || at + size > to) throw corrupt(`the "${type}" box overruns its container`);
    yield { type, start: at, end: at + size, body };
    at += size;
  }
}

function child(buf: Buffer, parent: { body: number; end: number }, type: string, skip = 0): Box | undefined {
  for (const box of boxes(buf, parent.body + skip, parent.end)) if (box.type === type) return box;
  return undefined;
}

/** Width and height of every image the file describes (from `meta/iprp/ipco/ispe`). */
export function heifImageSizes(buf: Buffer): { width: number; height: number }[] {
  const meta = [...boxes(buf, 0, buf.length)].find((b) => b.type === 'meta');
  if (!meta) throw corrupt('it has no "meta" box');
  // "meta" is a full box: 4 bytes of version and flags precede its children.
  const iprp = child(buf, meta, 'iprp', 4);
  const ipco = iprp && child(buf, iprp, 'ipco');
  if (!ipco) throw corrupt('it has no image properties');
  const sizes: { width: number; height: number }[] = [];
  for (const box of boxes(buf, ipco.body, ipco.end)) {
    if (box.type !== 'ispe') continue;
    if (box.body + 12 > box.end) throw corrupt('an image size property is cut off');
    sizes.push({ width: buf.readUInt32BE(box.body + 4), height: buf.readUInt32BE(box.body + 8) });
  }
  if (sizes.length === 0) throw corrupt('no image declares its size');
  return sizes;
}

/** Decodes the primary image (transformations such as `irot` applied) to grey. */
export async function decodeHeif(buf: Buffer): Promise<GreyRaster> {
  const mod = await import('heic-decode');
  // A CommonJS module: its function is the default export, or the module itself.
  const decode = (mod.default ?? mod) as typeof mod.default;
  let image: { width: number; height: number; data: Uint8ClampedArray };
  try {
    image = await decode({ buffer: buf });
  } catch (err) {
    throw new ExtractionError('CORRUPT_DOCUMENT', `The HEIF image could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  }
  return rgbaToGrey(image.data, image.width, image.height);
}
