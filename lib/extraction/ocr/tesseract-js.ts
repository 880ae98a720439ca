/**
 * The tesseract.js (WebAssembly) engine, used when the native tesseract program is missing.
 *
 * Language data comes only from the @tesseract.js-data packages in node_modules: the worker's
 * langPath is a scratch directory of links to those files, so tesseract.js never builds a
 * download URL (it fetches only when langPath is missing or a URL), cacheMethod is 'none' (it
 * writes no cache), and images are handed over as bytes, never as paths or URLs.
 *
 * Data set: the packages carry `4.0.0` (integer LSTM + legacy models) and `4.0.0_best_int`
 * (tessdata_best, integerised). Measured on the fixtures, 4.0.0 recognises about twice as fast
 * (phototest: 1.1 s against 2.0 s) and reads the CJK samples better, so it is preferred;
 * 4.0.0_best_int is the fallback when a package lacks it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Tesseract from 'tesseract.js';
import { ExtractionError } from '../types';
import { abortError, joinWords, layoutText, meanOf, normalizeOcrText, tidyCjkSpacing, type ImageFormat } from './common';
import { PdfPageRenderer } from './render';
import { TesseractOcrService, type TesseractEngine } from './service';
import type { OcrOutput, OcrService } from './types';

/** Languages looked for in node_modules (@tesseract.js-data/<code>); chi_tra only if added. */
export const TESSERACT_JS_LANGUAGES = ['eng', 'chi_sim', 'chi_tra', 'jpn', 'kor'] as const;
const DATA_DIRS = ['4.0.0', '4.0.0_best_int'];
/** Creating a worker never takes this long unless something is wrong (it takes ~1 s). */
const WORKER_START_TIMEOUT_MS = 120_000;

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

let installedLanguages: Set<string> | null = null;

/** Languages tesseract.js has data for here (looked up once per process). */
export function tesseractJsLanguages(): Set<string> {
  installedLanguages ??= new Set(TESSERACT_JS_LANGUAGES.filter((l) => tesseractJsDataFile(l) !== null));
  return installedLanguages;
}

type TesseractModule = typeof Tesseract;
type Worker = Tesseract.Worker;

async function loadTesseract(): Promise<TesseractModule> {
  const mod = (await import('tesseract.js')) as unknown as TesseractModule & { default?: TesseractModule };
  return mod.default ?? mod;
}

interface JsonWord {
  text?: string;
  confidence?: number;
}
interface JsonLine {
  text?: string;
  words?: JsonWord[];
}
interface JsonParagraph {
  lines?: JsonLine[];
}
interface JsonBlock {
  paragraphs?: JsonParagraph[];
}

/**
 * tesseract.js output to OcrOutput: the text from Tesseract's own text output when given (its
 * spacing is right for CJK and Hangul), else rebuilt from the blocks; the mean word confidence
 * and word count from the blocks.
 */
export function tesseractJsBlocksToOutput(blocks: JsonBlock[] | null | undefined, rawText?: string | null): OcrOutput {
  const paragraphs: string[][] = [];
  const confidences: number[] = [];
  let words = 0;
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs ?? []) {
      const lines: string[] = [];
      for (const line of paragraph.lines ?? []) {
        const lineWords = (line.words ?? []).filter((w) => (w.text ?? '').trim().length > 0);
        for (const w of lineWords) {
          words += 1;
          if (typeof w.confidence === 'number' && w.confidence >= 0) confidences.push(w.confidence);
        }
        // The line text keeps Tesseract's own spacing; rebuild from words only when it is absent.
        const text = line.text !== undefined ? tidyCjkSpacing(line.text.trim()) : joinWords(lineWords.map((w) => w.text!.trim()));
        if (text) lines.push(text);
      }
      paragraphs.push(lines);
    }
  }
  const text = typeof rawText === 'string' ? normalizeOcrText(rawText) : layoutText(paragraphs);
  return { text, meanConfidence: meanOf(confidences), words };
}

/** `promise`, or the abort error as soon as `signal` aborts (the work itself goes on). */
async function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
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

class TesseractJsEngine implements TesseractEngine {
  readonly name = 'tesseract.js';
  private worker: Promise<Worker> | null = null;
  private workerLangs = '';
  private readonly langDir: string;

  constructor(tmpDir: string) {
    this.langDir = path.join(tmpDir, 'tesseract.js-lang');
  }

  async languages(): Promise<Set<string>> {
    return tesseractJsLanguages();
  }

  async formats(): Promise<Set<ImageFormat>> {
    // BMP works too, but through a slow pure-JS decoder in the worker: converted to PNG instead.
    return new Set<ImageFormat>(['png', 'jpeg', 'tiff', 'webp']);
  }

  /** Links the traineddata of `langs` into the worker's langPath directory. */
  private async linkData(langs: string[]): Promise<void> {
    await fs.promises.mkdir(this.langDir, { recursive: true });
    for (const lang of langs) {
      const source = tesseractJsDataFile(lang);
      if (!source) throw new ExtractionError('OCR_FAILED', `tesseract.js language data "${lang}" is not installed (@tesseract.js-data/${lang})`);
      const target = path.join(this.langDir, `${lang}.traineddata.gz`);
      if (fs.existsSync(target)) continue;
      await fs.promises.rm(target, { force: true });
      try {
        await fs.promises.symlink(source, target);
      } catch {
        await fs.promises.copyFile(source, target);
      }
    }
  }

  private async startWorker(langs: string[]): Promise<Worker> {
    await this.linkData(langs);
    const T = await loadTesseract();
    let failed: (reason: Error) => void = () => {};
    const failure = new Promise<never>((_, reject) => {
      failed = reject;
    });
    // Without an errorHandler tesseract.js throws job errors from its message handler, which
    // would crash the process; with it, the job's own promise rejects as it should.
    const creating = T.createWorker(langs.join('+'), T.OEM.LSTM_ONLY, {
      langPath: this.langDir,
      cacheMethod: 'none',
      gzip: true,
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

  private async workerFor(langs: string[]): Promise<Worker> {
    const key = langs.join('+');
    if (!this.worker) {
      this.workerLangs = key;
      const starting = this.startWorker(langs);
      this.worker = starting;
      starting.catch(() => {
        if (this.worker === starting) this.worker = null;
      });
      return starting;
    }
    const worker = await this.worker;
    if (this.workerLangs !== key) {
      await this.linkData(langs);
      const T = await loadTesseract();
      try {
        await worker.reinitialize(key, T.OEM.LSTM_ONLY);
      } catch (err) {
        await this.dropWorker();
        throw new ExtractionError('OCR_FAILED', `tesseract.js could not load ${key}: ${String(err)}`);
      }
      this.workerLangs = key;
    }
    return worker;
  }

  private async dropWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.workerLangs = '';
    if (worker) await worker.then((w) => w.terminate()).catch(() => {});
  }

  async recognize(file: string, langs: string[], dpi: number | undefined, signal: AbortSignal): Promise<OcrOutput> {
    if (signal.aborted) throw abortError(signal);
    const image = await fs.promises.readFile(file);
    const worker = await raceAbort(this.workerFor(langs), signal);
    // debug_file: Tesseract's diagnostics ("Estimating resolution as ...") go nowhere.
    const params: Record<string, string> = { tessedit_pageseg_mode: '3', debug_file: '/dev/null' };
    if (dpi) params.user_defined_dpi = String(dpi);
    const job = worker.recognize(image, params as Partial<Tesseract.RecognizeOptions>, { text: true, blocks: true });
    // A WebAssembly job cannot be interrupted: on abort the worker is terminated.
    let onAbort: () => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    // A worker thread that dies (out of memory) never answers: fail instead of waiting.
    const thread = (worker as unknown as { worker?: NodeJS.EventEmitter }).worker;
    let onExit: () => void = () => {};
    const exited = new Promise<never>((_, reject) => {
      onExit = () => reject(new ExtractionError('OCR_FAILED', 'The tesseract.js worker stopped unexpectedly'));
      thread?.once('exit', onExit);
    });
    try {
      const result = await Promise.race([job, aborted, exited]);
      return tesseractJsBlocksToOutput((result.data.blocks ?? null) as unknown as JsonBlock[] | null, result.data.text);
    } catch (err) {
      await this.dropWorker();
      if (err instanceof ExtractionError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if (/read image/i.test(message)) throw new ExtractionError('CORRUPT_DOCUMENT', 'The image could not be decoded');
      throw new ExtractionError('OCR_FAILED', `tesseract.js failed: ${message}`);
    } finally {
      signal.removeEventListener('abort', onAbort);
      thread?.off('exit', onExit);
      job.catch(() => {});
      aborted.catch(() => {});
      exited.catch(() => {});
    }
  }

  async close(): Promise<void> {
    await this.dropWorker();
  }
}

/**
 * OCR with tesseract.js (WebAssembly, one worker per service, reused across pages and
 * terminated by close()). Language data: @tesseract.js-data packages only, never the network.
 */
export function createTesseractJsEngine(tmpDir: string, options: { renderer?: PdfPageRenderer } = {}): OcrService {
  return new TesseractOcrService(new TesseractJsEngine(tmpDir), tmpDir, options.renderer);
}
