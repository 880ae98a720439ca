/**
 * An OCR reading as a text layer: every recognised word a run of an upright frame, the ruling
 * lines found in the image (ocr/rules.ts) the page's graphics, so that a scanned page goes through
 * the same frame stages (grids, rows, reading order, borderless tables, blocks) as a born-digital
 * one.
 *
 * Coordinates are made points the way the frame stages' thresholds expect them: the image is
 * scaled so that the page's median line of text has a font size of OCR_BODY_SIZE points. A
 * word's size and baseline are its line's (Tesseract's words of one line share them, see
 * lineMetrics); lines about the median's size (OCR_SAME_SIZE) have the body size, others a size
 * in proportion.
 */
import type { OcrOutput } from '@/lib/extraction/ocr/types';
import { wordLines, type WordLine } from '@/lib/extraction/ocr/word-lines';
import type { PageGraphics } from '../read/graphics';
import type { Frame, Run } from '../read/runs';
import { OCR_BASELINE_SHARE, OCR_BODY_SIZE, OCR_CAP_HEIGHT, OCR_LINE_EM, OCR_MIN_UPRIGHT_SHARE, OCR_SAME_SIZE } from '../settings';

export interface OcrPage {
  frame: Frame;
  graphics: PageGraphics;
  /** The page's size in the frame's points. */
  page: { width: number; height: number };
}

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

/**
 * Whether the words lie as upright text in the image: a line's words follow each other along x
 * (left to right, or right to left for Hebrew and Arabic), each wider than its line is high when
 * it has three letters or more. A page Tesseract turned while reading it has its boxes in the
 * image as it was: those words run down the image or backwards.
 */
function upright(lines: readonly WordLine[], aspect: number): boolean {
  let pairs = 0;
  let forward = 0;
  for (const l of lines) {
    const rtl = l.words.some((w) => RTL.test(w.text));
    for (let i = 1; i < l.words.length; i++) {
      const a = l.words[i - 1].box;
      const b = l.words[i].box;
      pairs++;
      if (rtl ? b[2] <= a[0] + (a[2] - a[0]) * 0.5 : b[0] >= a[2] - (a[2] - a[0]) * 0.5) forward++;
    }
  }
  let long = 0;
  let wide = 0;
  for (const l of lines) {
    for (const w of l.words) {
      if ([...w.text].length < 3) continue;
      long++;
      if ((w.box[2] - w.box[0]) * aspect > (l.bottom - l.top)) wide++;
    }
  }
  return (pairs === 0 || forward >= OCR_MIN_UPRIGHT_SHARE * pairs) && (long === 0 || wide >= OCR_MIN_UPRIGHT_SHARE * long);
}

/** Letters and signs that reach below the baseline: a word with any of them does not end on it. */
const DESCENDS = /[gjpqyQ,;()[\]{}|/@$_]/;
const LATIN_OR_DIGIT = /[A-Za-z0-9]/;
/** A word that ends on the baseline (Latin letters and digits without descenders). */
const onBaseline = (text: string) => LATIN_OR_DIGIT.test(text) && !DESCENDS.test(text);
/** A word reaching the cap height or above (capitals, digits, ascenders), Latin script only. */
const TALL = /^[\p{Script=Latin}\p{N}\p{P}\p{S}]*[A-PR-Z0-9bdfhklt][\p{Script=Latin}\p{N}\p{P}\p{S}]*$/u;

const middle = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];

/**
 * A line's baseline and its text height (baseline to cap height), in fractions of the image:
 * read from its Latin words where it has them (where words without descenders end, where
 * capitals, digits and ascenders start), else from its box (ascenders to descenders, as for CJK
 * whose characters fill the em).
 */
function lineMetrics(l: WordLine): { baseline: number; height: number } {
  const bottoms = l.words.filter((w) => onBaseline(w.text)).map((w) => w.box[3]);
  const tops = l.words.filter((w) => TALL.test(w.text)).map((w) => w.box[1]);
  if (bottoms.length && tops.length) {
    const baseline = middle(bottoms);
    const top = middle(tops);
    if (baseline > top) return { baseline, height: (baseline - top) / OCR_CAP_HEIGHT };
  }
  return { baseline: l.bottom - (l.bottom - l.top) * (1 - OCR_BASELINE_SHARE), height: (l.bottom - l.top) / OCR_LINE_EM };
}

/** The reading as an upright frame of runs with the image's ruling lines; null without word boxes, or when the words do not lie upright. */
export function ocrPage(out: OcrOutput): OcrPage | null {
  const words = out.wordBoxes;
  const size = out.size;
  if (!words?.length || !size || !(size.width > 0 && size.height > 0)) return null;
  const aspect = size.width / size.height;
  const lines = wordLines(words);
  if (!upright(lines, aspect)) return null;
  const metrics = lines.map(lineMetrics);
  const body = middle(metrics.map((m) => m.height));
  if (!(body > 0)) return null;
  // Points per fraction of the image's height and width.
  const height = OCR_BODY_SIZE / body;
  const width = height * aspect;
  const runs: Run[] = [];
  let chars = 0;
  lines.forEach((l, i) => {
    // Lines about the body's size are of it: OCR measures sizes to a pixel or two.
    const ratio = metrics[i].height / body;
    const fontSize = OCR_BODY_SIZE * (ratio >= OCR_SAME_SIZE[0] && ratio <= OCR_SAME_SIZE[1] ? 1 : ratio);
    const y = metrics[i].baseline * height;
    let previous: Run | null = null;
    for (const w of l.words) {
      const text = w.text.trim();
      if (!text) continue;
      chars += text.replace(/\s+/g, '').length;
      const x0 = w.box[0] * width;
      // Tesseract's words are words: a space between two of one line, however narrow (the line
      // stages leave it out between CJK characters, as in a text layer).
      if (previous) runs.push({ ...previous, text: ' ', x0: previous.x1, x1: Math.max(previous.x1, x0), space: true, rtl: false });
      previous = {
        text,
        x0,
        x1: w.box[2] * width,
        y,
        size: fontSize,
        bold: false,
        mono: false,
        monoGuess: false,
        rtl: RTL.test(text),
        space: false,
      };
      runs.push(previous);
    }
  });
  const rules = out.rules ?? { h: [], v: [] };
  const graphics: PageGraphics = {
    hLines: rules.h.map((r) => ({ y: r.y * height, x0: r.x0 * width, x1: r.x1 * width })),
    vLines: rules.v.map((r) => ({ x: r.x * width, y0: r.y0 * height, y1: r.y1 * height })),
    images: 1,
    largestImage: 1,
  };
  return { frame: { key: 'q0', runs, chars, width, height }, graphics, page: { width, height } };
}
