/**
 * The pieces of image decoding for OCR that need no engine: rasters turned and oriented, the
 * skew estimate, EXIF orientation, HEIF sniffing and sizes, OSD parsing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffImageFormat, verticalLanguages } from '@/lib/extraction/ocr/common';
import { estimateSkew } from '@/lib/extraction/ocr/deskew';
import { imageSizes } from '@/lib/extraction/ocr/dimensions';
import { jpegExifOrientation } from '@/lib/extraction/ocr/exif';
import { heifImageSizes, isHeif } from '@/lib/extraction/ocr/heif';
import { decodeWithCanvas, encodeGreyPng, orientRaster, rotateRaster, type GreyRaster } from '@/lib/extraction/ocr/raster';
import { parseOsdScript } from '@/lib/extraction/ocr/tesseract-cli';
import { decodeTiffPage } from '@/lib/extraction/ocr/tiff-decode';
import { ExtractionError } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { canvasOf, turned, withExifOrientation } from '@/test/support/ocr-images';

const fx = (relative: string) => fs.readFileSync(path.join(FIXTURES_DIR, relative));

// 3 wide, 2 high:  a b c
//                  d e f
const small: GreyRaster = { width: 3, height: 2, grey: Uint8Array.from([1, 2, 3, 4, 5, 6]) };
const rows = (r: GreyRaster) => Array.from({ length: r.height }, (_, y) => [...r.grey.subarray(y * r.width, (y + 1) * r.width)]);

describe('rasters', () => {
  it('turns clockwise and applies EXIF orientations', () => {
    expect(rows(rotateRaster(small, 90))).toEqual([[4, 1], [5, 2], [6, 3]]);
    expect(rows(rotateRaster(small, 180))).toEqual([[6, 5, 4], [3, 2, 1]]);
    expect(rows(rotateRaster(small, 270))).toEqual([[3, 6], [2, 5], [1, 4]]);
    expect(rotateRaster(small, 360)).toBe(small);
    expect(rows(orientRaster(small, 2))).toEqual([[3, 2, 1], [6, 5, 4]]);
    expect(rows(orientRaster(small, 4))).toEqual([[4, 5, 6], [1, 2, 3]]);
    expect(rows(orientRaster(small, 5))).toEqual([[1, 4], [2, 5], [3, 6]]);
    expect(rows(orientRaster(small, 7))).toEqual([[6, 3], [5, 2], [4, 1]]);
  });

  it('writes grey PNGs that decoders read back', async () => {
    const page = await decodeWithCanvas(encodeGreyPng(small));
    expect(page).toEqual(small);
  });

  it('decodes bilevel TIFF pages to grey with black text on white', () => {
    const page = decodeTiffPage(fx('ocr/phototest.tif'), 0);
    expect([page.width, page.height]).toEqual([640, 480]);
    const dark = page.grey.filter((v) => v < 128).length;
    expect(dark / page.grey.length).toBeGreaterThan(0.02);
    expect(dark / page.grey.length).toBeLessThan(0.2);
    expect(() => decodeTiffPage(Buffer.from('II*\0\x08\0\0\0\0\0', 'latin1'), 0)).toThrow(ExtractionError);
  });
});

describe('skew', () => {
  it('finds the angle of a page scanned askew, and none on straight or sideways pages', async () => {
    const page = await canvasOf(fx('ocr/phototest.tif'));
    for (const degrees of [-4, -2, 3, 5]) {
      const raster = await decodeWithCanvas(await turned(page, degrees).encode('png'));
      expect(Math.abs(estimateSkew(raster) - degrees), String(degrees)).toBeLessThanOrEqual(0.25);
    }
    for (const degrees of [0, 90, 180]) {
      expect(estimateSkew(await decodeWithCanvas(await turned(page, degrees).encode('png'))), String(degrees)).toBe(0);
    }
    expect(estimateSkew({ width: 100, height: 100, grey: new Uint8Array(10_000).fill(255) })).toBe(0);
  });
});

describe('formats', () => {
  it('reads the EXIF orientation of a JPEG', async () => {
    const jpeg = fx('ocr-more/chi_sim_image.jpeg');
    expect(jpegExifOrientation(jpeg)).toBe(1);
    for (const o of [3, 6, 8]) expect(jpegExifOrientation(withExifOrientation(jpeg, o))).toBe(o);
  });

  it('recognises HEIC by its ftyp brands and reads its sizes from ispe', () => {
    const heic = fx('ocr-more/DA-1p.heic');
    expect(isHeif(heic)).toBe(true);
    expect(sniffImageFormat(heic.subarray(0, 64))).toBe('heif');
    // The coded image is 596 wide; its clean aperture, shown, 595.
    expect(heifImageSizes(heic)).toEqual([{ width: 596, height: 842 }]);
    expect(imageSizes(heic, 'heif')).toEqual([{ width: 596, height: 842 }]);
    const avif = Buffer.from('\0\0\0\x1cftypavif\0\0\0\0avifmif1miaf', 'latin1');
    expect(isHeif(avif)).toBe(false);
    expect(() => heifImageSizes(heic.subarray(0, 200))).toThrow(ExtractionError);
  });

  it('takes a tied OSD script (confidence 0) and knows the vertical models', () => {
    expect(parseOsdScript('Orientation in degrees: 0\nScript: Han\nScript confidence: 0.00\n')).toBe('Han');
    expect(verticalLanguages('ja')).toEqual(['jpn_vert']);
    expect(verticalLanguages('Han')).toContain('chi_sim_vert');
    expect(verticalLanguages('ko')).toEqual([]);
    expect(verticalLanguages(undefined)).toEqual([]);
  });
});
