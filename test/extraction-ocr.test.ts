/**
 * OCR: both Tesseract engines (native CLI and tesseract.js) on the shared fixtures, PDF page
 * rendering (poppler and pdfjs), multi-page TIFF, the engine choice, cancellation, and the cloud
 * client against a real HTTP server on 127.0.0.1.
 *
 * Measured on this machine (2 cores), native tesseract 5.3.0 / tesseract.js 7.0.0:
 *   phototest.tif (en)           similarity 1.000 / 1.000
 *   webp-test.webp               1.000 / 1.000
 *   ocr_test.pdf page 1          1.000 / 1.000
 *   chinese_traditional.png (zh) 0.333 / 0.333: "繁体中文测试"; with only Simplified Chinese
 *                                data 體/測/試 come out as 体/测/试, and the reference keeps
 *                                Tesseract's spaces between the characters, which the engines'
 *                                output rightly drops. With apt tesseract-ocr-chi-tra installed
 *                                the CLI reads "繁體中文測試" (0.667; 1.000 ignoring spaces).
 *   manga_09.jpg (ja, vertical)  CLI with jpn_vert: "すこだま , ツルし昧っていろ" (furigana mixed in);
 *                                tesseract.js (no vertical data): OCR_FAILED.
 * The seconds per page are printed at the end of the run.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textSimilarity } from '@/lib/extraction/quality';
import { ExtractionError, type ExtractInput, type ExtractionOptions, type OcrLanguage } from '@/lib/extraction/types';
import { cloudOcrConfigured, createCloudOcrEngine, parseCloudAnswer } from '@/lib/extraction/ocr/cloud';
import { MIN_MEAN_CONFIDENCE, normalizeOcrText, sniffImageFormat, tidyCjkSpacing } from '@/lib/extraction/ocr/common';
import { extractImage } from '@/lib/extraction/engine';
import { ocrPageBlocks } from '@/lib/extraction/ocr/image';
import { renderMarkdown } from '@/lib/document/render';
import { createOcrService } from '@/lib/extraction/ocr';
import {
  chooseRender,
  chooseRenderDpi,
  parsePdfimagesList,
  parsePdfinfoPageSize,
  PdfPageRenderer,
  popplerAvailable,
  popplerPageDpi,
  renderPdfPageWithPdfjs,
  renderPdfPageWithPoppler,
} from '@/lib/extraction/ocr/render';
import {
  createTesseractCliEngine,
  parseOsdScript,
  parseTesseractTsv,
  probeTesseractCli,
  resetTesseractCliProbe,
} from '@/lib/extraction/ocr/tesseract-cli';
import { createTesseractJsEngine, tesseractJsDataFile, tesseractJsLanguages } from '@/lib/extraction/ocr/tesseract-js';
import { tiffPage, tiffPageCount } from '@/lib/extraction/ocr/tiff';
import type { OcrService } from '@/lib/extraction/ocr/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { greyTiff } from '@/test/support/tiff';

const run = promisify(execFile);
const fx = (relative: string) => path.join(FIXTURES_DIR, relative);
const ref = (relative: string) => fs.readFileSync(fx(relative), 'utf8');
const live = () => new AbortController().signal;

let tmp: string;
const timings: string[] = [];

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-ocr-test-'));
});
afterAll(() => {
  if (timings.length) console.info(`OCR seconds per page:\n  ${timings.join('\n  ')}`);
  fs.rmSync(tmp, { recursive: true, force: true });
});

function scratch(name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function imageInput(file: string, language?: OcrLanguage, extra: Partial<ExtractInput> = {}): ExtractInput & { progress: [number, number][] } {
  const progress: [number, number][] = [];
  const ext = path.extname(file).toLowerCase();
  const mime: Record<string, string> = {
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.tif': 'image/tiff',
    '.tiff': 'image/tiff',
    '.webp': 'image/webp',
    '.bmp': 'image/bmp',
  };
  return {
    path: file,
    mimeType: mime[ext] ?? 'application/octet-stream',
    extension: ext,
    mode: 'normal',
    options: { language, ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: (done, total) => progress.push([done, total]),
    signal: live(),
    maxPages: 100,
    tmpDir: scratch(`task-${Math.random().toString(36).slice(2)}`),
    progress,
    ...extra,
  };
}

async function timed<T>(label: string, pages: number, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  timings.push(`${label}: ${((performance.now() - start) / 1000 / pages).toFixed(2)} s`);
  return result;
}

async function rejection(promise: Promise<unknown>): Promise<ExtractionError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ExtractionError);
    return err as ExtractionError;
  }
  throw new Error('expected a rejection');
}

// --- synthetic images ------------------------------------------------------------------------

GlobalFonts.registerFromPath('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', 'TestSans');

/** Grey pixels of a white page with black text lines (DejaVu Sans, or the default font). */
function textPage(lines: string[], width = 1400, lineHeight = 70): { width: number; height: number; grey: Uint8Array } {
  const height = lineHeight * (lines.length + 2);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000';
  ctx.font = '40px TestSans';
  lines.forEach((line, i) => ctx.fillText(line, 60, lineHeight * (i + 1.5)));
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4];
  return { width, height, grey };
}

/** A 24-bit BMP of grey pixels. */
function greyBmp({ width, height, grey }: { width: number; height: number; grey: Uint8Array }): Buffer {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const buf = Buffer.alloc(54 + rowSize * height);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  buf.writeUInt32LE(rowSize * height, 34);
  for (let y = 0; y < height; y++) {
    const row = 54 + (height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const v = grey[y * width + x];
      buf[row + x * 3] = v;
      buf[row + x * 3 + 1] = v;
      buf[row + x * 3 + 2] = v;
    }
  }
  return buf;
}

const PANGRAM = ['The quick brown fox jumps over the lazy dog.', 'Pack my box with five dozen liquor jugs.'];

// --- pure helpers -----------------------------------------------------------------------------

describe('OCR helpers', () => {
  it('parses Tesseract TSV into paragraphs, lines and the mean word confidence', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t640\t480\t-1\t',
      '4\t1\t1\t1\t1\t0\t36\t92\t544\t30\t-1\t',
      '5\t1\t1\t1\t1\t1\t36\t92\t60\t24\t90\t Hello',
      '5\t1\t1\t1\t1\t2\t36\t92\t60\t24\t80\tworld',
      '5\t1\t1\t1\t2\t1\t36\t92\t60\t24\t70\tsecond',
      '5\t1\t1\t1\t2\t2\t36\t92\t60\t24\t-1\t ',
      '5\t1\t2\t1\t1\t1\t36\t92\t60\t24\t60\t中',
      '5\t1\t2\t1\t1\t2\t36\t92\t60\t24\t40\t文',
    ].join('\n');
    expect(parseTesseractTsv(tsv)).toEqual({
      text: 'Hello world\nsecond\n\n中文',
      meanConfidence: 68,
      words: 5,
      // Positions come from the line rows (level 4), as fractions of the page (level 1).
      lines: [{ chars: 10, group: 0, box: [36 / 640, 92 / 480, 580 / 640, 122 / 480] }],
      // Every word with its box (level 5) and its line, numbered across the page; no empty ones.
      size: { width: 640, height: 480 },
      wordBoxes: [
        ['Hello', 0, 90],
        ['world', 0, 80],
        ['second', 1, 70],
        ['中', 2, 60],
        ['文', 2, 40],
      ].map(([text, line, confidence]) => ({ text, line, confidence, box: [36 / 640, 92 / 480, 96 / 640, 116 / 480] })),
    });
    expect(parseTesseractTsv('')).toEqual({ text: '', meanConfidence: 0, words: 0 });
  });

  it('keeps Tesseract text layout, drops spaces between CJK characters but not Hangul words', () => {
    expect(normalizeOcrText('  a  b \nc\n\n\n\nd\fe\n')).toBe('a b\nc\n\nd\n\ne');
    expect(tidyCjkSpacing('繁体 中 文 测试 and 日本 語')).toBe('繁体中文测试 and 日本語');
    expect(tidyCjkSpacing('대한민국 헌법')).toBe('대한민국 헌법');
  });

  it('reads the OSD script', () => {
    expect(parseOsdScript('Page number: 0\nOrientation in degrees: 0\nScript: Han\nScript confidence: 3.2\n')).toBe('Han');
    expect(parseOsdScript('Too few characters. Skipping this page\n')).toBeNull();
  });

  it('recognises image formats by content only', () => {
    expect(sniffImageFormat(fs.readFileSync(fx('ocr/phototest.tif')))).toBe('tiff');
    expect(sniffImageFormat(fs.readFileSync(fx('ocr/manga_09.jpg')))).toBe('jpeg');
    expect(sniffImageFormat(fs.readFileSync(fx('ocr/webp-test.webp')))).toBe('webp');
    expect(sniffImageFormat(fs.readFileSync(fx('ocr/chinese_traditional.png')))).toBe('png');
    expect(sniffImageFormat(Buffer.from('/etc/passwd\n'))).toBeNull();
  });

  it('escapes OCR lines that would become Markdown structure or HTML', () => {
    const written = (text: string) => renderMarkdown({ version: 1, metadata: {}, blocks: ocrPageBlocks({ text, words: 1, meanConfidence: 90 }, 1) }).trimEnd();
    expect(written('# not a heading')).toBe('\\# not a heading');
    expect(written('<!-- page 9 -->')).toBe('\\<!-- page 9 -->');
    expect(written('---')).toBe('\\---');
    expect(written('a < b & c')).toBe('a < b & c');
    expect(written('one\ntwo\n\n> three')).toBe('one\ntwo\n\n\\> three');
  });

  it('chooses the render dpi from the scan resolution', () => {
    const a4 = [595.2, 841.9] as const;
    const scan = (ppi: number) => ({ width: 100, height: 100, ppi, area: a4[0] * a4[1] });
    expect(chooseRenderDpi([scan(300)], ...a4)).toBe(300);
    expect(chooseRenderDpi([scan(200)], ...a4)).toBe(200);
    expect(chooseRenderDpi([scan(600)], ...a4)).toBe(300);
    expect(chooseRenderDpi([scan(1200)], ...a4)).toBe(400);
    // Coarse scans are rendered at a whole multiple of their resolution, 200 dpi or more.
    expect(chooseRenderDpi([scan(150)], ...a4)).toBe(300);
    expect(chooseRenderDpi([scan(72)], ...a4)).toBe(216);
    // ... and say so, for a second reading at the scan's own resolution when the finer one reads badly.
    expect(chooseRender([scan(150)], ...a4)).toEqual({ dpi: 300, scanDpi: 150 });
    expect(chooseRender([scan(300)], ...a4)).toEqual({ dpi: 300 });
    expect(chooseRenderDpi([], ...a4)).toBe(300);
    // A small logo does not decide the page's resolution.
    expect(chooseRenderDpi([{ width: 50, height: 50, ppi: 72, area: 5000 }], ...a4)).toBe(300);
    // A poster-sized page is rendered within the pixel budget.
    expect(chooseRenderDpi([], 72 * 100, 72 * 100)).toBeLessThan(100);
  });

  it('parses pdfimages and pdfinfo output', () => {
    const list = [
      'page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio',
      '--------------------------------------------------------------------------------------------',
      '   1     0 image    4960  7016  gray    1   8  image  yes        9  0   600   600 89.7K 0.3%',
      '   1     1 smask    4960  7016  gray    1   8  image  yes       10  0   600   600 89.7K 0.3%',
      '   2     2 image     100   100  rgb     3   8  jpeg   no        12  0    72    72 1K 1%',
    ].join('\n');
    expect(parsePdfimagesList(list, 1)).toEqual([{ width: 4960, height: 7016, ppi: 600, area: expect.closeTo(595.2 * 842, -2) }]);
    expect(parsePdfimagesList(list, 3)).toEqual([]);
    expect(parsePdfinfoPageSize('Pages: 3\nPage    2 size: 612 x 792 pts (letter)\n', 2)).toEqual({ width: 612, height: 792 });
  });

  it('splits a multi-page TIFF into pages, leaving out reduced-resolution copies', () => {
    const page = textPage(['one']);
    const tiff = greyTiff([page, { ...page, thumbnail: true }, page]);
    expect(tiffPageCount(tiff)).toBe(2);
    expect(tiffPageCount(fs.readFileSync(fx('ocr/phototest.tif')))).toBe(1);
    expect(tiffPageCount(tiffPage(tiff, 1))).toBe(1);
    expect(() => tiffPageCount(Buffer.from('II*\0\xff\xff\xff\x7f', 'latin1'))).toThrow(ExtractionError);
  });

  it('validates the cloud answer', () => {
    expect(parseCloudAnswer('{"text":"Hello  world\\r\\nagain","confidence":120}')).toEqual({ text: 'Hello  world\nagain', words: 3, meanConfidence: 100 });
    expect(parseCloudAnswer('{"text":"","confidence":50}')).toEqual({ text: '', words: 0, meanConfidence: 0 });
    expect(() => parseCloudAnswer('{"text":1}')).toThrow(/text/);
    expect(() => parseCloudAnswer('nope')).toThrow(/JSON/);
  });
});

// --- the two Tesseract engines ----------------------------------------------------------------

const ENGINES: { name: string; make: (dir: string) => OcrService }[] = [
  { name: 'tesseract-cli', make: (dir) => createTesseractCliEngine(dir) },
  { name: 'tesseract.js', make: (dir) => createTesseractJsEngine(dir) },
];

describe('system tools', () => {
  it('has tesseract (eng, chi_sim, jpn, kor) and poppler installed', async () => {
    const info = await probeTesseractCli();
    expect(info, 'tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng ...)').not.toBeNull();
    for (const lang of ['eng', 'chi_sim', 'jpn', 'kor']) expect(info!.languages.has(lang), lang).toBe(true);
    expect(await popplerAvailable(), 'poppler-utils is not installed').toBe(true);
    expect([...tesseractJsLanguages()].sort()).toEqual(['chi_sim', 'eng', 'jpn', 'kor']);
    expect(tesseractJsDataFile('eng')).toMatch(/@tesseract\.js-data\/eng\/4\.0\.0\/eng\.traineddata\.gz$/);
    expect(tesseractJsDataFile('../x')).toBeNull();
  });
});

describe.each(ENGINES)('$name engine', ({ name, make }) => {
  let ocr: OcrService;
  beforeAll(() => {
    ocr = make(scratch(`engine-${name}`));
  });
  afterAll(async () => {
    await ocr.close();
  });

  it('reads phototest.tif (English) nearly perfectly', async () => {
    const input = imageInput(fx('ocr/phototest.tif'), 'en');
    const result = await timed(`${name} phototest.tif (first page, includes engine start)`, 1, () => extractImage(input, ocr));
    expect(ocr.engine).toBe(name);
    expect(result.totalPages).toBe(1);
    // The OCR's own account of the page (beyond the contract's metadata fields).
    expect(result.metadata).toEqual({ ocr: { engine: name, pages: [expect.objectContaining({ page: 1, words: expect.any(Number) })] } });
    expect(result.markdown.startsWith('<!-- page 1 -->\n\n')).toBe(true);
    expect(textSimilarity(result.markdown, ref('ocr/phototest.txt'))).toBeGreaterThan(0.95);
    // Two paragraphs, as in the image.
    expect(result.markdown).toMatch(/of file format\.\n\nThe quick brown dog/);
    expect(input.progress).toEqual([
      [0, 1],
      [1, 1],
    ]);
    const again = await timed(`${name} phototest.tif (warm)`, 1, () => ocr.recognizeImage(fx('ocr/phototest.tif'), undefined, live()));
    expect(again.meanConfidence).toBeGreaterThan(85);
    expect(again.words).toBe(60);
  }, 120_000);

  it('reads the WebP sample', async () => {
    const result = await timed(`${name} webp-test.webp (2000x2829)`, 1, () => extractImage(imageInput(fx('ocr/webp-test.webp')), ocr));
    expect(textSimilarity(result.markdown, ref('ocr/webp-test.md'))).toBeGreaterThan(0.95);
  }, 60_000);

  it('reads a BMP', async () => {
    const file = path.join(tmp, `${name}-pangram.bmp`);
    fs.writeFileSync(file, greyBmp(textPage(PANGRAM)));
    const result = await extractImage(imageInput(file, 'en'), ocr);
    expect(textSimilarity(result.markdown, PANGRAM.join('\n'))).toBeGreaterThan(0.9);
  }, 60_000);

  it('reads Traditional Chinese with Simplified data as far as it can (zh)', async () => {
    const out = await ocr.recognizeImage(fx('ocr/chinese_traditional.png'), 'zh', live());
    // 繁體中文測試 -> 繁体中文测试: 繁, 中, 文 exact, the others in their simplified forms.
    expect(out.text).toContain('中文');
    expect(out.text).not.toMatch(/[A-Za-z]/);
    expect(out.meanConfidence).toBeGreaterThanOrEqual(MIN_MEAN_CONFIDENCE);
    const similarity = textSimilarity(out.text, ref('ocr/chinese_traditional.txt'));
    const ignoringSpaces = textSimilarity(out.text.replace(/\s/g, ''), ref('ocr/chinese_traditional.txt').replace(/\s/g, ''));
    timings.push(`${name} chinese_traditional.png similarity ${similarity.toFixed(3)} (${ignoringSpaces.toFixed(3)} ignoring spaces): ${out.text}`);
    expect(ignoringSpaces).toBeGreaterThanOrEqual(0.5);
  }, 60_000);

  it('reads vertical Japanese manga only with the vertical model (ja)', async () => {
    const pending = extractImage(imageInput(fx('ocr/manga_09.jpg'), 'ja'), ocr);
    if (name === 'tesseract-cli') {
      // jpn_vert, tried when the horizontal reading finds nothing: part of 少し黙っている.
      expect((await pending).markdown).toMatch(/っていろ|っている/);
      return;
    }
    // tesseract.js has no vertical data: it fails honestly.
    const err = await rejection(pending);
    expect(err.code).toBe('OCR_FAILED');
    expect(err.message).toMatch(/No text was found|could not be read reliably/);
  }, 60_000);

  it('reads the scanned PDF page at its embedded resolution', async () => {
    const out = await timed(`${name} ocr_test.pdf page 1 (600 ppi scan, rendered at 300 dpi)`, 1, () =>
      ocr.recognizePdfPage(fx('pdf/ocr_test.pdf'), 1, undefined, live()),
    );
    expect(textSimilarity(out.text, ref('pdf/ocr_test.md'))).toBeGreaterThan(0.95);
    expect(out.meanConfidence).toBeGreaterThan(85);
  }, 60_000);

  it('reads a multi-page TIFF page by page with page markers', async () => {
    const file = path.join(tmp, `${name}-pages.tif`);
    const second = ['Quarry reads every page of a TIFF file.', 'Each page gets its own marker.'];
    const blank = { width: 400, height: 300, grey: new Uint8Array(400 * 300).fill(255) };
    fs.writeFileSync(file, greyTiff([textPage(PANGRAM), { ...textPage(['thumb']), thumbnail: true }, textPage(second), blank]));
    const input = imageInput(file, 'en');
    const result = await timed(`${name} 3-page TIFF`, 3, () => extractImage(input, ocr));
    expect(result.totalPages).toBe(3);
    const parts = result.markdown.split(/<!-- page \d+ -->/);
    expect(result.markdown.match(/<!-- page \d+ -->/g)).toEqual(['<!-- page 1 -->', '<!-- page 2 -->', '<!-- page 3 -->']);
    expect(textSimilarity(parts[1], PANGRAM.join('\n'))).toBeGreaterThan(0.9);
    expect(textSimilarity(parts[2], second.join('\n'))).toBeGreaterThan(0.9);
    expect(parts[3].trim()).toBe('');
    expect(input.progress).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(fs.readdirSync(input.tmpDir).filter((f) => f.endsWith('.tif'))).toEqual([]);
  }, 120_000);

  it('refuses TIFFs with more pages than allowed', async () => {
    const file = path.join(tmp, `${name}-many.tif`);
    const page = textPage(['x']);
    fs.writeFileSync(file, greyTiff([page, page, page]));
    const err = await rejection(extractImage(imageInput(file, 'en', { maxPages: 2 }), ocr));
    expect(err.code).toBe('TOO_MANY_PAGES');
  });

  it('refuses a file that is not an image (tesseract would read it as a list of paths)', async () => {
    const file = path.join(tmp, `${name}-paths.png`);
    fs.writeFileSync(file, `${fx('ocr/phototest.tif')}\n`);
    expect((await rejection(extractImage(imageInput(file), ocr))).code).toBe('CORRUPT_DOCUMENT');
    const truncated = path.join(tmp, `${name}-truncated.webp`);
    fs.writeFileSync(truncated, fs.readFileSync(fx('ocr/webp-test.webp')).subarray(0, 3000));
    expect((await rejection(ocr.recognizeImage(truncated, undefined, live()))).code).toBe('CORRUPT_DOCUMENT');
  }, 60_000);

  it('stops when the signal aborts and keeps working afterwards', async () => {
    const controller = new AbortController();
    const pending = ocr.recognizeImage(fx('ocr/webp-test.webp'), 'en', controller.signal);
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, 150);
    const err = await rejection(pending);
    expect(err.code).toBe('CANCELLED');
    // Well before the recognition (or a worker start) would have finished.
    expect(performance.now() - abortedAt).toBeLessThan(500);
    const after = await ocr.recognizeImage(fx('ocr/phototest.tif'), 'en', live());
    expect(after.words).toBe(60);
  }, 60_000);
});

describe('native engine specifics', () => {
  // No CJK font is installed on the machine; a Korean web font that the Rust toolchain's docs
  // carry is used when it is there.
  const hangulFont = (() => {
    const root = path.join(os.homedir(), '.rustup', 'toolchains');
    for (const toolchain of fs.existsSync(root) ? fs.readdirSync(root) : []) {
      const dir = path.join(root, toolchain, 'share/doc/rust/html/static.files');
      const font = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => /^NanumBarunGothic-.*\.woff2$/.test(f)) : undefined;
      if (font) return path.join(dir, font);
    }
    return undefined;
  })();
  it.skipIf(!hangulFont)('detects Hangul with OSD when no language is given and reads it as Korean', async () => {
    GlobalFonts.registerFromPath(hangulFont!, 'TestHangul');
    const lines = ['이 문서는 OCR 테스트를 위한 예시입니다.', '서울특별시는 대한민국의 수도이며 인구가 많다.'];
    const canvas = createCanvas(1400, 300);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, 1400, 300);
    ctx.fillStyle = '#000';
    ctx.font = '40px TestHangul';
    lines.forEach((l, i) => ctx.fillText(l, 40, 100 + i * 90));
    const file = path.join(tmp, 'hangul.png');
    fs.writeFileSync(file, await canvas.encode('png'));
    const ocr = createTesseractCliEngine(scratch('osd'));
    const out = await ocr.recognizeImage(file, undefined, live());
    expect(out.meanConfidence).toBeGreaterThan(80);
    expect(out.text).toMatch(/[\uac00-\ud7a3]{4}/);
    expect(textSimilarity(out.text, lines.join('\n'))).toBeGreaterThan(0.6);
    await ocr.close();
  }, 60_000);

  it('kills the tesseract process on abort', async () => {
    const ocr = createTesseractCliEngine(scratch('kill'));
    const controller = new AbortController();
    const pending = ocr.recognizeImage(fx('ocr/webp-test.webp'), 'en', controller.signal);
    // Children of this process named tesseract, from /proc/<pid>/stat ("pid (comm) state ppid ...").
    const tesseractChildren = () =>
      fs
        .readdirSync('/proc')
        .filter((d) => /^\d+$/.test(d))
        .map((d) => {
          try {
            return fs.readFileSync(`/proc/${d}/stat`, 'utf8');
          } catch {
            return '';
          }
        })
        .map((stat) => /^(\d+) \((.*)\) (\S) (\d+)/.exec(stat))
        .filter((m) => m !== null && m[2] === 'tesseract' && m[3] !== 'Z' && m[4] === String(process.pid))
        .map((m) => m![1]);
    // The image is decoded and straightened first: wait until tesseract itself runs.
    for (let i = 0; i < 200 && tesseractChildren().length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(tesseractChildren().length).toBe(1);
    controller.abort();
    expect((await rejection(pending)).code).toBe('CANCELLED');
    expect(tesseractChildren()).toEqual([]);
    await ocr.close();
  });
});

describe('PDF page rendering', () => {
  it('poppler renders the 600 ppi scan at 300 dpi', async () => {
    expect(await popplerPageDpi(fx('pdf/ocr_test.pdf'), 1, live())).toBe(300);
    const page = await renderPdfPageWithPoppler(fx('pdf/ocr_test.pdf'), 1, scratch('poppler'), live());
    expect(page.dpi).toBe(300);
    const image = await loadImage(fs.readFileSync(page.path));
    expect(Math.abs(image.width - 2480)).toBeLessThanOrEqual(1);
    expect(Math.abs(image.height - 3508)).toBeLessThanOrEqual(1);
  });

  it('pdfjs + @napi-rs/canvas renders the same page when poppler is missing, and OCR reads it', async () => {
    const dir = scratch('pdfjs');
    const page = await timed('pdfjs render of ocr_test.pdf page 1', 1, () => renderPdfPageWithPdfjs(fx('pdf/ocr_test.pdf'), 1, dir, live()));
    expect(page.dpi).toBe(300);
    const image = await loadImage(fs.readFileSync(page.path));
    expect(Math.abs(image.width - 2480)).toBeLessThanOrEqual(1);
    // The service path with poppler switched off: the document stays open between pages.
    const ocr = createTesseractCliEngine(dir, { renderer: new PdfPageRenderer(dir, false) });
    for (let i = 0; i < 2; i++) {
      const out = await ocr.recognizePdfPage(fx('pdf/ocr_test.pdf'), 1, 'en', live());
      expect(textSimilarity(out.text, ref('pdf/ocr_test.md'))).toBeGreaterThan(0.95);
    }
    await ocr.close();
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('ocr-page-') && f !== path.basename(page.path))).toEqual([]);
  }, 60_000);

  it('reports a page beyond the end as OCR_FAILED', async () => {
    expect((await rejection(renderPdfPageWithPdfjs(fx('pdf/ocr_test.pdf'), 5, scratch('pdfjs-end'), live()))).code).toBe('OCR_FAILED');
    expect((await rejection(renderPdfPageWithPoppler(fx('pdf/ocr_test.pdf'), 5, scratch('poppler-end'), live(), 300))).code).toBe('OCR_FAILED');
  });
});

// --- engine choice ----------------------------------------------------------------------------

describe('createOcrService', () => {
  const options = (ocr_provider: ExtractionOptions['ocr_provider']): ExtractionOptions => ({
    ocr_provider,
    extract_tables: true,
    preserve_layout: false,
  });

  it('uses the native tesseract for default and tesseract', async () => {
    for (const provider of ['default', 'tesseract'] as const) {
      const ocr = createOcrService(options(provider), scratch(`choice-${provider}`));
      const out = await ocr.recognizeImage(fx('ocr/phototest.tif'), 'en', live());
      expect(ocr.engine).toBe('tesseract-cli');
      expect(out.words).toBe(60);
      await ocr.close();
    }
  });

  it('falls back to tesseract.js when the tesseract program is missing', async () => {
    const saved = process.env.QUARRY_TESSERACT_BIN;
    process.env.QUARRY_TESSERACT_BIN = path.join(tmp, 'no-such-tesseract');
    resetTesseractCliProbe();
    const ocr = createOcrService(options('default'), scratch('choice-fallback'));
    try {
      const out = await ocr.recognizeImage(fx('ocr/phototest.tif'), 'en', live());
      expect(ocr.engine).toBe('tesseract.js');
      expect(out.words).toBe(60);
      const page = await ocr.recognizePdfPage(fx('pdf/ocr_test.pdf'), 1, 'en', live());
      expect(textSimilarity(page.text, ref('pdf/ocr_test.md'))).toBeGreaterThan(0.95);
    } finally {
      await ocr.close();
      if (saved === undefined) delete process.env.QUARRY_TESSERACT_BIN;
      else process.env.QUARRY_TESSERACT_BIN = saved;
      resetTesseractCliProbe();
    }
  }, 60_000);

  it('uses the cloud client for cloud', () => {
    expect(createOcrService(options('cloud'), scratch('choice-cloud')).engine).toBe('cloud');
  });
});

describe('tesseract.js stays offline', () => {
  it('recognises with the network blocked in the process and its worker threads', async () => {
    const dir = scratch('offline');
    const blocker = path.join(dir, 'block-network.cjs');
    fs.writeFileSync(
      blocker,
      `const net = require('node:net');
const tls = require('node:tls');
const dns = require('node:dns');
const report = (what) => { process.stderr.write('NETWORK ATTEMPT ' + what + '\\n'); throw new Error('network blocked'); };
const connect = net.Socket.prototype.connect;
// Local IPC (a path, as tsx's loader uses) passes; anything with a host or port is refused.
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const ipc = typeof first === 'string' ? !/^\\d+$/.test(first) : first && typeof first === 'object' && 'path' in first && first.path;
  if (!ipc) report('connect ' + JSON.stringify(first));
  return connect.apply(this, args);
};
tls.connect = () => report('tls');
dns.lookup = () => report('dns');
globalThis.fetch = async (url) => report('fetch ' + url);
`,
    );
    const script = path.join(dir, 'run.mts');
    fs.writeFileSync(
      script,
      `import { createTesseractJsEngine } from ${JSON.stringify(path.resolve('lib/extraction/ocr/tesseract-js.ts'))};
const ocr = createTesseractJsEngine(${JSON.stringify(dir)});
const out = await ocr.recognizeImage(${JSON.stringify(fx('ocr/phototest.tif'))}, 'zh', new AbortController().signal);
await ocr.close();
console.log(JSON.stringify(out));
`,
    );
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, NODE_OPTIONS: `--require ${blocker}` },
      cwd: process.cwd(),
      timeout: 90_000,
    });
    expect(stderr).not.toMatch(/NETWORK ATTEMPT/);
    // The blocker does see a worker thread's request.
    const control = path.join(dir, 'control.cjs');
    fs.writeFileSync(
      control,
      `const { Worker } = require('node:worker_threads');
new Worker("fetch('http://127.0.0.1:9/').catch(() => {}); require('node:net').connect(9, '127.0.0.1').on('error', () => {});", { eval: true });`,
    );
    const controlRun = await run(process.execPath, [control], { env: { ...process.env, NODE_OPTIONS: `--require ${blocker}` } }).catch(
      (e: { stderr: string }) => e,
    );
    expect(controlRun.stderr).toMatch(/NETWORK ATTEMPT fetch/);
    expect(controlRun.stderr).toMatch(/NETWORK ATTEMPT connect/);
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out.words).toBeGreaterThan(50);
    expect(fs.lstatSync(path.join(dir, 'tesseract.js-lang', 'chi_sim.traineddata.gz')).isSymbolicLink()).toBe(true);
  }, 120_000);
});

// --- cloud ------------------------------------------------------------------------------------

describe('cloud OCR client', () => {
  let server: http.Server;
  let base: string;
  const seen: { path: string; method: string; type?: string; auth?: string; bytes: number }[] = [];
  let expectedBytes: Buffer;

  beforeAll(async () => {
    expectedBytes = fs.readFileSync(fx('ocr/phototest.tif'));
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        seen.push({ path: req.url ?? '', method: req.method ?? '', type: req.headers['content-type'], auth: req.headers.authorization, bytes: body.length });
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        switch (req.url) {
          case '/ocr':
            if (req.headers['content-type'] === 'image/tiff' && !body.equals(expectedBytes)) return json(400, { error: 'body differs' });
            return json(200, { text: 'Hello from the cloud\n\nSecond paragraph', confidence: 91.5 });
          case '/error':
            return json(500, { error: 'boom' });
          case '/redirect':
            res.writeHead(302, { location: `${base}/ocr` });
            return res.end();
          case '/garbage':
            res.writeHead(200, { 'content-type': 'text/plain' });
            return res.end('not json');
          case '/empty':
            return json(200, { text: '', confidence: 0 });
          case '/slow':
            return; // never answers
          default:
            return json(404, {});
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('posts the image bytes with their type and the bearer token, and reads the answer', async () => {
    const ocr = createCloudOcrEngine(scratch('cloud'), { url: `${base}/ocr`, token: 'secret-token' });
    seen.length = 0;
    const out = await ocr.recognizeImage(fx('ocr/phototest.tif'), 'en', live());
    expect(out).toEqual({ text: 'Hello from the cloud\n\nSecond paragraph', meanConfidence: 91.5, words: 6 });
    expect(seen).toEqual([{ path: '/ocr', method: 'POST', type: 'image/tiff', auth: 'Bearer secret-token', bytes: expectedBytes.length }]);
    const result = await extractImage(imageInput(fx('ocr/phototest.tif')), ocr);
    expect(result.markdown).toBe('<!-- page 1 -->\n\nHello from the cloud\n\nSecond paragraph\n');
    await ocr.close();
  });

  it('sends a rendered PDF page as PNG', async () => {
    const ocr = createCloudOcrEngine(scratch('cloud-pdf'), { url: `${base}/ocr` });
    seen.length = 0;
    const out = await ocr.recognizePdfPage(fx('pdf/ocr_test.pdf'), 1, undefined, live());
    expect(out.words).toBe(6);
    expect(seen).toMatchObject([{ type: 'image/png', auth: undefined }]);
    expect(seen[0].bytes).toBeGreaterThan(10_000);
    await ocr.close();
  });

  it('fails with OCR_FAILED on errors, redirects, bad answers and timeouts', async () => {
    const fail = async (url: string, timeoutMs?: number) => {
      const ocr = createCloudOcrEngine(scratch('cloud-fail'), { url: `${base}${url}`, token: 'secret-token', timeoutMs });
      const err = await rejection(ocr.recognizeImage(fx('ocr/phototest.tif'), undefined, live()));
      expect(err.code).toBe('OCR_FAILED');
      expect(err.message).not.toContain('secret-token');
      return err.message;
    };
    expect(await fail('/error')).toMatch(/HTTP 500/);
    seen.length = 0;
    expect(await fail('/redirect')).toMatch(/redirect/);
    expect(seen.map((s) => s.path)).toEqual(['/redirect']);
    expect(await fail('/garbage')).toMatch(/not JSON/);
    expect(await fail('/slow', 300)).toMatch(/no answer within/);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = createCloudOcrEngine(scratch('cloud-down'), { url: `http://127.0.0.1:${port}/ocr` });
    expect((await rejection(unreachable.recognizeImage(fx('ocr/phototest.tif'), undefined, live()))).message).toMatch(/could not be reached/);
    const empty = createCloudOcrEngine(scratch('cloud-empty'), { url: `${base}/empty` });
    expect((await rejection(extractImage(imageInput(fx('ocr/phototest.tif')), empty))).message).toMatch(/No text/);
  });

  it('is cancelled by the task signal', async () => {
    const ocr = createCloudOcrEngine(scratch('cloud-cancel'), { url: `${base}/slow` });
    const controller = new AbortController();
    const pending = ocr.recognizeImage(fx('ocr/phototest.tif'), undefined, controller.signal);
    setTimeout(() => controller.abort(), 100);
    expect((await rejection(pending)).code).toBe('CANCELLED');
  });

  it('is configured by QUARRY_OCR_CLOUD_URL, and says so clearly when it is not', async () => {
    const saved = { url: process.env.QUARRY_OCR_CLOUD_URL, token: process.env.QUARRY_OCR_CLOUD_TOKEN };
    try {
      delete process.env.QUARRY_OCR_CLOUD_URL;
      expect(cloudOcrConfigured()).toBe(false);
      const unconfigured = createOcrService({ ocr_provider: 'cloud', extract_tables: true, preserve_layout: false }, scratch('cloud-none'));
      const err = await rejection(unconfigured.recognizeImage(fx('ocr/phototest.tif'), undefined, live()));
      expect(err.code).toBe('OCR_FAILED');
      expect(err.message).toMatch(/not configured/);
      process.env.QUARRY_OCR_CLOUD_URL = 'ftp://example.invalid/';
      expect(cloudOcrConfigured()).toBe(false);
      process.env.QUARRY_OCR_CLOUD_URL = `${base}/ocr`;
      process.env.QUARRY_OCR_CLOUD_TOKEN = 'env-token';
      expect(cloudOcrConfigured()).toBe(true);
      seen.length = 0;
      const ocr = createOcrService({ ocr_provider: 'cloud', extract_tables: true, preserve_layout: false }, scratch('cloud-env'));
      expect((await ocr.recognizeImage(fx('ocr/phototest.tif'), undefined, live())).words).toBe(6);
      expect(seen[0].auth).toBe('Bearer env-token');
    } finally {
      if (saved.url === undefined) delete process.env.QUARRY_OCR_CLOUD_URL;
      else process.env.QUARRY_OCR_CLOUD_URL = saved.url;
      if (saved.token === undefined) delete process.env.QUARRY_OCR_CLOUD_TOKEN;
      else process.env.QUARRY_OCR_CLOUD_TOKEN = saved.token;
    }
  });
});
