/**
 * The native `tesseract` command-line engine: one process per page, TSV output parsed into
 * paragraphs, lines and word confidences.
 */
import fs from 'node:fs';
import path from 'node:path';
import { contentChars, type SourceLine } from '@/lib/document/layout';
import { ExtractionError } from '../types';
import { runProgram, type ProgramResult } from '../programs';
import { joinWords, layoutText, meanOf, MIN_ORIENTATION_CONFIDENCE, normalizeOcrText, stderrTail, type ImageFormat } from './common';
import { PdfPageRenderer } from './render';
import { TesseractOcrService, type TesseractEngine, type TextLayout } from './service';
import type { OcrOutput, OcrService, OcrWord } from './types';

export interface TesseractCliInfo {
  binary: string;
  version: string;
  languages: Set<string>;
  formats: Set<ImageFormat>;
}

/** The tesseract binary: QUARRY_TESSERACT_BIN, else `tesseract` on PATH. */
export function tesseractBinary(): string {
  return process.env.QUARRY_TESSERACT_BIN?.trim() || 'tesseract';
}

interface Probe {
  info: Promise<TesseractCliInfo | null>;
  /** When it was started (epoch ms), for refreshing the language list. */
  at: number;
}

const probes = new Map<string, Probe>();

/** A language list is read again for missing data at most this often (`--list-langs` takes ~30 ms). */
export const REFRESH_LANGUAGES_MS = 2_000;

async function runProbe(binary: string): Promise<TesseractCliInfo> {
  const version = await runProgram(binary, ['--version'], { maxStdout: 1 << 20 });
  if (version.code !== 0) throw new Error(`${binary} --version exited with ${version.code ?? 'a signal'}`);
  const versionText = `${version.stdout.toString('utf8')}\n${version.stderr}`;
  const list = await runProgram(binary, ['--list-langs'], { maxStdout: 1 << 20 });
  if (list.code !== 0) throw new Error(`${binary} --list-langs exited with ${list.code ?? 'a signal'}`);
  const languages = new Set(
    list.stdout
      .toString('utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.trim())
      .filter((l) => /^[A-Za-z0-9_]+$/.test(l)),
  );
  const formats = new Set<ImageFormat>(['png', 'jpeg', 'tiff', 'bmp']);
  if (/libwebp/i.test(versionText)) formats.add('webp');
  if (/libgif/i.test(versionText)) formats.add('gif');
  const match = /tesseract\s+v?([\d.]+\S*)/i.exec(versionText);
  return { binary, version: match?.[1] ?? 'unknown', languages, formats };
}

/**
 * What the installed tesseract can do (version, language data, image formats), or null when it
 * does not run. Only an answer is kept for the process: a missing program (ENOENT) and a list of
 * languages. A run that failed (killed, a non-zero exit) gives null this once and is tried again
 * next time, and the task's limits stopping the check reject; neither is remembered, so that one
 * bad moment does not decide for the worker's life which engine reads and in which languages.
 * `refresh` reads the language list again (at most every REFRESH_LANGUAGES_MS), for data
 * installed after the first check.
 */
export function probeTesseractCli(binary = tesseractBinary(), options: { refresh?: boolean } = {}): Promise<TesseractCliInfo | null> {
  const known = probes.get(binary);
  if (known && !(options.refresh && Date.now() - known.at >= REFRESH_LANGUAGES_MS)) return known.info;
  const info = runProbe(binary).catch((err: unknown) => {
    if (probes.get(binary)?.info === info) probes.delete(binary);
    // Stopped by the task's limits or cancelled: that says nothing about the program.
    if (err instanceof ExtractionError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      probes.set(binary, { info: Promise.resolve(null), at: Date.now() });
    } else if (known) {
      // The earlier answer stands when reading the list again failed.
      probes.set(binary, known);
      return known.info;
    }
    return null;
  });
  probes.set(binary, { info, at: Date.now() });
  return info;
}

/** Forgets probe results (tests that change QUARRY_TESSERACT_BIN). */
export function resetTesseractCliProbe(): void {
  probes.clear();
}

/**
 * Parses `tesseract ... tsv` output. Paragraphs are (page, block, paragraph) groups, lines are
 * their line_num groups; the confidence is the mean over words with conf >= 0.
 */
export function parseTesseractTsv(tsv: string): OcrOutput {
  const paragraphs = new Map<string, Map<string, string[]>>();
  const confidences: number[] = [];
  const geometry = new TsvGeometry();
  let words = 0;
  for (const row of tsv.split('\n')) {
    const cols = row.replace(/\r$/, '').split('\t');
    geometry.row(cols);
    if (cols.length < 12 || cols[0] !== '5') continue;
    const text = cols.slice(11).join(' ').trim();
    if (!text) continue;
    const [, pageNum, blockNum, parNum, lineNum] = cols;
    const parKey = `${pageNum}/${blockNum}/${parNum}`;
    let lines = paragraphs.get(parKey);
    if (!lines) {
      lines = new Map();
      paragraphs.set(parKey, lines);
    }
    const lineWords = lines.get(lineNum) ?? [];
    lineWords.push(text);
    lines.set(lineNum, lineWords);
    words += 1;
    const conf = Number.parseFloat(cols[10]);
    if (Number.isFinite(conf) && conf >= 0) confidences.push(conf);
  }
  const text = layoutText([...paragraphs.values()].map((lines) => [...lines.values()].map(joinWords)));
  const out: OcrOutput = { text, meanConfidence: meanOf(confidences), words, lines: geometry.lines() };
  const size = geometry.size();
  if (size) {
    out.size = size;
    out.wordBoxes = geometry.words();
  }
  return out;
}

/** Line boxes from TSV rows: level 1 is the page (its size), 4 a line, 5 a word of a line. */
class TsvGeometry {
  private width = 0;
  private height = 0;
  private readonly byLine = new Map<string, { box: [number, number, number, number]; chars: number; group: number }>();
  private readonly groups = new Map<string, number>();
  private readonly wordRows: { text: string; box: [number, number, number, number]; line: string; confidence: number }[] = [];

  row(cols: string[]): void {
    if (cols.length < 10) return;
    const [level, pageNum, blockNum, parNum, lineNum] = cols;
    const [left, top, width, height] = cols.slice(6, 10).map(Number);
    if (![left, top, width, height].every(Number.isFinite)) return;
    if (level === '1') {
      this.width = width;
      this.height = height;
      return;
    }
    const key = `${pageNum}/${blockNum}/${parNum}/${lineNum}`;
    if (level === '4') {
      const parKey = `${pageNum}/${blockNum}/${parNum}`;
      if (!this.groups.has(parKey)) this.groups.set(parKey, this.groups.size);
      this.byLine.set(key, { box: [left, top, left + width, top + height], chars: 0, group: this.groups.get(parKey)! });
    } else if (level === '5' && cols.length >= 12) {
      const line = this.byLine.get(key);
      const text = cols.slice(11).join(' ').trim();
      if (line) line.chars += contentChars(text);
      const confidence = Number.parseFloat(cols[10]);
      if (text && width > 0 && height > 0) {
        this.wordRows.push({ text, box: [left, top, left + width, top + height], line: key, confidence: Number.isFinite(confidence) ? confidence : -1 });
      }
    }
  }

  size(): { width: number; height: number } | undefined {
    return this.width > 0 && this.height > 0 ? { width: this.width, height: this.height } : undefined;
  }

  /** The words with their boxes in fractions of the page, lines numbered in reading order. */
  words(): OcrWord[] {
    const { width: w, height: h } = this;
    const lineIds = new Map<string, number>();
    return this.wordRows.map((r) => {
      if (!lineIds.has(r.line)) lineIds.set(r.line, lineIds.size);
      return { text: r.text, box: [r.box[0] / w, r.box[1] / h, r.box[2] / w, r.box[3] / h], line: lineIds.get(r.line)!, confidence: r.confidence };
    });
  }

  lines(): SourceLine[] | undefined {
    if (!(this.width > 0 && this.height > 0)) return undefined;
    const { width: w, height: h } = this;
    return [...this.byLine.values()]
      .filter((l) => l.chars > 0)
      .map((l) => ({ chars: l.chars, group: l.group, box: [l.box[0] / w, l.box[1] / h, l.box[2] / w, l.box[3] / h] }));
  }
}

/**
 * One run's result from its `txt` output (text with Tesseract's own spacing) and `tsv` output
 * (word count and confidences).
 */
export function parseTesseractOutput(txt: string | null, tsv: string): OcrOutput {
  const fromTsv = parseTesseractTsv(tsv);
  return txt === null ? fromTsv : { ...fromTsv, text: normalizeOcrText(txt) };
}

/** Parses `tesseract ... --psm 0` (OSD) output: the script when one was found. */
export function parseOsdScript(output: string): string | null {
  const script = /^Script:\s*(\S+)/m.exec(output)?.[1];
  // A confidence of 0 is a tie with the runner-up script, still worth a reading when the page
  // read badly (the vertical Japanese sample gets "Han" at 0.00).
  const confidence = Number(/^Script confidence:\s*([\d.]+)/m.exec(output)?.[1] ?? '-1');
  return script && confidence >= 0 ? script : null;
}

const UNREADABLE = /pixRead|cannot be read|decode failed|Error in find|truncated|Unknown format|not supported/i;

/**
 * Runs tesseract, once more when something outside killed it (a signal that was not the task's
 * own limits, which reject: the kernel's OOM killer on a crowded machine, say). A reading killed
 * half-way is no answer about the page, and taking it as one made the same file read differently
 * depending on what else ran.
 */
async function runTesseract(binary: string, args: string[], signal: AbortSignal): Promise<ProgramResult> {
  const first = await runProgram(binary, args, { signal });
  if (first.code !== null) return first;
  return runProgram(binary, args, { signal });
}

class TesseractCliEngine implements TesseractEngine {
  readonly name = 'tesseract-cli';

  constructor(
    private readonly binary: string,
    private readonly tmpDir: string,
  ) {}

  private async info(refresh = false): Promise<TesseractCliInfo> {
    const info = await probeTesseractCli(this.binary, { refresh });
    if (!info) throw new ExtractionError('OCR_FAILED', `The tesseract program (${this.binary}) is not installed or does not run`);
    return info;
  }

  async languages(options: { refresh?: boolean } = {}): Promise<Set<string>> {
    return (await this.info(options.refresh)).languages;
  }

  async formats(): Promise<Set<ImageFormat>> {
    return (await this.info()).formats;
  }

  async recognize(file: string, langs: string[], dpi: number | undefined, signal: AbortSignal, layout: TextLayout = 'auto'): Promise<OcrOutput> {
    // An absolute path can never be taken for an option.
    const image = path.resolve(file);
    await fs.promises.mkdir(this.tmpDir, { recursive: true });
    const base = path.join(path.resolve(this.tmpDir), `tesseract-${process.pid}-${process.hrtime.bigint()}`);
    const args = [image, base, '-l', langs.join('+'), ...(await this.layoutArgs(layout))];
    if (dpi) args.push('--dpi', String(dpi));
    args.push('txt', 'tsv');
    try {
      const result = await runTesseract(this.binary, args, signal);
      if (result.code !== 0) {
        // Messages reach API clients: no server paths in them.
        const detail = stderrTail(result.stderr).split(image).join('<image>').split(base).join('<output>');
        if (UNREADABLE.test(result.stderr)) {
          throw new ExtractionError('CORRUPT_DOCUMENT', `The image could not be decoded${detail ? ` (${detail})` : ''}`);
        }
        const how = result.code === null ? 'was killed by a signal, twice' : `failed (exit code ${result.code})`;
        throw new ExtractionError('OCR_FAILED', `Tesseract ${how}${detail ? `: ${detail}` : ''}`);
      }
      const [txt, tsv] = await Promise.all([
        fs.promises.readFile(`${base}.txt`, 'utf8').catch(() => null),
        fs.promises.readFile(`${base}.tsv`, 'utf8').catch(() => null),
      ]);
      if (tsv === null) throw new ExtractionError('OCR_FAILED', 'Tesseract wrote no result');
      return parseTesseractOutput(txt, tsv);
    } finally {
      await Promise.all([fs.promises.rm(`${base}.txt`, { force: true }), fs.promises.rm(`${base}.tsv`, { force: true })]);
    }
  }

  /**
   * Page segmentation per layout. 'auto' is `--psm 1` (segmentation with orientation detection:
   * pages turned by 90°, 180° or 270° are read upright in one pass) with OSD's margin lowered
   * from 7 to 2 (see MIN_ORIENTATION_CONFIDENCE). Measured in CPU time against a plain `--psm 3`
   * reading: 1.4–1.9 times on phototest, 1.3–1.5 times on a 300-dpi A4 scan (loading the osd
   * model is a fixed ~0.2 s); detecting with `--psm 0` and reading again costs 2.1–2.6 times.
   * 'vertical' is `--psm 5`, a block of vertical text, for the *_vert models.
   */
  private async layoutArgs(layout: TextLayout): Promise<string[]> {
    if (layout === 'vertical') return ['--psm', '5'];
    if (layout === 'auto' && (await this.info()).languages.has('osd')) return ['--psm', '1', '-c', `min_orientation_margin=${MIN_ORIENTATION_CONFIDENCE}`];
    return ['--psm', '3'];
  }

  /**
   * The script OSD finds. Tesseract's own verdict on the page (exit 0 with a script, or an exit
   * status such as "Too few characters") is the answer; a run killed before it could answer is
   * run again (runTesseract) and, killed twice, fails the reading rather than passing for "no
   * script", which had the page read in English only.
   */
  async detectScript(file: string, signal: AbortSignal): Promise<string | null> {
    const info = await this.info();
    if (!info.languages.has('osd')) return null;
    const result = await runTesseract(this.binary, [path.resolve(file), 'stdout', '--psm', '0'], signal);
    if (result.code === null) throw new ExtractionError('OCR_FAILED', 'Tesseract was killed by a signal, twice, while detecting the script of the page');
    if (result.code !== 0) return null;
    return parseOsdScript(result.stdout.toString('utf8'));
  }

  async close(): Promise<void> {}
}

/**
 * OCR with the native tesseract program (QUARRY_TESSERACT_BIN or `tesseract`). Fails with
 * OCR_FAILED on use when the program is missing; see `probeTesseractCli` to check first.
 */
export function createTesseractCliEngine(tmpDir: string, options: { binary?: string; renderer?: PdfPageRenderer } = {}): OcrService {
  return new TesseractOcrService(new TesseractCliEngine(options.binary ?? tesseractBinary(), tmpDir), tmpDir, options.renderer);
}
