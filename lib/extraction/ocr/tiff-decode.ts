/**
 * Decodes one TIFF page with utif2 (pure JavaScript) for OCR. Leptonica, inside both Tesseract
 * engines, misses variants that scanners and fax software write: the native one reads a tiled
 * CCITT G4 page as a blank page, the tesseract.js build has no Deflate; utif2 reads bilevel
 * G3/G4 (strips or tiles, either fill order), LZW and Deflate with predictors, PackBits, JPEG,
 * either byte order. Sizes were checked against the pixel budget before this runs (dimensions.ts).
 */
import UTIF from 'utif2';
import { ExtractionError } from '../types';
import { rgbaToGrey, type GreyRaster } from './raster';
import { tiffPage } from './tiff';

function tag(ifd: UTIF.IFD, id: number): number | undefined {
  const value = ifd[`t${id}`];
  return Array.isArray(value) && typeof value[0] === 'number' ? value[0] : undefined;
}

/**
 * Bilevel and 8-bit grey pages straight to grey (a quarter of the memory of RGBA, and these are
 * most scans); anything else through utif2's RGBA conversion.
 */
function toGrey(ifd: UTIF.IFD): GreyRaster {
  const { width, height } = ifd;
  const bps = tag(ifd, 258) ?? 1;
  const spp = tag(ifd, 277) ?? 1;
  const photometric = tag(ifd, 262) ?? 0;
  const data = ifd.data;
  if (spp === 1 && (photometric === 0 || photometric === 1) && (bps === 1 || bps === 8)) {
    const grey = new Uint8Array(width * height);
    const whiteIsZero = photometric === 0;
    const rowBytes = Math.ceil((width * bps) / 8);
    for (let y = 0; y < height; y++) {
      const row = y * rowBytes;
      for (let x = 0; x < width; x++) {
        const v = bps === 1 ? (((data[row + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1) * 255 : (data[row + x] ?? 0);
        grey[y * width + x] = whiteIsZero ? 255 - v : v;
      }
    }
    return { width, height, grey };
  }
  return rgbaToGrey(UTIF.toRGBA8(ifd), width, height);
}

/** Page `index` (0-based, thumbnails not counted) of a TIFF file as a grey raster. */
export function decodeTiffPage(buf: Buffer, index: number): GreyRaster {
  // The page as a file of its own, so utif2 sees exactly one directory chain: that page's.
  const single = tiffPage(buf, index);
  const bytes = single.buffer.slice(single.byteOffset, single.byteOffset + single.byteLength) as ArrayBuffer;
  let ifd: UTIF.IFD | undefined;
  // utif2 prints a debugging line for tiled images; the worker's output is no place for it.
  const log = console.log;
  console.log = () => {};
  try {
    ifd = UTIF.decode(bytes)[0];
    if (ifd) UTIF.decodeImage(bytes, ifd);
  } catch (err) {
    throw new ExtractionError('CORRUPT_DOCUMENT', `The TIFF page could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    console.log = log;
  }
  if (!ifd || !(ifd.width > 0 && ifd.height > 0) || !ifd.data) {
    throw new ExtractionError('CORRUPT_DOCUMENT', 'The TIFF page could not be decoded: it has no image data');
  }
  return toGrey(ifd);
}
