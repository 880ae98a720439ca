/**
 * Turns a Tesseract engine (the native CLI or tesseract.js) into an OcrService: checks the image
 * format, decodes what the engine cannot read (prepare.ts), picks the languages, renders PDF
 * pages, and takes further readings of doubtful pages (another language, vertical text, no
 * orientation detection).
 */
import fs from 'node:fs';
import { ExtractionError, type OcrLanguage } from '../types';
import {
  abortError,
  betterOutput,
  ORIENTATION_CHECK_BELOW,
  RETRY_BELOW_CONFIDENCE,
  SCRIPT_LANGUAGES,
  SECOND_READING_LANGUAGE,
  sniffImageFormat,
  tesseractLanguages,
  verticalLanguages,
  type ImageFormat,
} from './common';
import { straightenPage } from './deskew';
import { prepareImage } from './prepare';
import { PdfPageRenderer } from './render';
import type { OcrOutput, OcrService } from './types';

/**
 * How a page is segmented: 'upright' takes the page as it is (Tesseract's layout analysis,
 * which copes with small skews and with lines running down a page turned by 90°); 'auto' also
 * detects the page's orientation (0/90/180/270°) and reads it upright; 'vertical' reads one block
 * of top-to-bottom columns (with the *_vert models).
 */
export type TextLayout = 'auto' | 'upright' | 'vertical';

/** What a Tesseract-family engine must provide. */
export interface TesseractEngine {
  readonly name: string;
  /** Language codes the engine has data for. */
  languages(): Promise<Set<string>>;
  /** Image formats the engine decodes itself; others are converted to PNG first. */
  formats(): Promise<Set<ImageFormat>>;
  recognize(file: string, langs: string[], dpi: number | undefined, signal: AbortSignal, layout?: TextLayout): Promise<OcrOutput>;
  /** The script OSD detects on the image (e.g. "Han", "Latin"), or null (no OSD, no answer). */
  detectScript?(file: string, signal: AbortSignal): Promise<string | null>;
  close(): Promise<void>;
}

/** Reads the first bytes of a file and returns its image format, or throws CORRUPT_DOCUMENT. */
export async function imageFormatOf(file: string): Promise<ImageFormat> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const format = sniffImageFormat(head.subarray(0, bytesRead));
    if (!format) throw new ExtractionError('CORRUPT_DOCUMENT', 'The file is not a readable image (its content matches no supported image format)');
    return format;
  } finally {
    await handle.close();
  }
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
    const prepared = await prepareImage(file, await this.impl.formats(), this.tmpDir);
    try {
      return await this.readStraightened(prepared.path, language, undefined, signal);
    } finally {
      await prepared.release();
    }
  }

  async recognizePdfPage(pdfPath: string, page: number, language: OcrLanguage | undefined, signal: AbortSignal): Promise<OcrOutput> {
    // Check the language data before spending time on rendering.
    await this.resolveLanguages(language);
    const rendered = await this.renderer.render(pdfPath, page, signal);
    try {
      return await this.readStraightened(rendered.path, language, rendered.dpi, signal);
    } finally {
      await fs.promises.rm(rendered.path, { force: true });
    }
  }

  /** Reads the page straightened first when it was scanned askew (deskew.ts). */
  private async readStraightened(file: string, language: OcrLanguage | undefined, dpi: number | undefined, signal: AbortSignal): Promise<OcrOutput> {
    const straightened = await straightenPage(file, this.tmpDir);
    if (signal.aborted) throw abortError(signal);
    try {
      return await this.read(straightened ?? file, language, dpi, signal);
    } finally {
      if (straightened) await fs.promises.rm(straightened, { force: true });
    }
  }

  /**
   * One reading of the page as it is. Below ORIENTATION_CHECK_BELOW, a second one with
   * orientation detection (pages turned 180° or 270° read as garbage scoring about 40; 90° pages
   * Tesseract's layout analysis reads itself), the better kept. Still below
   * RETRY_BELOW_CONFIDENCE, further readings, the most confident kept: the CJK model alone
   * (Tesseract's "chi_sim+eng" can prefer English garbage over a weak Chinese reading); with no
   * language given, the language of the script OSD finds (only the CLI has OSD data); vertical
   * text for Japanese and Chinese (a vertical page read horizontally scores about 25).
   *
   * Orientation detection is not run on every page: with the CLI it costs 1.3–1.9 times the CPU
   * of a plain reading (loading the osd model is most of it on small pages), with tesseract.js a
   * second worker (~1 s to start) and 0.2–0.3 s a page; upright pages are the rule.
   */
  private async read(file: string, language: OcrLanguage | undefined, dpi: number | undefined, signal: AbortSignal): Promise<OcrOutput> {
    const langs = await this.resolveLanguages(language);
    let best = await this.impl.recognize(file, langs, dpi, signal, 'upright');
    const confident = (o: OcrOutput, threshold: number) => o.words > 0 && o.meanConfidence >= threshold;
    if (confident(best, ORIENTATION_CHECK_BELOW)) return best;
    // A blank page has no words to turn; a vertical one may have none read horizontally.
    if (best.words > 0) best = betterOutput(best, await this.impl.recognize(file, langs, dpi, signal, 'auto'));
    if (confident(best, RETRY_BELOW_CONFIDENCE)) return best;
    const have = await this.impl.languages();
    const alternatives: { langs: string[]; layout: TextLayout }[] = [];
    if (langs.length > 1) alternatives.push({ langs: [langs[0]], layout: 'auto' });
    let vertical = verticalLanguages(language).filter((l) => have.has(l));
    if (!language && this.impl.detectScript) {
      const script = await this.impl.detectScript(file, signal);
      const usable = (script ? SCRIPT_LANGUAGES[script] ?? [] : []).filter((l) => have.has(l));
      if (usable.length > 0 && SECOND_READING_LANGUAGE.test(usable[0])) alternatives.push({ langs: usable, layout: 'auto' });
      vertical = verticalLanguages(script ?? undefined).filter((l) => have.has(l));
    }
    if (vertical.length > 0) alternatives.push({ langs: vertical, layout: 'vertical' });
    for (const alt of alternatives) {
      if (signal.aborted) throw abortError(signal);
      best = betterOutput(best, await this.impl.recognize(file, alt.langs, dpi, signal, alt.layout));
      if (confident(best, RETRY_BELOW_CONFIDENCE)) break;
    }
    return best;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.impl.close(), this.renderer.close()]);
  }
}
