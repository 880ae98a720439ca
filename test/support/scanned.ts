/**
 * Scans of generated documents: each page of a PDF rendered to grey pixels by poppler's pdftoppm
 * (what a scanner would give, without the text layer), and an image-only PDF of them at the
 * same page sizes (encodeGreyPng makes a scan a PNG file).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GreyRaster } from '@/lib/extraction/ocr/raster';
import { buildPdf } from '@/lib/extraction/pdf/run/writer';

/** A binary PGM (P5, 8 bits) as a grey raster. */
export function parsePgm(bytes: Buffer): GreyRaster {
  const header = /^P5\s+(?:#.*\s+)*(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 200).toString('latin1'));
  if (!header || header[3] !== '255') throw new Error('not an 8-bit binary PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  return { width, height, grey: new Uint8Array(bytes.subarray(start, start + width * height)) };
}

/** Every page of `pdf` rendered grey at `dpi` (pdftoppm), top to bottom. */
export function scanPages(pdf: Uint8Array, dpi: number): GreyRaster[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-scan-'));
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-gray', '-r', String(dpi), file, path.join(dir, 'page')], { timeout: 120_000 });
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.pgm'))
      .sort((a, b) => Number(/(\d+)\.pgm$/.exec(a)![1]) - Number(/(\d+)\.pgm$/.exec(b)![1]))
      .map((f) => parsePgm(fs.readFileSync(path.join(dir, f))));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An image-only PDF of the scanned pages, each page the size of the original (`dpi` the scans' resolution). */
export function imageOnlyPdf(pages: GreyRaster[], dpi: number): Uint8Array {
  return buildPdf(
    pages.map((raster) => {
      const width = (raster.width * 72) / dpi;
      const height = (raster.height * 72) / dpi;
      return { width, height, image: { x: 0, y: 0, w: width, h: height, grey: { width: raster.width, height: raster.height, pixels: raster.grey } } };
    }),
  );
}
