/** Page furniture: page numbers and running header/footer candidates in the page margins. */
import type { Frame } from '../read/runs';
import type { Block } from './blocks';
import { lineGeom } from './geometry';
import { leafLines } from './lines';
import { rowSegments } from './rows';
import { medianOf, type Furniture, type Row } from './util';
import {
  FURNITURE_FAR_EDGE,
  FURNITURE_FAR_GAP,
  FURNITURE_MAX_CHARS,
  FURNITURE_MAX_ROWS,
  FURNITURE_MAX_SIZE,
  FURNITURE_NEAR_EDGE,
  FURNITURE_NEAR_GAP,
  FURNITURE_STACK_GAP,
} from '../settings';

/** A roman numeral (front matter pages: "iv", "xii"), not any word of its letters ("mild", "did"). */
const ROMAN = '(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})';
const PAGE_NUMBER = new RegExp(
  `^(?:(?:page|p\\.|seite|página|pagina|pág\\.|стр\\.?)\\s*)?[-–—]?\\s*(?:\\d{1,4}|${ROMAN})\\s*[-–—]?(?:\\s*(?:\\/|of|von|de|из)\\s*\\d{1,4})?$`,
  'i',
);

function furnitureKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
}

function rowText(row: Row): string {
  return row.runs
    .filter((r) => !r.space)
    .sort((a, b) => a.x0 - b.x0)
    .map((r) => r.text.trim())
    .join(' ')
    .trim();
}

/**
 * The rows at the top and bottom of an upright page (up to three stacked rows, such as a journal
 * line over an author line), when the group is isolated from the text by a clear gap in the page
 * margin: page numbers are dropped; other short lines are marked as furniture candidates (dropped
 * later when the same text repeats on many pages).
 */
export function markFurniture(rows: Row[], frame: Frame): { drop: Set<Row>; furniture: Map<Row, Furniture> } {
  const drop = new Set<Row>();
  const furniture = new Map<Row, Furniture>();
  if (rows.length < 2) return { drop, furniture };
  const sorted = rows.slice().sort((a, b) => a.y - b.y);
  const bodySize = medianOf(rows, (r) => r.size);
  const classify = (row: Row) => {
    const text = rowText(row);
    if (PAGE_NUMBER.test(text)) drop.add(row);
    // Headers and footers are set about as small as the body text (a title is not furniture).
    else if (text.length <= FURNITURE_MAX_CHARS && row.size <= bodySize * FURNITURE_MAX_SIZE) {
      const m = /^(\d{1,4})\b|\b(\d{1,4})$/.exec(text);
      const label = m ? Number(m[1] ?? m[2]) : undefined;
      furniture.set(row, { key: furnitureKey(text), label });
    }
  };
  const margin = (seq: Row[], isTop: boolean) => {
    const gapAfter = (k: number) => (isTop ? seq[k + 1].top - seq[k].bottom : seq[k].top - seq[k + 1].bottom);
    let k = 0;
    while (k < FURNITURE_MAX_ROWS - 1 && k + 2 < seq.length && gapAfter(k) < FURNITURE_STACK_GAP * seq[k].size) k++;
    const last = seq[k];
    // Isolated from the text by a clear gap, in the outer part of the page.
    const edge = isTop ? last.bottom / frame.height : 1 - last.top / frame.height;
    const gap = gapAfter(k);
    if (!((edge < FURNITURE_NEAR_EDGE && gap >= FURNITURE_NEAR_GAP * last.size) || (edge < FURNITURE_FAR_EDGE && gap >= FURNITURE_FAR_GAP * last.size))) return;
    for (let i = 0; i <= k; i++) classify(seq[i]);
  };
  margin(sorted, true);
  margin(sorted.slice().reverse(), false);
  return { drop, furniture };
}

/**
 * The page numbers markFurniture took out of the rows, as text blocks marked as furniture (the
 * document model keeps them apart from the content): those in the top margin to go before the
 * frame's blocks, those in the bottom margin after them.
 */
export function pageNumberBlocks(rows: Row[], drop: ReadonlySet<Row>, frame: Frame): { above: Block[]; below: Block[] } {
  const above: Block[] = [];
  const below: Block[] = [];
  if (drop.size === 0) return { above, below };
  rows.forEach((row, i) => {
    if (!drop.has(row)) return;
    for (const line of leafLines(rowSegments(row, i))) {
      (row.y < frame.height / 2 ? above : below).push({
        kind: 'text',
        spans: line.spans,
        lines: 1,
        size: line.size,
        bold: line.bold,
        chars: line.chars,
        geom: [lineGeom(line)],
        furniture: furnitureKey(line.text),
        pageNumber: true,
      });
    }
  });
  return { above, below };
}
