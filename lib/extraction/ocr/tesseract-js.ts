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
import type Tesseract from 'tesseract.js';
import { ExtractionError } from '../types';
import { contentChars, type SourceLine } from '@/lib/document/layout';
import { abortError, joinWords, layoutText, meanOf, normalizeOcrText, sniffImageFormat, tidyCjkSpacing, type ImageFormat } from './common';
import { imageSizes, type ImageSize } from './dimensions';
import { PdfPageRenderer } from './render';
import { TesseractOcrService, type TesseractEngine, type TextLayout } from './service';
import { TesseractJsOrientation, tesseractJsLangDir } from './tesseract-js-osd';
import { linkData, loadTesseract, raceAbort, startWorker, tesseractJsDataFile, type Worker } from './tesseract-js-worker';
import type { OcrOutput, OcrService, OcrWord } from './types';

export { tesseractJsDataFile } from './tesseract-js-worker';

/** Languages looked for in node_modules (@tesseract.js-data/<code>); chi_tra only if added. */
export const TESSERACT_JS_LANGUAGES = ['eng', 'chi_sim', 'chi_tra', 'jpn', 'kor'] as const;

let installedLanguages: Set<string> | null = null;

/** Languages tesseract.js has data for here (looked up once per process). */
export function tesseractJsLanguages(): Set<string> {
  installedLanguages ??= new Set(TESSERACT_JS_LANGUAGES.filter((l) => tesseractJsDataFile(l) !== null));
  return installedLanguages;
}

interface JsonWord {
  text?: string;
  confidence?: number;
  bbox?: { x0: number; y0: number; x1: number; y1: number };
}
interface JsonLine {
  text?: string;
  words?: JsonWord[];
  bbox?: { x0: number; y0: number; x1: number; y1: number };
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
export function tesseractJsBlocksToOutput(blocks: JsonBlock[] | null | undefined, rawText?: string | null, size?: ImageSize | null): OcrOutput {
  const paragraphs: string[][] = [];
  const confidences: number[] = [];
  const positioned: SourceLine[] = [];
  const boxes: OcrWord[] = [];
  let lineNumber = 0;
  let words = 0;
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs ?? []) {
      const lines: string[] = [];
      for (const line of paragraph.lines ?? []) {
        const lineWords = (line.words ?? []).filter((w) => (w.text ?? '').trim().length > 0);
        for (const w of lineWords) {
          words += 1;
          if (typeof w.confidence === 'number' && w.confidence >= 0) confidences.push(w.confidence);
          if (size && size.width > 0 && size.height > 0 && w.bbox) {
            const { x0, y0, x1, y1 } = w.bbox;
            const box: OcrWord['box'] = [x0 / size.width, y0 / size.height, x1 / size.width, y1 / size.height];
            boxes.push({ text: w.text!.trim(), box, line: lineNumber, confidence: typeof w.confidence === 'number' ? w.confidence : -1 });
          }
        }
        lineNumber++;
        // The line text keeps Tesseract's own spacing; rebuild from words only when it is absent.
        const text = line.text !== undefined ? tidyCjkSpacing(line.text.trim()) : joinWords(lineWords.map((w) => w.text!.trim()));
        if (text) lines.push(text);
        const chars = contentChars(text);
        if (size && line.bbox && chars > 0) {
          const { x0, y0, x1, y1 } = line.bbox;
          positioned.push({ chars, group: paragraphs.length, box: [x0 / size.width, y0 / size.height, x1 / size.width, y1 / size.height] });
        }
      }
      paragraphs.push(lines);
    }
  }
  const text = typeof rawText === 'string' ? normalizeOcrText(rawText) : layoutText(paragraphs);
  const out: OcrOutput = { text, meanConfidence: meanOf(confidences), words };
  if (size && size.width > 0 && size.height > 0) {
    out.lines = positioned;
    out.size = { width: size.width, height: size.height };
    out.wordBoxes = boxes;
  }
  return out;
}

/** The size of the image tesseract.js is given (line boxes are in its pixels), null when unknown. */
function sizeOf(image: Buffer): ImageSize | null {
  try {
    const format = sniffImageFormat(image.subarray(0, 64));
    return format ? (imageSizes(image, format)[0] ?? null) : null;
  } catch {
    return null;
  }
}

class TesseractJsEngine implements TesseractEngine {
  readonly name = 'tesseract.js';
  private worker: Promise<Worker> | null = null;
  private workerLangs = '';
  private readonly langDir: string;
  private readonly orientation: TesseractJsOrientation | null;

  constructor(tmpDir: string) {
    this.langDir = tesseractJsLangDir(tmpDir);
    this.orientation = TesseractJsOrientation.available() ? new TesseractJsOrientation(this.langDir) : null;
  }

  async languages(): Promise<Set<string>> {
    return tesseractJsLanguages();
  }

  async formats(): Promise<Set<ImageFormat>> {
    // BMP works too, but through a slow pure-JS decoder in the worker: converted to PNG instead.
    return new Set<ImageFormat>(['png', 'jpeg', 'tiff', 'webp']);
  }

  private async workerFor(langs: string[]): Promise<Worker> {
    const key = langs.join('+');
    if (!this.worker) {
      this.workerLangs = key;
      const starting = startWorker(this.langDir, langs);
      this.worker = starting;
      starting.catch(() => {
        if (this.worker === starting) this.worker = null;
      });
      return starting;
    }
    const worker = await this.worker;
    if (this.workerLangs !== key) {
      await linkData(this.langDir, langs);
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

  async recognize(file: string, langs: string[], dpi: number | undefined, signal: AbortSignal, layout: TextLayout = 'auto'): Promise<OcrOutput> {
    if (signal.aborted) throw abortError(signal);
    const original: Buffer = await fs.promises.readFile(file);
    let image = original;
    // Turned upright first: the LSTM engine reads only upright text.
    if (layout === 'auto' && this.orientation) image = await this.orientation.upright(image, signal);
    const worker = await raceAbort(this.workerFor(langs), signal);
    // debug_file: Tesseract's diagnostics ("Estimating resolution as ...") go nowhere.
    const psm = layout === 'vertical' ? '5' : '3';
    const params: Record<string, string> = { tessedit_pageseg_mode: psm, debug_file: '/dev/null' };
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
      const out = tesseractJsBlocksToOutput((result.data.blocks ?? null) as unknown as JsonBlock[] | null, result.data.text, sizeOf(image));
      // Words of a page turned here lie in the turned image, not in the file: no boxes then.
      if (image !== original) delete out.wordBoxes;
      return out;
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
    await Promise.all([this.dropWorker(), this.orientation?.close()]);
  }
}

/**
 * OCR with tesseract.js (WebAssembly, one worker per service, reused across pages and
 * terminated by close()). Language data: @tesseract.js-data packages only, never the network.
 */
export function createTesseractJsEngine(tmpDir: string, options: { renderer?: PdfPageRenderer } = {}): OcrService {
  return new TesseractOcrService(new TesseractJsEngine(tmpDir), tmpDir, options.renderer);
}
