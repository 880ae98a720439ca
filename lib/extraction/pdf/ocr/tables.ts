/**
 * Whether a table found in a scanned page's OCR words was read as text, and the text of its rows
 * when it was not (stages.ts, layoutOcrTables): the labels and bars of a chart, a photo.
 */
import type { OcrOutput } from '@/lib/extraction/ocr/types';
import type { Block } from '../layout/blocks';
import { OCR_TABLE_MAX_JUNK_CELLS, OCR_TABLE_MIN_CONFIDENCE } from '../settings';
import { plainTextBlock } from './merge';

/** The mean confidence of the OCR words inside a table block's lines (page fractions, as both are once placed). */
function tableConfidence(table: Block, out: OcrOutput): number {
  const boxes = (table.geom ?? []).map((g) => g.box);
  const inside = (out.wordBoxes ?? []).filter((w) => {
    const cx = (w.box[0] + w.box[2]) / 2;
    const cy = (w.box[1] + w.box[3]) / 2;
    return w.confidence >= 0 && boxes.some((box) => cx >= box[0] && cx <= box[2] && cy >= box[1] && cy <= box[3]);
  });
  return inside.length ? inside.reduce((sum, w) => sum + w.confidence, 0) / inside.length : 0;
}

/**
 * Whether OCR read a table's words as text: their mean confidence at least
 * OCR_TABLE_MIN_CONFIDENCE, and under OCR_TABLE_MAX_JUNK_CELLS of its filled cells strokes
 * read as glyphs (no letter or digit, and a "|", "_", "~" or bracket: a chart's bars and axes;
 * a dash alone is a table's "none").
 */
export function ocrTableReadable(table: Extract<Block, { kind: 'table' }>, out: OcrOutput): boolean {
  if (tableConfidence(table, out) < OCR_TABLE_MIN_CONFIDENCE) return false;
  const filled = table.rows.flat().filter((c) => /\S/.test(c));
  const junk = filled.filter((c) => !/[\p{L}\p{N}]/u.test(c) && /[|[\]{}~_]/.test(c)).length;
  return junk < OCR_TABLE_MAX_JUNK_CELLS * filled.length;
}

/** A table OCR was unsure of (the words of a chart, a photo) as the text of its rows, one paragraph each. */
export function untabled(table: Extract<Block, { kind: 'table' }>): Block[] {
  return table.rows
    .map((row) => row.filter((c) => /\S/.test(c)).join(' '))
    .filter((text) => /\S/.test(text))
    .map((text) => plainTextBlock(text, 1));
}
