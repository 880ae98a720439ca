/**
 * Turns a Tesseract engine (the native CLI or tesseract.js) into an OcrService: checks the image
 * format, converts what the engine cannot read, picks the languages, renders PDF pages, and
 * takes a second reading of doubtful pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ExtractionError, type OcrLanguage } from '../types';
import {
  abortError,
  betterOutput,
  RETRY_BELOW_CONFIDENCE,
  SCRIPT_LANGUAGES,
  sniffImageFormat,
  tesseractLanguages,
  type ImageFormat,
} from './common';
import { readImageWithinBudget } from './dimensions';
import { PdfPageRenderer } from './render';
import type { OcrOutput, OcrService } from './types';

/** What a Tesseract-family engine must provide. */
export interface TesseractEngine {
  readonly name: string;
  /** Language codes the engine has data for. */
  languages(): Promise<Set<string>>;
  /** Image formats the engine decodes itself; others are converted to PNG first. */
  formats(): Promise<Set<ImageFormat>>;
  recognize(file: string, langs: string[], dpi: number | undefined, signal: AbortSignal): Promise<OcrOutput>;
  /** The script OSD detects on the image (e.g. "Han", "Latin"), or null (no OSD, no answer). */
  detectScript?(file: string, signal: AbortSignal): Promise<string | null>;
  close(): Promise<void>;
}

/** Reads the first bytes of a file and returns its image format, or throws CORRUPT_DOCUMENT. */
export async function imageFormatOf(file: string): Promise<ImageFormat> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(32);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const format = sniffImageFormat(head.subarray(0, bytesRead));
    if (!format) throw new ExtractionError('CORRUPT_DOCUMENT', 'The file is not a readable image (its content matches no supported image format)');
    return format;
  } finally {
    await handle.close();
  }
}

/** Decodes an image with @napi-rs/canvas and writes it as PNG into `tmpDir`. */
export async function convertToPng(file: string, tmpDir: string): Promise<string> {
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  let image: Awaited<ReturnType<typeof loadImage>>;
  try {
    image = await loadImage(await fs.promises.readFile(file));
  } catch (err) {
    throw new ExtractionError('CORRUPT_DOCUMENT', `The image could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!(image.width > 0 && image.height > 0)) throw new ExtractionError('CORRUPT_DOCUMENT', 'The image could not be decoded');
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  // Transparent pixels become white, not black: text on a transparent background stays legible.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, image.width, image.height);
  ctx.drawImage(image, 0, 0);
  await fs.promises.mkdir(tmpDir, { recursive: true });
  const out = path.join(tmpDir, `ocr-converted-${process.hrtime.bigint()}.png`);
  await fs.promises.writeFile(out, await canvas.encode('png'));
  return out;
}

export class TesseractOcrService implements OcrService {
  private readonly renderer: PdfPageRenderer;

  constructor(
    private readonly impl: TesseractEngine,
    private readonly tmpDir: string,
    renderer?: PdfPageRenderer,
  ) {
    this.renderer = renderer ?? new PdfPageRenderer(tmpDir);
  }

  get engine(): string {
    return this.impl.name;
  }

  /** The languages to run for `language`, or OCR_FAILED naming the missing data. */
  async resolveLanguages(language: OcrLanguage | undefined): Promise<string[]> {
    const wanted = tesseractLanguages(language);
    const have = await this.impl.languages();
    const usable = wanted.filter((l) => have.has(l));
    if (!have.has(wanted[0]) || usable.length === 0) {
      throw new ExtractionError(
        'OCR_FAILED',
        `OCR language data "${wanted[0]}" (for language ${language ?? 'en'}) is not installed for ${this.impl.name}`,
      );
    }
    return usable;
  }

  async recognizeImage(file: string, language: OcrLanguage | undefined, signal: AbortSignal): Promise<OcrOutput> {
    if (signal.aborted) throw abortError(signal);
    const { format } = await readImageWithinBudget(file);
    let input = file;
    let converted: string | null = null;
    if (!(await this.impl.formats()).has(format)) {
      converted = await convertToPng(file, this.tmpDir);
      input = converted;
    }
    try {
      return await this.read(input, language, undefined, signal);
    } finally {
      if (converted) await fs.promises.rm(converted, { force: true });
    }
  }

  async recognizePdfPage(pdfPath: string, page: number, language: OcrLanguage | undefined, signal: AbortSignal): Promise<OcrOutput> {
    // Check the language data before spending time on rendering.
    await this.resolveLanguages(language);
    const rendered = await this.renderer.render(pdfPath, page, signal);
    try {
      return await this.read(rendered.path, language, rendered.dpi, signal);
    } finally {
      await fs.promises.rm(rendered.path, { force: true });
    }
  }

  /**
   * One reading with the language's models; when it is doubtful (mean confidence below
   * RETRY_BELOW_CONFIDENCE), a second one and the better kept: the CJK model alone (Tesseract's
   * "chi_sim+eng" can prefer English garbage over a weak Chinese reading), or, with no
   * language given, the script OSD finds (only the CLI has OSD data).
   */
  private async read(file: string, language: OcrLanguage | undefined, dpi: number | undefined, signal: AbortSignal): Promise<OcrOutput> {
    const langs = await this.resolveLanguages(language);
    let best = await this.impl.recognize(file, langs, dpi, signal);
    if (best.words > 0 && best.meanConfidence >= RETRY_BELOW_CONFIDENCE) return best;
    const alternatives: string[][] = [];
    if (langs.length > 1) alternatives.push([langs[0]]);
    if (!language && this.impl.detectScript) {
      const script = await this.impl.detectScript(file, signal);
      const byScript = script ? SCRIPT_LANGUAGES[script] : undefined;
      if (byScript) {
        const have = await this.impl.languages();
        const usable = byScript.filter((l) => have.has(l));
        if (usable.length > 0 && /^(chi|jpn|kor)/.test(usable[0])) alternatives.push(usable);
      }
    }
    for (const alt of alternatives) {
      if (signal.aborted) throw abortError(signal);
      best = betterOutput(best, await this.impl.recognize(file, alt, dpi, signal));
    }
    return best;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.impl.close(), this.renderer.close()]);
  }
}
