/**
 * Turns a Tesseract engine (the native CLI or tesseract.js) into an OcrService: checks the image
 * format, decodes what the engine cannot read (prepare.ts), picks the languages, renders PDF
 * pages, and takes further readings of doubtful pages (another language, vertical text, no
 * orientation detection).
 */
import fs from 'node:fs';
import { ExtractionError } from '../types';
import { abortError, betterOutput, ORIENTATION_CHECK_BELOW, RETRY_BELOW_CONFIDENCE, SECOND_READING_LANGUAGE, sniffImageFormat, type ImageFormat } from './common';
import { straightenPage } from './deskew';
import { imageHasInk } from './ink';
import { installedLanguagesText, languageSpec, requiredPack, SCRIPT_LANGUAGES, verticalLanguages, type OcrLanguageSpec } from './languages';
import { prepareImage } from './prepare';
import { PdfPageRenderer } from './render';
import { imageGeometry } from './rules';
import type { OcrOutput, OcrService, OcrWants } from './types';
import { textHeight } from './word-lines';

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
  /** Language codes the engine has data for; `refresh` looks again (data installed since the last look). */
  languages(options?: { refresh?: boolean }): Promise<Set<string>>;
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

  /**
   * What to read `language` with: its spec and the installed packs of it (primary first), or
   * OCR_FAILED naming the missing data and what is installed. A missing pack is looked for once
   * more before failing: the list of installed data may predate its installation.
   */
  async resolveLanguages(language: string | undefined): Promise<{ spec: OcrLanguageSpec; langs: string[] }> {
    const spec = languageSpec(language);
    const required = requiredPack(spec);
    let have = await this.impl.languages();
    if (!have.has(required)) have = await this.impl.languages({ refresh: true });
    if (!have.has(required)) {
      throw new ExtractionError(
        'OCR_FAILED',
        `OCR language data "${required}" (for language ${language ?? 'en'}) is not installed for ${this.impl.name}; ` +
          `languages it can read: ${installedLanguagesText(have)}`,
      );
    }
    return { spec, langs: spec.packs.filter((l) => have.has(l)) };
  }

  async recognizeImage(file: string, language: string | undefined, signal: AbortSignal, want: OcrWants = {}): Promise<OcrOutput> {
    if (signal.aborted) throw abortError(signal);
    const prepared = await prepareImage(file, await this.impl.formats(), this.tmpDir);
    try {
      return await this.readStraightened(prepared.path, language, undefined, signal, want);
    } finally {
      await prepared.release();
    }
  }

  async recognizePdfPage(pdfPath: string, page: number, language: string | undefined, signal: AbortSignal, want: OcrWants = {}): Promise<OcrOutput> {
    // Check the language data before spending time on rendering.
    await this.resolveLanguages(language);
    const { out, scanDpi } = await this.readRendered(pdfPath, page, language, signal, want);
    // A coarse scan rendered finer that reads badly so (noise grown with the letters) is read at
    // its own resolution too, the better reading kept.
    if (scanDpi && !out.blank && !(out.words > 0 && out.meanConfidence >= RETRY_BELOW_CONFIDENCE)) {
      return betterOutput(out, (await this.readRendered(pdfPath, page, language, signal, want, scanDpi)).out);
    }
    return out;
  }

  /** Page `page` rendered (at `dpi`, or as render-dpi.ts chooses) and read; the scan's own dpi when the render was finer. */
  private async readRendered(pdfPath: string, page: number, language: string | undefined, signal: AbortSignal, want: OcrWants, dpi?: number): Promise<{ out: OcrOutput; scanDpi?: number }> {
    const rendered = await this.renderer.render(pdfPath, page, signal, dpi);
    try {
      return { out: await this.readStraightened(rendered.path, language, rendered.dpi, signal, want), scanDpi: rendered.scanDpi };
    } finally {
      await fs.promises.rm(rendered.path, { force: true });
    }
  }

  /**
   * Reads the page straightened first when it was scanned askew (deskew.ts); with `want.rules`,
   * also finds the ruling lines of the image the words were read in, takes rules read as
   * letters off the words and fits their boxes to their ink (rules.ts).
   */
  private async readStraightened(file: string, language: string | undefined, dpi: number | undefined, signal: AbortSignal, want: OcrWants): Promise<OcrOutput> {
    const straightened = await straightenPage(file, this.tmpDir);
    if (signal.aborted) throw abortError(signal);
    try {
      const out = await this.read(straightened ?? file, language, dpi, signal);
      return want.rules ? await this.withRules(out, straightened ?? file, signal) : out;
    } finally {
      if (straightened) await fs.promises.rm(straightened, { force: true });
    }
  }

  /** The reading with the image's ruling lines, and its words without rules read as letters, fitted to their ink (rules.ts). */
  private async withRules(out: OcrOutput, file: string, signal: AbortSignal): Promise<OcrOutput> {
    if (!out.wordBoxes?.length || !out.size) return out;
    const geometry = await imageGeometry(file, out.wordBoxes, textHeight(out.wordBoxes) * out.size.height);
    if (signal.aborted) throw abortError(signal);
    return geometry ? { ...out, rules: geometry.rules, wordBoxes: geometry.words } : out;
  }

  /**
   * One reading of the page as it is. Below ORIENTATION_CHECK_BELOW, a second one with
   * orientation detection (pages turned 180° or 270° read as garbage scoring about 40; 90° pages
   * Tesseract's layout analysis reads itself), the better kept. Still below
   * RETRY_BELOW_CONFIDENCE, further readings, the most confident kept: the CJK model alone
   * (Tesseract's "chi_sim+eng" can prefer English garbage over a weak Chinese reading); with no
   * language given, the language of the script OSD finds (only the CLI has OSD data); vertical
   * text for Japanese and Chinese (a vertical page read horizontally scores about 25). A *_vert
   * language asked for by name is read as vertical columns first.
   *
   * Orientation detection is not run on every page: with the CLI it costs 1.3–1.9 times the CPU
   * of a plain reading (loading the osd model is most of it on small pages), with tesseract.js a
   * second worker (~1 s to start) and 0.2–0.3 s a page; upright pages are the rule.
   *
   * A page without words is checked for ink (ink.ts): a blank one is `blank` and read no further.
   */
  private async read(file: string, language: string | undefined, dpi: number | undefined, signal: AbortSignal): Promise<OcrOutput> {
    const { spec, langs } = await this.resolveLanguages(language);
    let have = await this.impl.languages();
    const reading = async (use: string[], layout: TextLayout): Promise<OcrOutput> => ({
      ...(await this.impl.recognize(file, use, dpi, signal, layout)),
      languages: use,
    });
    const confident = (o: OcrOutput, threshold: number) => o.words > 0 && o.meanConfidence >= threshold;
    let vertical = spec.vertical.filter((l) => have.has(l));
    let first: OcrOutput | null = null;
    if (spec.verticalFirst) {
      first = await reading(vertical, 'vertical');
      if (confident(first, RETRY_BELOW_CONFIDENCE) || langs.length === 0) return this.settle(first, file);
      vertical = [];
    }
    const upright = await reading(langs, 'upright');
    let best = first ? betterOutput(first, upright) : upright;
    if (confident(best, ORIENTATION_CHECK_BELOW)) return best;
    if (best.words === 0 && !(await imageHasInk(file))) return { ...best, blank: true };
    // A vertical page may have no words read horizontally: nothing there to turn.
    if (upright.words > 0) best = betterOutput(best, await reading(langs, 'auto'));
    if (confident(best, RETRY_BELOW_CONFIDENCE)) return best;
    const alternatives: { langs: string[]; layout: TextLayout }[] = [];
    if (langs.length > 1) alternatives.push({ langs: [langs[0]], layout: 'auto' });
    if (!language && this.impl.detectScript) {
      const script = await this.impl.detectScript(file, signal);
      const wanted = script ? SCRIPT_LANGUAGES[script] ?? [] : [];
      // The script's data may have been installed since the engine last looked.
      if (wanted.length > 0 && !have.has(wanted[0])) have = await this.impl.languages({ refresh: true });
      const usable = wanted.filter((l) => have.has(l));
      if (usable.length > 0 && SECOND_READING_LANGUAGE.test(usable[0])) alternatives.push({ langs: usable, layout: 'auto' });
      vertical = verticalLanguages(script ?? undefined).filter((l) => have.has(l));
    }
    if (vertical.length > 0) alternatives.push({ langs: vertical, layout: 'vertical' });
    for (const alt of alternatives) {
      if (signal.aborted) throw abortError(signal);
      best = betterOutput(best, await reading(alt.langs, alt.layout));
      if (confident(best, RETRY_BELOW_CONFIDENCE)) break;
    }
    return this.settle(best, file);
  }

  /** The kept reading, marked `blank` when it found no words on a page without ink. */
  private async settle(best: OcrOutput, file: string): Promise<OcrOutput> {
    return best.words === 0 && !(await imageHasInk(file)) ? { ...best, blank: true } : best;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.impl.close(), this.renderer.close()]);
  }
}
