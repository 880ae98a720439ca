/** Deciding when a page needs OCR, and combining OCR text with the text layer. */
import { distributeLines, type SourceLine } from '@/lib/document/layout';
import { MIN_MEAN_CONFIDENCE } from '../ocr/common';
import type { OcrOutput } from '../ocr/types';
import type { Block } from './blocks';
import { spansText } from './blocks';
import type { Frame } from './runs';
import { cleanText, garbageCount, joinLines, tokens } from './text';

/** OCR output below this mean word confidence (0–100) is treated as noise and not used (the same bar as images). */
export const MIN_OCR_CONFIDENCE = MIN_MEAN_CONFIDENCE;
/** A text layer with fewer non-space characters than this is "no text". */
export const MIN_TEXT_CHARS = 10;

export interface TextLayerStats {
  chars: number;
  garbage: number;
}

export function textLayerStats(frames: Frame[]): TextLayerStats {
  let chars = 0;
  let garbage = 0;
  for (const f of frames) {
    chars += f.chars;
    for (const r of f.runs) if (!r.space) garbage += garbageCount(r.text);
  }
  return { chars, garbage };
}

/** Usable: some real text, and not mostly replacement/control/private-use characters. */
export function textLayerUsable(stats: TextLayerStats): boolean {
  return stats.chars - stats.garbage >= MIN_TEXT_CHARS && stats.garbage <= 0.3 * stats.chars;
}

export function ocrAccepted(out: OcrOutput | null): out is OcrOutput {
  return !!out && out.words > 0 && out.meanConfidence >= MIN_OCR_CONFIDENCE && /\S/.test(out.text);
}

/** OCR text (lines separated by "\n", paragraphs by a blank line) as blocks. */
export function ocrBlocks(text: string, preserveLayout: boolean, lines?: SourceLine[]): Block[] {
  const paragraphs = cleanText(text.replace(/\r\n?/g, '\n'))
    .split(/\n[ \t]*\n+/)
    .map((p) => p.replace(/^\n+|\n+$/g, ''))
    .filter((p) => /\S/.test(p));
  const blocks = paragraphBlocks(paragraphs, preserveLayout);
  if (lines?.length) distributeLines(paragraphs, lines).forEach((geom, i) => (blocks[i].geom = geom.map(({ chars, box }) => ({ chars, box }))));
  return blocks;
}

function paragraphBlocks(paragraphs: string[], preserveLayout: boolean): Block[] {
  if (preserveLayout) return paragraphs.map((p) => ({ kind: 'raw', text: p.replace(/[ \t]+$/gm, '') }));
  return paragraphs.map((p) => {
    const joined = p
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .reduce((acc, l) => joinLines(acc, l), '')
      .replace(/[ \t]+/g, ' ');
    return { kind: 'text', spans: [{ text: joined, bold: false }], lines: p.split('\n').length, size: 0, bold: false, chars: joined.length };
  });
}

function blockText(b: Block): string {
  switch (b.kind) {
    case 'text':
    case 'list':
      return spansText(b.spans);
    case 'table':
      return b.rows.flat().join(' ');
    default:
      return b.text;
  }
}

/**
 * Merge rule (advanced mode, and scanned-looking pages in normal mode):
 * - text layer unusable (no text, or mostly garbage) → the page is the OCR text;
 * - otherwise the text layer's structured blocks stay as they are (headings, lists, tables, exact
 *   characters), and every OCR paragraph that the text layer does not already contain — fewer
 *   than half of its words (CJK: character pairs) occur in the text layer, and it has at least
 *   four of them — is appended after it: text that exists only in images (a scanned insert, a
 *   figure with words, a stamp).
 * OCR output below MIN_OCR_CONFIDENCE is never used.
 */
export function mergeOcr(textBlocks: Block[], usable: boolean, ocr: OcrOutput | null, preserveLayout: boolean): Block[] {
  // Without usable OCR the text layer stays, whatever little it has.
  if (!ocrAccepted(ocr)) return textBlocks;
  const fromOcr = ocrBlocks(ocr.text, preserveLayout, ocr.lines);
  if (!usable) return fromOcr;
  const known = new Set<string>();
  for (const b of textBlocks) for (const t of tokens(blockText(b))) known.add(t);
  const extra = fromOcr.filter((b) => {
    const toks = tokens(blockText(b));
    if (toks.length < 4) return false;
    const found = toks.filter((t) => known.has(t)).length;
    return found < toks.length * 0.5;
  });
  return extra.length ? [...textBlocks, ...extra] : textBlocks;
}
