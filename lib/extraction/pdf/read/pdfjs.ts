/**
 * Loading pdf.js (legacy build, for Node) and opening documents with the options the extractor
 * needs. The only module that imports pdfjs-dist: PDF text extraction (lib/extraction/pdf) and page
 * rendering for OCR (lib/extraction/ocr/render.ts) both load it and open documents here. pdf.js runs its "fake
 * worker" in this thread: the extractor already runs in a child process, so a worker thread of
 * pdf.js's own would only add start-up cost.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ExtractionError } from '@/lib/extraction/types';

export type Pdfjs = typeof PdfjsModule;
export type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
export type PdfLoadingTask = ReturnType<Pdfjs['getDocument']>;

/** The installed pdfjs-dist directory, with a trailing slash. */
function packageDir(): string {
  const attempts = [import.meta.url, pathToFileURL(path.join(process.cwd(), 'package.json')).href];
  let lastError: unknown;
  for (const from of attempts) {
    try {
      const require = createRequire(from);
      return path.dirname(require.resolve('pdfjs-dist/package.json')) + path.sep;
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

let loaded: Promise<{ pdfjs: Pdfjs; dir: string }> | null = null;

/** Imports pdf.js once and points its fake worker at the legacy worker module. */
export function loadPdfjs(): Promise<{ pdfjs: Pdfjs; dir: string }> {
  loaded ??= (async () => {
    const dir = packageDir();
    preferInlineInflate();
    const workerSrc = pathToFileURL(path.join(dir, 'legacy', 'build', 'pdf.worker.mjs')).href;
    const pdfjs = await keepNatives(async () => {
      const lib = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as Pdfjs;
      // The fake worker would import this on the first document; importing it here, inside
      // keepNatives, keeps its polyfills from replacing built-ins as well.
      await import(/* webpackIgnore: true */ workerSrc);
      return lib;
    });
    if (!pdfjs.GlobalWorkerOptions.workerSrc || pdfjs.GlobalWorkerOptions.workerSrc === './pdf.worker.mjs') {
      pdfjs.GlobalWorkerOptions.workerSrc = workerSrc;
    }
    return { pdfjs, dir };
  })();
  loaded.catch(() => {
    loaded = null;
  });
  return loaded;
}

/**
 * Built-ins that the legacy build's core-js polyfills replace although Node's own are correct for
 * everything Quarry and pdf.js do: Array.prototype.push (core-js's JavaScript version, forced
 * because Node 20's V8 throws the wrong error type when pushing onto an array whose length is
 * read-only, made every push in the process several times slower: a third of a long PDF's
 * extraction time), JSON.parse and JSON.stringify (source-text access and raw JSON, which
 * neither uses). They are put back once pdf.js is loaded; polyfills that only
 * add what Node 20 lacks (Promise.withResolvers, Map.prototype.getOrInsertComputed, …) stay.
 */
const NATIVES: readonly [object, PropertyKey][] = [
  [Array.prototype, 'push'],
  [JSON, 'parse'],
  [JSON, 'stringify'],
];

/**
 * pdf.js inflates streams through the global DecompressionStream where there is one. In Node that
 * is zlib on the thread pool behind web streams, and the round trips cost more than pdf.js's own
 * inflate (a 400-page report: 7–10% slower, and idle between pages). Nothing else in the process
 * that loads pdf.js (the extraction worker and its page threads) uses it.
 */
function preferInlineInflate(): void {
  Object.defineProperty(globalThis, 'DecompressionStream', { value: undefined, configurable: true, writable: true });
}

async function keepNatives<T>(load: () => Promise<T>): Promise<T> {
  const saved = NATIVES.map(([owner, key]) => Object.getOwnPropertyDescriptor(owner, key)!);
  try {
    return await load();
  } finally {
    NATIVES.forEach(([owner, key], i) => Object.defineProperty(owner, key, saved[i]));
  }
}

export interface OpenOptions {
  /**
   * Images larger than this many pixels are skipped while building operator lists. The main
   * document uses 1 (images are never needed for text and tables, and decoding them is the most
   * expensive part of an operator list); the probe that looks for scanned images and the OCR
   * renderer use -1 (no limit, pdf.js's default).
   */
  maxImageSize: number;
  /**
   * The pages are drawn to pixels (OCR rendering, lib/extraction/ocr/render.ts): pdf.js also gets the directory
   * of its predefined ICC colour profiles. Text extraction does not pass it.
   */
  render?: boolean;
}

/** Options for documents whose pages are rendered to images for OCR. */
export const RENDER_OPTIONS: Readonly<OpenOptions> = { maxImageSize: -1, render: true };

/**
 * Starts loading `data` (the array is transferred to pdf.js; pass a copy if you need it). The
 * only place Quarry opens a document with pdf.js: text extraction, the image probe and the OCR
 * renderer differ only in `opts`.
 */
export function openDocument(pdfjs: Pdfjs, dir: string, data: Uint8Array, opts: OpenOptions): PdfLoadingTask {
  // Directory paths (not file: URLs): pdf.js reads them with fs.readFile in Node. They must end
  // with a separator, otherwise pdf.js rejects them; without the CMaps and standard font data,
  // text in non-embedded CJK fonts (Adobe-Japan1 etc.) silently disappears.
  const sub = (name: string) => `${path.join(dir, name)}/`;
  return pdfjs.getDocument({
    data,
    cMapUrl: sub('cmaps'),
    cMapPacked: true,
    standardFontDataUrl: sub('standard_fonts'),
    wasmUrl: sub('wasm'),
    ...(opts.render ? { iccUrl: sub('iccs') } : {}),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    maxImageSize: opts.maxImageSize,
    verbosity: 0,
  });
}

export async function readPdfFile(file: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await fs.promises.readFile(file));
  } catch (err) {
    throw new ExtractionError('INTERNAL_ERROR', `The stored file could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Maps an error from pdf.js to an ExtractionError with a message for people. */
export function toExtractionError(err: unknown): ExtractionError {
  if (err instanceof ExtractionError) return err;
  const name = (err as { name?: string } | null)?.name ?? '';
  const message = (err as { message?: string } | null)?.message ?? String(err);
  if (name === 'PasswordException') {
    return new ExtractionError(
      'ENCRYPTED_DOCUMENT',
      'The PDF is password-protected; remove the password (or upload an unprotected copy) and try again',
    );
  }
  if (name === 'InvalidPDFException') {
    return new ExtractionError('CORRUPT_DOCUMENT', `The file is not a valid PDF or is damaged beyond repair (${message})`);
  }
  return new ExtractionError('CORRUPT_DOCUMENT', `The PDF could not be read: it appears to be damaged (${message})`);
}

/** Resolves like `promise`, or rejects with CANCELLED as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function abortReason(signal: AbortSignal): ExtractionError {
  const reason = signal.reason;
  return reason instanceof ExtractionError ? reason : new ExtractionError('CANCELLED', 'The extraction was cancelled');
}
