/**
 * OCR gives the same text whatever else the machine runs. Extractions of the Chinese and the
 * vertical Japanese fixture in `normal` mode with no language depend on their second readings:
 * read as English they score 21 and 30 (the OCR_FAILED seen when three extractions shared two
 * cores), read in the script tesseract's OSD finds they score 81 and 92. Those readings hang on
 * two things that a crowded moment could take away: the OSD run (a tesseract killed half-way,
 * by the kernel's OOM killer say, used to count as "no script") and the list of installed
 * language data (the first answer was kept for the worker's life, a failed look included). Here:
 * three at once through the worker pool equal one alone, and the same holds with a tesseract
 * killed once during OSD, with data installed after the first look, and after a failed look.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDocument } from '@/lib/extraction/engine';
import type { OcrMetadata } from '@/lib/extraction/ocr/image';
import { probeTesseractCli, REFRESH_LANGUAGES_MS, resetTesseractCliProbe } from '@/lib/extraction/ocr/tesseract-cli';
import { ExtractionWorkerPool } from '@/lib/extraction/pool';
import { findProgram } from '@/lib/extraction/programs';
import type { ExtractInput, ExtractResult } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';

const CHINESE = path.join(FIXTURES_DIR, 'ocr-more/chi_sim_image.jpeg');
const VERTICAL = path.join(FIXTURES_DIR, 'ocr-more/jpn-vert.jpeg');

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-ocr-load-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The API's defaults: normal mode, no language. */
function input(file: string): Omit<ExtractInput, 'onProgress' | 'signal'> {
  return {
    path: file,
    mimeType: 'image/jpeg',
    extension: '.jpeg',
    mode: 'normal',
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    maxPages: 10,
    tmpDir: fs.mkdtempSync(path.join(tmp, 'task-')),
  };
}

/** What must not depend on the machine's load: the Markdown and each page's reading. */
const outcome = (result: ExtractResult) => ({ markdown: result.markdown, ocr: result.metadata.ocr as OcrMetadata });

describe('OCR under load', () => {
  let pool: ExtractionWorkerPool;
  beforeAll(() => {
    pool = new ExtractionWorkerPool({ warmUpRuns: 0 });
  });
  afterAll(async () => {
    await pool.close();
  });

  const run = (file: string) =>
    pool.run({ input: input(file), onProgress: () => {}, signal: new AbortController().signal, limits: { timeoutMs: 300_000, memoryMb: 2048 } });

  it.each([
    ['chi_sim_image.jpeg', CHINESE, /新鲜甘草黄酮养分/],
    ['jpn-vert.jpeg', VERTICAL, /元来日本語は漢文に/],
  ])('reads %s three times at once in extraction workers as it reads it alone', async (_name, file, expected) => {
    const alone = outcome(await run(file));
    expect(alone.markdown.replace(/\s/g, '')).toMatch(expected);
    expect(alone.ocr.pages[0].confidence).toBeGreaterThan(60);
    const together = await Promise.all([run(file), run(file), run(file)]);
    for (const result of together) expect(outcome(result)).toEqual(alone);
  }, 240_000);
});

describe('OCR when tesseract is disturbed', () => {
  const real = findProgram('tesseract');
  let alone: ReturnType<typeof outcome>;
  let saved: string | undefined;

  beforeAll(async () => {
    expect(real, 'tesseract is installed').not.toBeNull();
    saved = process.env.QUARRY_TESSERACT_BIN;
    resetTesseractCliProbe();
    alone = outcome(await extract(CHINESE));
  }, 120_000);
  afterAll(() => {
    if (saved === undefined) delete process.env.QUARRY_TESSERACT_BIN;
    else process.env.QUARRY_TESSERACT_BIN = saved;
    resetTesseractCliProbe();
  });

  function extract(file: string): Promise<ExtractResult> {
    return extractDocument({ ...input(file), onProgress: () => {}, signal: new AbortController().signal });
  }

  /** A tesseract that is the real one but for `script` (sh), run first; the test's own folder as $DIR. */
  function fakeTesseract(name: string, script: string): string {
    const dir = fs.mkdtempSync(path.join(tmp, `${name}-`));
    const file = path.join(dir, 'tesseract');
    fs.writeFileSync(file, `#!/bin/sh\nDIR='${dir}'\nREAL='${real}'\n${script}\nexec "$REAL" "$@"\n`, { mode: 0o755 });
    process.env.QUARRY_TESSERACT_BIN = file;
    resetTesseractCliProbe();
    return dir;
  }

  it('reads the same when script detection (tesseract --psm 0) is killed once', async () => {
    const dir = fakeTesseract(
      'osd-killed',
      'case " $* " in *" --psm 0 "*) if [ ! -e "$DIR/killed" ]; then touch "$DIR/killed"; kill -9 $$; fi ;; esac',
    );
    expect(outcome(await extract(CHINESE))).toEqual(alone);
    expect(fs.existsSync(path.join(dir, 'killed'))).toBe(true);
  }, 120_000);

  it('reads the same when the Chinese data was installed after the first look at the installed languages', async () => {
    const dir = fakeTesseract(
      'installed-later',
      'if [ "$1" = "--list-langs" ] && [ ! -e "$DIR/installed" ]; then "$REAL" --list-langs | grep -v "^chi_"; exit 0; fi',
    );
    expect((await probeTesseractCli())?.languages.has('chi_sim')).toBe(false);
    fs.writeFileSync(path.join(dir, 'installed'), '');
    await new Promise((resolve) => setTimeout(resolve, REFRESH_LANGUAGES_MS + 100));
    expect(outcome(await extract(CHINESE))).toEqual(alone);
  }, 120_000);

  it('reads the same after a look at the installed languages failed', async () => {
    const dir = fakeTesseract(
      'list-killed',
      'if [ "$1" = "--list-langs" ] && [ ! -e "$DIR/killed" ]; then touch "$DIR/killed"; kill -9 $$; fi',
    );
    // The failed look answers "no native tesseract" this once, and is not kept.
    expect(await probeTesseractCli()).toBeNull();
    expect(fs.existsSync(path.join(dir, 'killed'))).toBe(true);
    expect((await probeTesseractCli())?.languages.has('chi_sim')).toBe(true);
    expect(outcome(await extract(CHINESE))).toEqual(alone);
  }, 120_000);
});
