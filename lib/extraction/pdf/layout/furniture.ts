/** Page furniture: page numbers and running header/footer candidates in the page margins. */
import type { Frame } from '../read/runs';
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

const PAGE_NUMBER = /^(?:(?:page|p\.|seite|página|pagina|pág\.|стр\.?)\s*)?[-–—]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—]?(?:\s*(?:\/|of|von|de|из)\s*\d{1,4})?$/i;

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
      furniture.set(row, { key: text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' '), label });
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
