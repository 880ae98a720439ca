/**
 * OCR of real pages whatever their orientation, of every TIFF variant, of HEIC photos, of
 * vertical Japanese and of right-to-left scripts, with both Tesseract engines. Turned copies are
 * made here with @napi-rs/canvas from the fixtures; TIFF variants with libtiff's tiffcp.
 * Readings are judged by character error rate (CER) against the fixtures' true text; the CERs and
 * the cost of the native orientation pass are printed at the end of the run.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCanvas, GlobalFonts, loadImage, type Canvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withExtractionLimits } from '@/lib/extraction/limits';
import { extractImage } from '@/lib/extraction/engine';
import { prepareImage } from '@/lib/extraction/ocr/prepare';
import { renderPdfPageWithPdfjs, renderPdfPageWithPoppler } from '@/lib/extraction/ocr/render';
import { createTesseractCliEngine, probeTesseractCli } from '@/lib/extraction/ocr/tesseract-cli';
import { createTesseractJsEngine } from '@/lib/extraction/ocr/tesseract-js';
import { createOcrService } from '@/lib/extraction/ocr';
import { ExtractionWorkerPool } from '@/lib/extraction/pool';
import { runProgram } from '@/lib/extraction/programs';
import { ExtractionError, type ExtractInput, type OcrLanguage } from '@/lib/extraction/types';
import type { OcrService } from '@/lib/extraction/ocr/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { canvasOf, characterErrorRate, scannedPdf, turned, withExifOrientation } from '@/test/support/ocr-images';

const run = promisify(execFile);
const fx = (relative: string) => path.join(FIXTURES_DIR, relative);
const PHOTOTEST = fs.readFileSync(fx('ocr/phototest.txt'), 'utf8');
const OCR_TEST = fs.readFileSync(fx('pdf/ocr_test.md'), 'utf8');
const live = () => new AbortController().signal;
const report: string[] = [];

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-orientation-'));
});
afterAll(() => {
  if (report.length) console.info(`Orientation and formats:\n  ${report.join('\n  ')}`);
  fs.rmSync(tmp, { recursive: true, force: true });
});

function input(file: string, mimeType: string, language?: OcrLanguage): ExtractInput {
  const tmpDir = path.join(tmp, `task-${Math.random().toString(36).slice(2)}`);
  return {
    path: file,
    mimeType,
    extension: path.extname(file),
    mode: 'normal',
    options: { language, ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: () => {},
    signal: live(),
    maxPages: 100,
    tmpDir,
  };
}

async function writePng(name: string, canvas: Canvas): Promise<string> {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, await canvas.encode('png'));
  return file;
}

const ENGINES: { name: string; make: (dir: string) => OcrService }[] = [
  { name: 'tesseract-cli', make: (dir) => createTesseractCliEngine(dir) },
  { name: 'tesseract.js', make: (dir) => createTesseractJsEngine(dir) },
];

describe.each(ENGINES)('$name reads pages upright', ({ name, make }) => {
  let ocr: OcrService;
  beforeAll(() => {
    ocr = make(path.join(tmp, `engine-${name}`));
  });
  afterAll(() => ocr.close());

  it.each([0, 90, 180, 270, 3, 4, -3])('phototest.tif turned by %i°', async (degrees) => {
    const file = await writePng(`${name}-phototest-${degrees}.png`, turned(await canvasOf(fs.readFileSync(fx('ocr/phototest.tif'))), degrees));
    const result = await extractImage(input(file, 'image/png'), ocr);
    const cer = characterErrorRate(result.markdown, PHOTOTEST);
    report.push(`${name} phototest ${degrees}°: CER ${(cer * 100).toFixed(2)} %`);
    expect(cer).toBeLessThanOrEqual(0.03);
  }, 60_000);

  it.each([
    { degrees: 90, how: 'scanned sideways' },
    { degrees: 180, how: 'scanned sideways' },
    { degrees: 270, how: 'scanned sideways' },
    { degrees: 90, how: '/Rotate' },
    { degrees: 180, how: '/Rotate' },
    { degrees: 270, how: '/Rotate' },
  ])('the scanned page of ocr_test.pdf turned by $degrees° ($how)', async ({ degrees, how }) => {
    // The scan at 150 ppi, as a grey render of the fixture's page.
    const rendered = path.join(tmp, `${name}-ocr-test-${degrees}-${how.length}`);
    await run('pdftoppm', ['-r', '150', '-gray', '-png', '-singlefile', fx('pdf/ocr_test.pdf'), rendered]);
    const page = await canvasOf(fs.readFileSync(`${rendered}.png`));
    const image = how === '/Rotate' ? page : turned(page, degrees);
    const jpeg = await image.encode('jpeg', 90);
    // /Rotate N shows the page turned N° clockwise: the reader must turn it back.
    const pdf = path.join(tmp, `${name}-ocr-test-${degrees}-${how.length}.pdf`);
    fs.writeFileSync(pdf, scannedPdf(jpeg, image.width, image.height, 150, how === '/Rotate' ? degrees : 0));
    const out = await ocr.recognizePdfPage(pdf, 1, undefined, live());
    const cer = characterErrorRate(out.text, OCR_TEST);
    report.push(`${name} ocr_test.pdf ${degrees}° (${how}): CER ${(cer * 100).toFixed(2)} %`);
    expect(cer).toBeLessThanOrEqual(0.03);
  }, 60_000);

  it('reads the /Rotate 90 fixture page upright', async () => {
    const out = await ocr.recognizePdfPage(fx('ocr-more/rotated-page-90.pdf'), 1, 'en', live());
    expect(characterErrorRate(out.text, 'Hello World Test Text\n\nSecond line of text here\n\nRotated page fixture')).toBeLessThanOrEqual(0.03);
  }, 60_000);

  it('reads every TIFF variant like the uncompressed original', async () => {
    const original = fx('ocr/phototest.tif');
    const twin = (await extractImage(input(original, 'image/tiff'), ocr)).markdown;
    const variants: Record<string, string[]> = {
      'g4': ['-c', 'g4'],
      'g4-big-endian': ['-B', '-c', 'g4'],
      'g4-tiled': ['-B', '-c', 'g4', '-t', '-w', '256', '-l', '256'],
      'g4-lsb-fill-order': ['-c', 'g4', '-f', 'lsb2msb'],
      'g3-2d': ['-c', 'g3:2d'],
      'lzw-big-endian': ['-B', '-c', 'lzw'],
      'packbits': ['-c', 'packbits'],
      'deflate': ['-c', 'zip'],
    };
    for (const [label, args] of Object.entries(variants)) {
      const file = path.join(tmp, `${name}-${label}.tif`);
      await run('tiffcp', [...args, original, file]);
      const markdown = (await extractImage(input(file, 'image/tiff'), ocr)).markdown;
      expect(markdown, label).toBe(twin);
    }
    // Two pages of different variants, big-endian.
    const multi = path.join(tmp, `${name}-multi.tif`);
    await run('tiffcp', ['-B', '-c', 'g4', original, path.join(tmp, `${name}-packbits.tif`), multi]);
    const result = await extractImage(input(multi, 'image/tiff'), ocr);
    expect(result.totalPages).toBe(2);
    expect(result.markdown).toBe(`${twin.trimEnd()}\n\n${twin.replace('<!-- page 1 -->', '<!-- page 2 -->')}`);
  }, 120_000);

  it('reads the HEIC photo', async () => {
    const result = await extractImage(input(fx('ocr-more/DA-1p.heic'), 'image/heic'), ocr);
    expect(result.markdown).toMatch(/Abomination/);
    expect(result.markdown).toMatch(/We arrived in the dead of night/);
  }, 60_000);

  it('reads GIF and WebP', async () => {
    const page = await canvasOf(fs.readFileSync(fx('ocr/phototest.tif')));
    for (const [mime, format] of [['image/gif', 'gif'], ['image/webp', 'webp']] as const) {
      const file = path.join(tmp, `${name}-phototest.${format}`);
      fs.writeFileSync(file, await page.encode(format as 'webp'));
      expect(characterErrorRate((await extractImage(input(file, mime), ocr)).markdown, PHOTOTEST), format).toBeLessThanOrEqual(0.03);
    }
  }, 60_000);
});

describe('image decoding', () => {
  it('renders a /Rotate 90 page turned, with poppler and with pdf.js, as viewers show it', async () => {
    const fixture = fx('ocr-more/rotated-page-90.pdf');
    fs.mkdirSync(path.join(tmp, 'rotate-render'), { recursive: true });
    for (const render of [renderPdfPageWithPoppler, renderPdfPageWithPdfjs]) {
      const page = await render(fixture, 1, path.join(tmp, 'rotate-render'), live(), 100);
      const image = await loadImage(fs.readFileSync(page.path));
      // A4 portrait in its media box; landscape once turned.
      expect(image.width, render.name).toBeGreaterThan(image.height);
    }
  });

  it('turns a JPEG by its EXIF orientation before OCR', async () => {
    const page = await canvasOf(fs.readFileSync(fx('ocr/phototest.tif')));
    // Stored turned 90° counter-clockwise; orientation 6 says "turn 90° clockwise to show".
    const stored = turned(page, 270);
    const file = path.join(tmp, 'exif-6.jpg');
    fs.writeFileSync(file, withExifOrientation(await stored.encode('jpeg', 95), 6));
    const prepared = await prepareImage(file, new Set(['jpeg', 'png']), path.join(tmp, 'exif'));
    expect(prepared.path).not.toBe(file);
    const upright = await loadImage(fs.readFileSync(prepared.path));
    expect([upright.width, upright.height]).toEqual([page.width, page.height]);
    await prepared.release();
    expect(fs.existsSync(prepared.path)).toBe(false);
  });

  it('checks the HEIC pixel budget from its ispe box, before decoding', async () => {
    const limits = { memoryMb: 2048, deadline: Date.now() + 60_000, maxImagePixels: 500_000 };
    const ocr = createTesseractCliEngine(path.join(tmp, 'heic-budget'));
    const err = await withExtractionLimits(limits, () => extractImage(input(fx('ocr-more/DA-1p.heic'), 'image/heic'), ocr)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect((err as ExtractionError).code).toBe('RESOURCE_LIMIT_EXCEEDED');
    expect((err as ExtractionError).message).toMatch(/59[56] × 842/);
    await ocr.close();
  });
});

describe('in an extraction worker process', () => {
  it('reads a page upside down and a tiled G4 TIFF (the bundled worker loads utif2 and OSD)', async () => {
    const pool = new ExtractionWorkerPool();
    try {
      const upsideDown = await writePng('pool-180.png', turned(await canvasOf(fs.readFileSync(fx('ocr/phototest.tif'))), 180));
      const tiled = path.join(tmp, 'pool-tiled.tif');
      await run('tiffcp', ['-B', '-c', 'g4', '-t', '-w', '256', '-l', '256', fx('ocr/phototest.tif'), tiled]);
      for (const [file, mimeType] of [[upsideDown, 'image/png'], [tiled, 'image/tiff']]) {
        const { path: filePath, extension, mode, options, maxPages, tmpDir } = input(file, mimeType, 'en');
        const result = await pool.run({
          input: { path: filePath, mimeType, extension, mode, options, maxPages, tmpDir },
          onProgress: () => {},
          signal: live(),
          limits: { timeoutMs: 120_000, memoryMb: 1024 },
        });
        expect(characterErrorRate(result.markdown, PHOTOTEST), mimeType).toBeLessThanOrEqual(0.03);
      }
    } finally {
      await pool.close();
    }
  }, 180_000);
});

describe('every image in ocr-more', () => {
  const images = fs.readdirSync(fx('ocr-more')).filter((f) => /\.(png|jpe?g|heic|heif|gif|webp|bmp|tiff?)$/i.test(f));
  it.each(images)('%s extracts text (default engine, no language)', async (file) => {
    const ocr = createOcrService({ ocr_provider: 'default', extract_tables: true, preserve_layout: false }, path.join(tmp, `more-${file}`));
    try {
      const result = await extractImage(input(fx(`ocr-more/${file}`), 'application/octet-stream'), ocr);
      const text = result.markdown.replace(/<!-- page \d+ -->/g, '').trim();
      report.push(`ocr-more/${file}: ${text.length} characters, "${text.slice(0, 40).replace(/\n/g, ' ')}…"`);
      expect(text.length).toBeGreaterThan(20);
    } finally {
      await ocr.close();
    }
  }, 120_000);
});

describe('vertical Japanese (native engine)', () => {
  it('reads the vertical fixture in column order with ja and with no language', async () => {
    for (const language of ['ja', undefined] as const) {
      const ocr = createTesseractCliEngine(path.join(tmp, `vert-${language}`));
      const result = await extractImage(input(fx('ocr-more/jpn-vert.jpeg'), 'image/jpeg', language), ocr);
      const text = result.markdown.replace(/\s/g, '');
      // The first column, then (columns run right to left) the sentence that continues it.
      expect(text, String(language)).toMatch(/元来日本語は漢文に/);
      expect(text.indexOf('元来日本語')).toBeLessThan(text.indexOf('右から左へ'));
      await ocr.close();
    }
  }, 120_000);
});

describe('right-to-left scripts (native engine)', () => {
  GlobalFonts.registerFromPath('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', 'OrientationSans');
  const SAMPLES = {
    ara: ['مرحبا بالعالم، هذا اختبار للتعرف على النص.', 'تكتب اللغة العربية من اليمين إلى اليسار.', 'يقرأ البرنامج الصفحات الممسوحة ضوئيا بدقة.', 'الكتاب على الطاولة والقلم في الحقيبة.'],
    heb: ['שלום עולם, זהו מבחן של זיהוי תווים.', 'הטקסט נכתב מימין לשמאל בעברית.', 'התוכנה קוראת דפים סרוקים בדיוק רב.', 'הספר על השולחן והעט בתיק.'],
  };
  it.each(Object.entries(SAMPLES))('%s lines come out in logical order (script found by OSD)', async (lang, lines) => {
    const info = await probeTesseractCli();
    // apt tesseract-ocr-ara / tesseract-ocr-heb; CI installs them.
    expect(info?.languages.has(lang), `tesseract has no ${lang} data`).toBe(true);
    const canvas = createCanvas(1600, 64 * (lines.length + 1));
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#000';
    ctx.font = '32px OrientationSans';
    ctx.direction = 'rtl';
    ctx.textAlign = 'right';
    lines.forEach((line, i) => ctx.fillText(line, 1540, 64 * (i + 1)));
    const file = await writePng(`${lang}.png`, canvas);
    const ocr = createTesseractCliEngine(path.join(tmp, `rtl-${lang}`));
    const result = await extractImage(input(file, 'image/png'), ocr);
    await ocr.close();
    // Tesseract writes the Latin comma for the Arabic one.
    const cer = characterErrorRate(result.markdown.replace(/,/g, '،'), lines.join('\n').replace(/,/g, '،'));
    report.push(`tesseract-cli ${lang}: CER ${(cer * 100).toFixed(2)} %`);
    expect(cer).toBeLessThanOrEqual(0.03);
  }, 60_000);
});

describe('cost of the native orientation pass', () => {
  // CPU seconds of this process's finished children (/proc/self/stat cutime + cstime, in ticks
  // of 1/100 s): wall time on a shared machine says more about the neighbours than about tesseract.
  const childCpu = () => {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  };
  it.each(['ocr/phototest.tif', 'pdf/ocr_test.pdf'])('is measured on %s (printed, not asserted)', async (fixture) => {
    let image = fx(fixture);
    if (fixture.endsWith('.pdf')) {
      await run('pdftoppm', ['-r', '300', '-gray', '-png', '-singlefile', image, path.join(tmp, 'cost')]);
      image = path.join(tmp, 'cost.png');
    }
    const cpu = async (args: string[]) => {
      const start = childCpu();
      for (let i = 0; i < 4; i++) {
        const result = await runProgram('tesseract', [image, 'stdout', '-l', 'eng', ...args], { maxStdout: 1 << 20 });
        expect(result.code).toBe(0);
      }
      return (childCpu() - start) / 4;
    };
    const plain = await cpu(['--psm', '3']);
    const oriented = await cpu(['--psm', '1', '-c', 'min_orientation_margin=2']);
    const detectThenRead = (await cpu(['--psm', '0'])) + plain;
    report.push(
      `${fixture} CPU per page: --psm 3 ${plain.toFixed(2)} s, --psm 1 with OSD ${oriented.toFixed(2)} s (${(oriented / plain).toFixed(2)}×), ` +
        `--psm 0 then --psm 3 ${detectThenRead.toFixed(2)} s (${(detectThenRead / plain).toFixed(2)}×)`,
    );
  }, 120_000);
});
