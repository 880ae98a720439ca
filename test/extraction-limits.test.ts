/**
 * Resource limits of extractions: every external program runs under the worker's memory cap
 * and the task's time (lib/extraction/programs.ts), and images are measured against the pixel
 * budget before anything decodes them (lib/extraction/ocr/dimensions.ts), with real programs
 * (tesseract, pdftoppm, sh, sleep, cat) on files made here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { extractionLimits, withExtractionLimits, type ExtractionLimits } from '@/lib/extraction/limits';
import { imageSizes, jpegSize } from '@/lib/extraction/ocr/dimensions';
import { extractImage } from '@/lib/extraction/engine';
import { createOcrService, probeTesseractCli } from '@/lib/extraction/ocr';
import { renderPdfPageWithPdfjs, renderPdfPageWithPoppler } from '@/lib/extraction/ocr/render';
import { runProgram, watchPrograms } from '@/lib/extraction/programs';
import { ExtractionError, type ExtractInput } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { blankPng, bmpHeader, gifHeader, jpegHeader, tiffPages, webpHeader } from '@/test/support/hostile-images';
import { buildPdf } from '@/test/support/pdf-fixture';
import { isAlive, processInfo, sampleMemory, waitFor } from '@/test/support/processes';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-limits-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const limits = (overrides: Partial<ExtractionLimits> = {}): ExtractionLimits => ({
  memoryMb: 2048,
  deadline: Date.now() + 60_000,
  maxImagePixels: 100_000_000,
  ...overrides,
});

async function rejection(promise: Promise<unknown>): Promise<ExtractionError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExtractionError);
  return err as ExtractionError;
}

/** Runs `fn` and reports the pid of every program it started, with its memory peaks. */
async function watched<T>(fn: () => Promise<T>) {
  const started: number[] = [];
  const samplers = new Map<number, ReturnType<typeof sampleMemory>>();
  const unwatch = watchPrograms((pid, running) => {
    if (running) {
      started.push(pid);
      samplers.set(pid, sampleMemory(pid, 2));
    }
  });
  try {
    const outcome = await fn().then(
      (value) => ({ value, error: null }),
      (error: unknown) => ({ value: null, error }),
    );
    return { ...outcome, started, peaks: [...samplers.values()].map((s) => s.stop()) };
  } finally {
    unwatch();
  }
}

function write(name: string, bytes: Buffer): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  return file;
}

function imageInput(file: string, mimeType: string): ExtractInput {
  return {
    path: file,
    mimeType,
    extension: path.extname(file),
    mode: 'normal',
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: () => {},
    signal: new AbortController().signal,
    maxPages: 100,
    tmpDir: fs.mkdtempSync(path.join(tmp, 'task-')),
  };
}

describe('programs run under the task limits', () => {
  it('get the memory cap as address-space limit and at most the time left as CPU limit', async () => {
    const readLimits = async () => (await runProgram('cat', ['/proc/self/limits'])).stdout.toString('utf8');
    const soft = (text: string, name: string) => Number(new RegExp(`^${name}\\s+(\\d+)`, 'm').exec(text)?.[1]);
    const inTask = await withExtractionLimits(limits({ memoryMb: 300, deadline: Date.now() + 20_000 }), readLimits);
    expect(soft(inTask, 'Max address space')).toBe(300 * 1024 * 1024);
    expect(soft(inTask, 'Max cpu time')).toBeGreaterThanOrEqual(19);
    expect(soft(inTask, 'Max cpu time')).toBeLessThanOrEqual(20);
    // Outside a task: the configured cap and time limit.
    const { memoryMb, timeoutMs } = getConfig().extraction;
    const outside = await readLimits();
    expect(soft(outside, 'Max address space')).toBe(memoryMb * 1024 * 1024);
    expect(soft(outside, 'Max cpu time')).toBeLessThanOrEqual(timeoutMs / 1000);
  });

  it('stop a program over the memory cap with RESOURCE_LIMIT_EXCEEDED; it never exceeds the cap', async () => {
    // 9000 × 9000 white pixels: tesseract needs about 390 MB of address space for it.
    const image = write('blank-81mp.png', await blankPng(9000, 9000));
    const args = [image, 'stdout', '-l', 'eng', '--psm', '3'];
    const capped = await watched(() => withExtractionLimits(limits({ memoryMb: 150 }), () => runProgram('tesseract', args)));
    expect(capped.error).toBeInstanceOf(ExtractionError);
    expect(capped.error).toMatchObject({ code: 'RESOURCE_LIMIT_EXCEEDED' });
    expect((capped.error as Error).message).toMatch(/tesseract needed more than the limit of 150 MB/);
    expect(capped.started).toHaveLength(1);
    expect(capped.peaks[0].samples).toBeGreaterThan(0);
    expect(capped.peaks[0].virtualMb).toBeLessThanOrEqual(150);
    expect(capped.peaks[0].residentMb).toBeLessThanOrEqual(150);
    // The same run under the default cap finishes, and needed more than the small cap allowed.
    const free = await watched(() => withExtractionLimits(limits(), () => runProgram('tesseract', args)));
    expect(free.error).toBeNull();
    expect(free.value!.code).toBe(0);
    expect(free.peaks[0].virtualMb).toBeGreaterThan(150);
  }, 60_000);

  it('stop a program at the task deadline with EXTRACTION_TIMEOUT and leave nothing running', async () => {
    const started = performance.now();
    const run = await watched(() => withExtractionLimits(limits({ deadline: Date.now() + 500 }), () => runProgram('sleep', ['30'])));
    expect(run.error).toMatchObject({ code: 'EXTRACTION_TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await waitFor(() => !isAlive(run.started[0]), 2000)).toBe(true);
  });

  it('kill the program and everything it started when the task is cancelled', async () => {
    const pidFile = path.join(tmp, 'grandchild.pid');
    const controller = new AbortController();
    const running = runProgram('sh', ['-c', `sleep 60 & echo $! > '${pidFile}'; wait`], { signal: controller.signal });
    expect(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', 5000)).toBe(true);
    const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(await waitFor(() => processInfo(grandchild)?.comm === 'sleep', 2000)).toBe(true);
    const info = processInfo(grandchild)!;
    // The program leads a process group of its own, which its children share.
    const leader = processInfo(info.ppid)!;
    expect(leader.pgrp).toBe(leader.pid);
    expect(info.pgrp).toBe(leader.pid);
    controller.abort();
    expect((await rejection(running)).code).toBe('CANCELLED');
    expect(await waitFor(() => !isAlive(grandchild) && !isAlive(leader.pid), 2000)).toBe(true);
  });

  it('report a missing program as such', async () => {
    await expect(runProgram('quarry-no-such-program', [])).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('image dimensions are read from headers', () => {
  it('match what a decoder reads for the fixtures', async () => {
    for (const [file, format] of [
      ['ocr/chinese_traditional.png', 'png'],
      ['ocr/manga_09.jpg', 'jpeg'],
      ['ocr/webp-test.webp', 'webp'],
      ['ocr-more/chi_sim_image.jpeg', 'jpeg'],
    ] as const) {
      const bytes = fs.readFileSync(path.join(FIXTURES_DIR, file));
      const decoded = await loadImage(bytes);
      expect(imageSizes(bytes, format), file).toEqual([{ width: decoded.width, height: decoded.height }]);
    }
  });

  it('read every frame header kind of JPEG, every TIFF image, and the other formats', () => {
    expect(jpegSize(jpegHeader(40_000, 30_000, 0xc9))).toEqual({ width: 40_000, height: 30_000 });
    expect(jpegSize(jpegHeader(640, 480, 0xc3))).toEqual({ width: 640, height: 480 });
    expect(imageSizes(tiffPages([{ width: 20, height: 10 }, { width: 64, height: 32, thumbnail: true }, { width: 50_000, height: 40_000 }]), 'tiff')).toEqual([
      { width: 20, height: 10 },
      { width: 64, height: 32 },
      { width: 50_000, height: 40_000 },
    ]);
    expect(imageSizes(webpHeader(16_000, 12_000), 'webp')).toEqual([{ width: 16_000, height: 12_000 }]);
    expect(imageSizes(bmpHeader(30_000, 20_000), 'bmp')).toEqual([{ width: 30_000, height: 20_000 }]);
    expect(imageSizes(gifHeader(65_535, 65_535), 'gif')).toEqual([{ width: 65_535, height: 65_535 }]);
  });
});

describe('the pixel budget', () => {
  it('refuses images over it before decoding, in every format, without starting a program', async () => {
    const hostile: [string, string, Buffer][] = [
      ['bomb.png', 'image/png', await blankPng(20_000, 20_000)],
      ['arith.jpg', 'image/jpeg', jpegHeader(40_000, 30_000)],
      ['pages.tif', 'image/tiff', tiffPages([{ width: 100, height: 100 }, { width: 50_000, height: 40_000 }])],
      ['canvas.webp', 'image/webp', webpHeader(16_000, 12_000)],
      ['huge.bmp', 'image/bmp', bmpHeader(30_000, 20_000)],
    ];
    expect(hostile[0][2].length).toBeLessThan(2_000_000);
    // Checked once per process; done now so its programs are not counted below.
    expect(await probeTesseractCli()).not.toBeNull();
    for (const [name, mime, bytes] of hostile) {
      const file = write(name, bytes);
      const ocr = createOcrService({ ocr_provider: 'default', extract_tables: true, preserve_layout: false }, path.join(tmp, 'ocr'));
      const started = performance.now();
      const run = await watched(() => extractImage(imageInput(file, mime), ocr));
      await ocr.close();
      expect(run.error, name).toMatchObject({ code: 'RESOURCE_LIMIT_EXCEEDED' });
      expect((run.error as Error).message, name).toMatch(/\d+ × \d+ pixels \([\d,.]+ megapixels\); at most 100 megapixels \(100,000,000 pixels\)/);
      expect(performance.now() - started, name).toBeLessThan(1500);
      expect(run.started, name).toEqual([]);
    }
  }, 60_000);

  it('names the dimensions and follows the task budget', async () => {
    const file = write('phototest.tif', fs.readFileSync(path.join(FIXTURES_DIR, 'ocr/phototest.tif')));
    const [{ width, height }] = imageSizes(fs.readFileSync(file), 'tiff');
    const ocr = createOcrService({ ocr_provider: 'default', extract_tables: true, preserve_layout: false }, path.join(tmp, 'ocr'));
    try {
      const err = await rejection(withExtractionLimits(limits({ maxImagePixels: 100_000 }), () => extractImage(imageInput(file, 'image/tiff'), ocr)));
      expect(err.code).toBe('RESOURCE_LIMIT_EXCEEDED');
      expect(err.message).toContain(`The image is ${width} × ${height} pixels`);
      expect(err.message).toContain('at most 0.1 megapixels (100,000 pixels)');
      // Within the budget the same file reads as before.
      const result = await withExtractionLimits(limits(), () => extractImage(imageInput(file, 'image/tiff'), ocr));
      expect(result.markdown).toContain('quick brown dog');
    } finally {
      await ocr.close();
    }
  }, 60_000);

  it('renders PDF pages for OCR within it, and only the visible (crop) box', async () => {
    const a4 = path.join(FIXTURES_DIR, 'pdf/ocr_test.pdf');
    const small = limits({ maxImagePixels: 2_000_000 });
    for (const render of [renderPdfPageWithPoppler, renderPdfPageWithPdfjs]) {
      const page = await withExtractionLimits(small, () => render(a4, 1, tmp, new AbortController().signal));
      const image = await loadImage(fs.readFileSync(page.path));
      expect(image.width * image.height).toBeLessThanOrEqual(2_000_000);
      expect(image.width * image.height).toBeGreaterThan(1_500_000);
      expect(page.dpi).toBeLessThan(150);
    }
    // A page that shows 200 × 200 pt of a 14400 × 14400 pt media box: 300 dpi is 834 pixels a side,
    // where the whole media box would be 60000.
    const poster = write('poster.pdf', Buffer.from(buildPdf([{ width: 14_400, height: 14_400, crop: { w: 200, h: 200 }, texts: [{ x: 20, y: 100, text: 'Hello' }] }])));
    const page = await renderPdfPageWithPoppler(poster, 1, tmp, new AbortController().signal);
    const image = await loadImage(fs.readFileSync(page.path));
    expect(page.dpi).toBe(300);
    expect(Math.abs(image.width - 834)).toBeLessThanOrEqual(1);
    expect(Math.abs(image.height - 834)).toBeLessThanOrEqual(1);
  }, 60_000);

  it('is QUARRY_MAX_IMAGE_PIXELS outside a task, 100 megapixels by default', () => {
    expect(extractionLimits().maxImagePixels).toBe(getConfig().extraction.maxImagePixels);
    if (!process.env.QUARRY_MAX_IMAGE_PIXELS) expect(getConfig().extraction.maxImagePixels).toBe(100_000_000);
  });
});
