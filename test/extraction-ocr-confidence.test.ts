/**
 * What OCR gives when it is unsure, and what it reads beyond the contract's languages: a blank
 * page completes empty, a short line completes with its text and its confidence in
 * `metadata.ocr` however low that is, a page with ink that nothing can be read from fails with
 * OCR_FAILED, Arabic is read when asked for with `ar`, and a language whose data is missing fails
 * naming the installed ones. Pages are drawn here with @napi-rs/canvas (Skia shapes Arabic).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCanvas, GlobalFonts, type Canvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractionOptionsSchema } from '@/lib/api/schemas/extractions';
import { extractDocument } from '@/lib/extraction/engine';
import { MIN_MEAN_CONFIDENCE } from '@/lib/extraction/ocr/common';
import type { OcrMetadata } from '@/lib/extraction/ocr/image';
import { OCR_LANGUAGE_CODES } from '@/lib/extraction/ocr/languages';
import { probeTesseractCli, resetTesseractCliProbe } from '@/lib/extraction/ocr/tesseract-cli';
import { findProgram } from '@/lib/extraction/programs';
import { ExtractionError, type ExtractInput, type ExtractResult, type OcrLanguage } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { characterErrorRate, scannedPdf } from '@/test/support/ocr-images';
import { imageOnlyPdf } from '@/test/support/scanned';
import { rgbaToGrey } from '@/lib/extraction/ocr/raster';

GlobalFonts.registerFromPath('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', 'ConfidenceSans');

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-ocr-confidence-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const MIME: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.pdf': 'application/pdf' };

/** Extracts a file as the worker does (engine by type, OCR service per task), in normal mode. */
function extract(file: string, language?: string): Promise<ExtractResult> {
  const tmpDir = fs.mkdtempSync(path.join(tmp, 'task-'));
  const input: ExtractInput = {
    path: file,
    mimeType: MIME[path.extname(file)],
    extension: path.extname(file),
    mode: 'normal',
    // The API's schema types language as the contract's four (see lib/api/schemas/extractions.ts).
    options: { language: language as OcrLanguage | undefined, ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: () => {},
    signal: new AbortController().signal,
    maxPages: 10,
    tmpDir,
  };
  return extractDocument(input);
}

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExtractionError);
  return err as ExtractionError;
}

const ocrOf = (result: ExtractResult) => result.metadata.ocr as OcrMetadata;
const textOf = (markdown: string) => markdown.replace(/<!-- page \d+ -->/g, '').trim();

/** A white page with one line of text (DejaVu Sans), as a scanner or a phone would give it. */
function line(text: string, options: { width?: number; px?: number; rtl?: boolean } = {}): Canvas {
  const { width = 600, px = 28, rtl = false } = options;
  const canvas = createCanvas(width, 80);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, 80);
  ctx.fillStyle = '#000';
  ctx.font = `${px}px ConfidenceSans`;
  if (rtl) {
    ctx.direction = 'rtl';
    ctx.textAlign = 'right';
    ctx.fillText(text, width - 30, 52);
  } else {
    ctx.fillText(text, 10, 50);
  }
  return canvas;
}

/** Salt-and-pepper noise on `share` (per mille) of the pixels, from a fixed seed: the same page every run. */
function speckled(canvas: Canvas, perMille: number, seed: number): Canvas {
  const ctx = canvas.getContext('2d');
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  let r = seed;
  for (let i = 0; i < image.data.length; i += 4) {
    r = (r * 1103515245 + 12345) & 0x7fffffff;
    if (r % 1000 < perMille) image.data[i] = image.data[i + 1] = image.data[i + 2] = (r >> 8) & 1 ? 0 : 255;
  }
  ctx.putImageData(image, 0, 0);
  return canvas;
}

async function png(name: string, canvas: Canvas): Promise<string> {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, await canvas.encode('png'));
  return file;
}

describe('a blank scan', () => {
  it('completes with no text, its page marked blank in metadata.ocr', async () => {
    const canvas = createCanvas(1240, 1754);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    const result = await extract(await png('blank.png', canvas));
    expect(result.totalPages).toBe(1);
    expect(result.markdown).toBe('<!-- page 1 -->\n');
    expect(textOf(result.markdown)).toBe('');
    expect(ocrOf(result).pages).toEqual([expect.objectContaining({ page: 1, words: 0, confidence: 0, blank: true })]);
  }, 60_000);

  it('as a page of a scanned PDF completes too, and an inked page nothing is read from still fails', async () => {
    const white = createCanvas(850, 1100);
    const wctx = white.getContext('2d');
    wctx.fillStyle = '#fff';
    wctx.fillRect(0, 0, white.width, white.height);
    const pdf = path.join(tmp, 'blank-scan.pdf');
    fs.writeFileSync(pdf, scannedPdf(await white.encode('jpeg', 90), white.width, white.height, 100));
    const result = await extract(pdf);
    expect(result.totalPages).toBe(1);
    expect(textOf(result.markdown)).toBe('');

    // Vertical manga read with no language: ink, but not one word (jpn_vert needs `ja`).
    const err = await failure(extract(path.join(FIXTURES_DIR, 'ocr/manga_09.jpg')));
    expect(err.code).toBe('OCR_FAILED');
    expect(err.message).toBe('No text was found in the image');
  }, 120_000);
});

describe('a one-line scan', () => {
  it('completes with its text and the confidence of each page', async () => {
    const result = await extract(await png('line.png', line('Total 42.00')));
    expect(textOf(result.markdown)).toBe('Total 42.00');
    const ocr = ocrOf(result);
    expect(ocr.engine).toBe('tesseract-cli');
    expect(ocr.pages).toHaveLength(1);
    expect(ocr.pages[0]).toMatchObject({ page: 1, words: 2, languages: ['eng'] });
    expect(ocr.pages[0].confidence).toBeGreaterThan(90);
    expect(ocr.pages[0].blank).toBeUndefined();
  }, 60_000);

  it('completes with its text when the engine is unsure of it (a speckled copy), its low confidence in metadata.ocr', async () => {
    // 8 % of the pixels turned black or white: Tesseract reads the line with a stray word or two
    // and a mean confidence of about 43, which used to fail the whole image with OCR_FAILED.
    const result = await extract(await png('line-speckled.png', speckled(line('Total 42.00'), 80, 2)));
    expect(textOf(result.markdown)).toContain('Total 42.00');
    const [page] = ocrOf(result).pages;
    expect(page.words).toBeGreaterThanOrEqual(2);
    expect(page.confidence).toBeGreaterThan(0);
    expect(page.confidence).toBeLessThan(MIN_MEAN_CONFIDENCE);
  }, 60_000);

  it("as the page of a scanned PDF completes with its text too, its confidence in the PDF's metadata.ocr (a reading under 50 is kept as well: extraction-pdf.test.ts)", async () => {
    const canvas = speckled(line('Total 42.00'), 80, 2);
    const pdf = path.join(tmp, 'line-speckled.pdf');
    // Every pixel kept (Flate, not JPEG, whose smoothing takes the speckles away).
    const grey = rgbaToGrey(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height);
    fs.writeFileSync(pdf, imageOnlyPdf([grey], 150));
    const result = await extract(pdf);
    expect(textOf(result.markdown)).toContain('Total 42.00');
    const [page] = ocrOf(result).pages;
    expect(page).toMatchObject({ page: 1, languages: ['eng'] });
    expect(page.words).toBeGreaterThanOrEqual(2);
    expect(page.confidence).toBeGreaterThan(0);
  }, 60_000);
});

describe('languages beyond the contract', () => {
  const ARABIC = 'مرحبا بالعالم';

  it('are accepted by the API schema, the contract values unchanged, others refused with the list', () => {
    for (const language of ['zh', 'en', 'ja', 'ko', 'ar', 'he', 'zh-Hant', 'chi_sim', 'jpn_vert', 'heb']) {
      expect(extractionOptionsSchema.parse({ language }).language, language).toBe(language);
    }
    expect(extractionOptionsSchema.parse({})).toEqual({ ocr_provider: 'default', extract_tables: true, preserve_layout: false });
    expect(OCR_LANGUAGE_CODES.slice(0, 4)).toEqual(['zh', 'en', 'ja', 'ko']);
    for (const language of ['fr', 'ZH', 'arabic', 'osd', '']) {
      const parsed = extractionOptionsSchema.safeParse({ language });
      expect(parsed.success, language).toBe(false);
      expect(parsed.error?.issues[0].message).toMatch(/^language must be one of: zh, en, ja, ko, ar, he, .*jpn_vert/);
    }
  });

  it('read an Arabic line with language "ar"', async () => {
    const file = await png('arabic.png', line(ARABIC, { rtl: true, px: 40 }));
    const result = await extract(file, 'ar');
    expect(characterErrorRate(result.markdown, ARABIC)).toBeLessThanOrEqual(0.1);
    expect(ocrOf(result).pages[0].languages).toContain('ara');
    // Without it the line is too short for script detection and reads as Latin garbage.
    const guessed = await extract(file);
    expect(textOf(guessed.markdown)).not.toMatch(/[\u0600-\u06ff]/);
  }, 60_000);

  it('fail with OCR_FAILED naming the installed languages when the data is missing', async () => {
    const real = findProgram('tesseract');
    expect(real, 'tesseract is installed').not.toBeNull();
    // A tesseract without Arabic data: the real one, its language list without ara.
    const fake = path.join(tmp, 'tesseract-no-ara');
    fs.writeFileSync(
      fake,
      `#!/bin/sh\nif [ "$1" = "--list-langs" ]; then "${real}" --list-langs | grep -vx ara; exit 0; fi\nexec "${real}" "$@"\n`,
      { mode: 0o755 },
    );
    const saved = process.env.QUARRY_TESSERACT_BIN;
    process.env.QUARRY_TESSERACT_BIN = fake;
    resetTesseractCliProbe();
    try {
      expect((await probeTesseractCli())?.languages.has('ara')).toBe(false);
      const err = await failure(extract(await png('arabic-missing.png', line(ARABIC, { rtl: true, px: 40 })), 'ar'));
      expect(err.code).toBe('OCR_FAILED');
      expect(err.message).toContain('OCR language data "ara" (for language ar) is not installed for tesseract-cli');
      expect(err.message).toMatch(/languages it can read: zh, en, ja, ko, he, zh-Hans, zh-Hant \(Tesseract data: .*chi_sim.*heb.*\)/);
    } finally {
      if (saved === undefined) delete process.env.QUARRY_TESSERACT_BIN;
      else process.env.QUARRY_TESSERACT_BIN = saved;
      resetTesseractCliProbe();
    }
  }, 60_000);
});
