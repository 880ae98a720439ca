/**
 * Multi-page TIFF without decoding: finds the page directories (IFDs) and writes one page as a
 * TIFF of its own, so each engine OCRs one page at a time with progress and cancellation
 * between pages. A page file is a copy of the whole file whose header points at that page's
 * directory, which points at no next one: every offset in the file stays valid.
 */
import { ExtractionError } from '../types';

/** Directories beyond this are not followed (a loop or a hostile file). */
const MAX_DIRECTORIES = 100_000;

interface TiffLayout {
  little: boolean;
  big: boolean;
  /** Offset of each page directory, reduced-resolution copies (thumbnails) left out. */
  pages: number[];
  /** Pixel size of every directory, thumbnails included (a decoder may read them all). */
  sizes: { width: number; height: number; page: boolean }[];
}

function corrupt(detail: string): ExtractionError {
  return new ExtractionError('CORRUPT_DOCUMENT', `The TIFF file is damaged: ${detail}`);
}

function layout(buf: Buffer): TiffLayout {
  if (buf.length < 8) throw corrupt('it is too short');
  const order = buf.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') throw corrupt('no byte-order mark');
  const little = order === 'II';
  const u16 = (o: number) => (little ? buf.readUInt16LE(o) : buf.readUInt16BE(o));
  const u32 = (o: number) => (little ? buf.readUInt32LE(o) : buf.readUInt32BE(o));
  const u64 = (o: number) => Number(little ? buf.readBigUInt64LE(o) : buf.readBigUInt64BE(o));
  const magic = u16(2);
  if (magic !== 42 && magic !== 43) throw corrupt('not a TIFF header');
  const big = magic === 43;
  if (big && buf.length < 16) throw corrupt('it is too short');
  const pages: number[] = [];
  const sizes: TiffLayout['sizes'] = [];
  const seen = new Set<number>();
  let offset = big ? u64(8) : u32(4);
  while (offset !== 0) {
    if (seen.has(offset)) throw corrupt('its page directories form a loop');
    if (seen.size >= MAX_DIRECTORIES) throw corrupt('too many page directories');
    seen.add(offset);
    const headerSize = big ? 8 : 2;
    const entrySize = big ? 20 : 12;
    if (offset + headerSize > buf.length) throw corrupt('a page directory lies outside the file');
    const count = big ? u64(offset) : u16(offset);
    const end = offset + headerSize + count * entrySize;
    if (end + (big ? 8 : 4) > buf.length) throw corrupt('a page directory lies outside the file');
    let reduced = false;
    let width = 0;
    let height = 0;
    for (let i = 0; i < count; i++) {
      const entry = offset + headerSize + i * entrySize;
      const tag = u16(entry);
      if (tag !== 254 && tag !== 256 && tag !== 257) continue;
      // One SHORT, LONG or (BigTIFF) LONG8 value, stored in the entry itself.
      const type = u16(entry + 2);
      const at = entry + (big ? 12 : 8);
      const value = type === 3 ? u16(at) : type === 16 && big ? u64(at) : u32(at);
      // NewSubfileType: bit 0 marks a reduced-resolution copy of another page.
      if (tag === 254) reduced = (value & 1) === 1;
      else if (tag === 256) width = value;
      else height = value;
    }
    sizes.push({ width, height, page: !reduced });
    if (!reduced) pages.push(offset);
    offset = big ? u64(end) : u32(end);
  }
  if (pages.length === 0) throw corrupt('it has no pages');
  return { little, big, pages, sizes };
}

/** Width and height of every image in a TIFF file, read from its directories without decoding. */
export function tiffImageSizes(buf: Buffer): TiffLayout['sizes'] {
  return layout(buf).sizes;
}

/** Number of pages (full-resolution images) in a TIFF file. */
export function tiffPageCount(buf: Buffer): number {
  return layout(buf).pages.length;
}

/** Page `index` (0-based) of a TIFF file as a single-page TIFF. */
export function tiffPage(buf: Buffer, index: number): Buffer {
  const { little, big, pages } = layout(buf);
  const offset = pages[index];
  if (offset === undefined) throw new RangeError(`page ${index} of ${pages.length}`);
  const out = Buffer.from(buf);
  const count = big
    ? Number(little ? out.readBigUInt64LE(offset) : out.readBigUInt64BE(offset))
    : little
      ? out.readUInt16LE(offset)
      : out.readUInt16BE(offset);
  const next = offset + (big ? 8 : 2) + count * (big ? 20 : 12);
  if (big) {
    if (little) {
      out.writeBigUInt64LE(BigInt(offset), 8);
      out.writeBigUInt64LE(0n, next);
    } else {
      out.writeBigUInt64BE(BigInt(offset), 8);
      out.writeBigUInt64BE(0n, next);
    }
  } else if (little) {
    out.writeUInt32LE(offset, 4);
    out.writeUInt32LE(0, next);
  } else {
    out.writeUInt32BE(offset, 4);
    out.writeUInt32BE(0, next);
  }
  return out;
}
