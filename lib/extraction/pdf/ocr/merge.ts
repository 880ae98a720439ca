/** OCR text as blocks, and combined with the text layer of the same page. */
import { distributeLines, type SourceLine } from '@/lib/document/layout';
import type { OcrOutput } from '@/lib/extraction/ocr/types';
import type { Block } from '../layout/blocks';
import { spansText } from '../layout/blocks';
import { cleanText, joinLines, tokens } from '../read/text';
import { MIN_OCR_CONFIDENCE, OCR_KNOWN_SHARE, OCR_MIN_PARAGRAPH_TOKENS } from '../settings';

/** A reading with text in it, however sure the engine is of it. */
export function ocrRead(out: OcrOutput | null): out is OcrOutput {
  return !!out && out.words > 0 && /\S/.test(out.text);
}

/** A reading sure enough (MIN_OCR_CONFIDENCE) to be added to a usable text layer, or laid out for tables. */
export function ocrAccepted(out: OcrOutput | null): out is OcrOutput {
  return ocrRead(out) && out.meanConfidence >= MIN_OCR_CONFIDENCE;
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

/** A paragraph of plain text read from `lines` lines (no size or weight: OCR does not tell them). */
export function plainTextBlock(text: string, lines: number): Block {
  return { kind: 'text', spans: [{ text, bold: false }], lines, size: 0, bold: false, chars: text.length };
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
    return plainTextBlock(joined, p.split('\n').length);
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
 * - text layer unusable (no text, or mostly garbage) → the page is the OCR text, however unsure
 *   the engine is of it (the page's confidence is in the document's metadata: index.ts): a short
 *   line or a poor scan is still what the page says, and nothing better is there;
 * - otherwise the text layer's structured blocks stay as they are (headings, lists, tables, exact
 *   characters), and every OCR paragraph that the text layer does not already contain — fewer
 *   than half of its words (CJK: character pairs) occur in the text layer, and it has at least
 *   OCR_MIN_PARAGRAPH_TOKENS of them — is appended after it: text that exists only in images (a scanned insert, a
 *   figure with words, a stamp).
 * OCR output below MIN_OCR_CONFIDENCE is never added to a usable text layer.
 */
export function mergeOcr(textBlocks: Block[], usable: boolean, ocr: OcrOutput | null, preserveLayout: boolean): Block[] {
  if (!usable) return ocrRead(ocr) ? ocrBlocks(ocr.text, preserveLayout, ocr.lines) : textBlocks;
  // Without a sure reading the text layer stays as it is.
  if (!ocrAccepted(ocr)) return textBlocks;
  const fromOcr = ocrBlocks(ocr.text, preserveLayout, ocr.lines);
  const known = new Set<string>();
  for (const b of textBlocks) for (const t of tokens(blockText(b))) known.add(t);
  const extra = fromOcr.filter((b) => {
    const toks = tokens(blockText(b));
    if (toks.length < OCR_MIN_PARAGRAPH_TOKENS) return false;
    const found = toks.filter((t) => known.has(t)).length;
    return found < toks.length * OCR_KNOWN_SHARE;
  });
  return extra.length ? [...textBlocks, ...extra] : textBlocks;
}
