/**
 * Starting tesseract.js workers offline: language data only from the @tesseract.js-data packages
 * (linked into a scratch langPath, so tesseract.js never builds a download URL), no cache
 * written, a start that fails or hangs reported as OCR_FAILED instead of crashing the process.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Tesseract from 'tesseract.js';
import { ExtractionError } from '../types';
import { abortError } from './common';

const DATA_DIRS = ['4.0.0', '4.0.0_best_int'];
/** Creating a worker never takes this long unless something is wrong (it takes ~1 s). */
const WORKER_START_TIMEOUT_MS = 120_000;

export type TesseractModule = typeof Tesseract;
export type Worker = Tesseract.Worker;

/** The gzip traineddata file for `lang` in node_modules, or null when not installed. */
export function tesseractJsDataFile(lang: string): string | null {
  if (!/^[a-z_]+$/.test(lang)) return null;
  let pkgDir: string;
  try {
    pkgDir = path.dirname(createRequire(import.meta.url).resolve(`@tesseract.js-data/${lang}/package.json`));
  } catch {
    return null;
  }
  for (const dir of DATA_DIRS) {
    const file = path.join(pkgDir, dir, `${lang}.traineddata.gz`);
    try {
      if (fs.statSync(file).size > 0) return file;
    } catch {
      // try the next data set
    }
  }
  return null;
}

export async function loadTesseract(): Promise<TesseractModule> {
  const mod = (await import('tesseract.js')) as unknown as TesseractModule & { default?: TesseractModule };
  return mod.default ?? mod;
}

/** Links the traineddata of `langs` into `langDir` (the workers' langPath). */
export async function linkData(langDir: string, langs: string[]): Promise<void> {
  await fs.promises.mkdir(langDir, { recursive: true });
  for (const lang of langs) {
    const source = tesseractJsDataFile(lang);
    if (!source) throw new ExtractionError('OCR_FAILED', `tesseract.js language data "${lang}" is not installed (@tesseract.js-data/${lang})`);
    const target = path.join(langDir, `${lang}.traineddata.gz`);
    if (fs.existsSync(target)) continue;
    await fs.promises.rm(target, { force: true });
    try {
      await fs.promises.symlink(source, target);
    } catch {
      await fs.promises.copyFile(source, target);
    }
  }
}

/**
 * A worker for `langs`. `legacy` loads the core with the legacy engine, which orientation
 * detection (OSD) needs; recognition uses the smaller LSTM-only core.
 */
export async function startWorker(langDir: string, langs: string[], legacy = false): Promise<Worker> {
  await linkData(langDir, langs);
  const T = await loadTesseract();
  let failed: (reason: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    failed = reject;
  });
  // Without an errorHandler tesseract.js throws job errors from its message handler, which
  // would crash the process; with it, the job's own promise rejects as it should.
  const creating = T.createWorker(langs.join('+'), legacy ? T.OEM.TESSERACT_ONLY : T.OEM.LSTM_ONLY, {
    langPath: langDir,
    cacheMethod: 'none',
    gzip: true,
    legacyCore: legacy,
    legacyLang: legacy,
    logger: () => {},
    errorHandler: (e: unknown) => failed(new Error(String(e))),
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the tesseract.js worker did not start')), WORKER_START_TIMEOUT_MS);
  });
  try {
    const worker = await Promise.race([creating, failure, timeout]);
    failed = () => {};
    return worker;
  } catch (err) {
    void creating.then((w) => w.terminate()).catch(() => {});
    throw new ExtractionError('OCR_FAILED', `tesseract.js could not start: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** `promise`, or the abort error as soon as `signal` aborts (the work itself goes on). */
export async function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw abortError(signal);
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    promise.catch(() => {});
  }
}
