/**
 * OCR for the extractors. `createOcrService` picks the engine from `options.ocr_provider`:
 *
 * - 'default' and 'tesseract': the native `tesseract` program when it is installed and has the
 *   language's data (checked once per process, and again for data it lacked), else tesseract.js
 *   with the @tesseract.js-data packages. Both are Tesseract 5; the native one needs no worker
 *   start (~2.5 s per task) and reads a small image about twice as fast (phototest.tif: 0.35 s
 *   against 0.7 s); on a full scanned A4 page both take ~2 s, 0.75 s of it the render.
 * - 'cloud': the HTTP endpoint in QUARRY_OCR_CLOUD_URL (see ./cloud.ts); OCR_FAILED on use when
 *   it is not configured, so the API should refuse such tasks up front with cloudOcrConfigured().
 *
 * Orientation: pages a few degrees askew are straightened first (deskew.ts); a page that reads
 * doubtfully (turned 180° or 270°) is read again with orientation detection, upright: the native
 * engine with `--psm 1`, tesseract.js with OSD in a worker of its own and the image turned.
 *
 * Language (./languages.ts): zh → chi_sim(+chi_tra when installed)+eng, ja → jpn+eng, ko →
 * kor+eng, ar → ara+eng, he → heb+eng, en or none → eng; Tesseract's own names (chi_sim,
 * jpn_vert, …) are accepted too. A page that reads badly gets further readings: with no language,
 * the script OSD finds (Han, Japanese, Hangul, Arabic, Hebrew; native engine only) in its
 * language; for Japanese and Chinese (given or found), vertical text with the *_vert models; and
 * the page without orientation detection. A clear page costs one reading.
 */
import type { ExtractionOptions } from '../types';
import { createCloudOcrEngine } from './cloud';
import { languageSpec, requiredPack } from './languages';
import { PdfPageRenderer } from './render';
import { createTesseractCliEngine, probeTesseractCli, tesseractBinary } from './tesseract-cli';
import { createTesseractJsEngine, tesseractJsLanguages } from './tesseract-js';
import type { OcrOutput, OcrService, OcrWants } from './types';

export type { OcrOutput, OcrRules, OcrService, OcrWants, OcrWord } from './types';
export { cloudOcrConfigured, createCloudOcrEngine } from './cloud';
export { createTesseractCliEngine, probeTesseractCli } from './tesseract-cli';
export { createTesseractJsEngine } from './tesseract-js';
export { MIN_MEAN_CONFIDENCE } from './common';

/**
 * Native tesseract when it runs and has the data for the request's languages, tesseract.js
 * otherwise (created on first need, one worker kept for the whole task).
 */
class TesseractFamilyService implements OcrService {
  private cli: OcrService | null = null;
  private js: OcrService | null = null;
  private lastEngine: string | null = null;
  private likelyEngine = 'tesseract';
  private readonly renderer: PdfPageRenderer;

  constructor(private readonly tmpDir: string) {
    this.renderer = new PdfPageRenderer(tmpDir);
    probeTesseractCli().then(
      (info) => {
        this.likelyEngine = info ? 'tesseract-cli' : 'tesseract.js';
      },
      () => undefined,
    );
  }

  /** The engine that answered last; before any call, the one most likely to ("tesseract" until the probe is done). */
  get engine(): string {
    return this.lastEngine ?? this.likelyEngine;
  }

  private async pick(language: string | undefined): Promise<OcrService> {
    // The engine with the language's data; the native one when both (or neither) have it.
    const required = requiredPack(languageSpec(language));
    const binary = tesseractBinary();
    let info = await probeTesseractCli(binary);
    // Data installed after the first look is looked for again before tesseract.js is taken for it.
    if (info && !info.languages.has(required)) info = await probeTesseractCli(binary, { refresh: true });
    const useCli = info !== null && (info.languages.has(required) || !tesseractJsLanguages().has(required));
    let service: OcrService;
    if (useCli) {
      this.cli ??= createTesseractCliEngine(this.tmpDir, { binary, renderer: this.renderer });
      service = this.cli;
    } else {
      this.js ??= createTesseractJsEngine(this.tmpDir, { renderer: this.renderer });
      service = this.js;
    }
    this.lastEngine = service.engine;
    return service;
  }

  async recognizeImage(path: string, language: string | undefined, signal: AbortSignal, want?: OcrWants): Promise<OcrOutput> {
    return (await this.pick(language)).recognizeImage(path, language, signal, want);
  }

  async recognizePdfPage(pdfPath: string, page: number, language: string | undefined, signal: AbortSignal, want?: OcrWants): Promise<OcrOutput> {
    return (await this.pick(language)).recognizePdfPage(pdfPath, page, language, signal, want);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.cli?.close(), this.js?.close(), this.renderer.close()]);
  }
}

/** The OCR service for one extraction task; `tmpDir` holds its scratch files. */
export function createOcrService(options: ExtractionOptions, tmpDir: string): OcrService {
  if (options.ocr_provider === 'cloud') return createCloudOcrEngine(tmpDir);
  return new TesseractFamilyService(tmpDir);
}
