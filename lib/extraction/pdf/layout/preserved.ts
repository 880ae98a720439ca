/** preserve_layout's layout of a frame (PRESERVED_FRAME_STAGES in stages.ts). */
import type { SourceLine } from '@/lib/document/layout';
import type { Block, DetectedTable } from './blocks';
import { lineGeom, tableGeom } from './geometry';
import { buildSpans } from './lines';
import { buildRows, rowSegments } from './rows';
import { maxOf, median, minOf, type Row } from './util';
import type { Frame } from '../read/runs';
import { PITCH_DEFAULT, PITCH_MAX, PITCH_MIN, PRESERVED_BLANK_LINE } from '../settings';

/**
 * preserve_layout: the frame's rows as lines, pieces placed at their horizontal position using
 * the typical character width, blank lines for larger vertical gaps. Bordered tables are still
 * written as GFM tables when table extraction is on.
 */
export function layoutFramePreserved(frame: Frame, tables: DetectedTable[]): Block[] {
  const rows = buildRows(frame.runs).sort((a, b) => a.y - b.y);
  const widths: number[] = [];
  let minX = Infinity;
  for (const r of frame.runs) {
    if (r.space) continue;
    minX = Math.min(minX, r.x0);
    const n = r.text.length;
    if (n >= 2) widths.push((r.x1 - r.x0) / n);
  }
  const cw = Math.max(1, median(widths) || 5);
  const pitches: number[] = [];
  for (let i = 1; i < rows.length; i++) pitches.push((rows[i].y - rows[i - 1].y) / rows[i].size);
  const pitch = median(pitches.filter((p) => p > PITCH_MIN && p < PITCH_MAX)) || PITCH_DEFAULT;
  const items: { y: number; table?: DetectedTable; row?: Row }[] = rows.map((row) => ({ y: row.y, row }));
  for (const t of tables) items.push({ y: t.top, table: t });
  items.sort((a, b) => a.y - b.y);
  const blocks: Block[] = [];
  let out: string[] = [];
  let geom: SourceLine[] = [];
  let prev: Row | null = null;
  const flush = () => {
    while (out.length && out[out.length - 1] === '') out.pop();
    if (out.length) blocks.push({ kind: 'raw', text: out.join('\n'), geom });
    out = [];
    geom = [];
  };
  for (const item of items) {
    if (item.table) {
      flush();
      blocks.push({ kind: 'table', rows: item.table.rows, cells: item.table.cells, geom: [tableGeom(item.table)] });
      prev = null;
      continue;
    }
    const row = item.row!;
    if (prev && row.y - prev.y > pitch * row.size * PRESERVED_BLANK_LINE && out.length) out.push('');
    let s = '';
    for (const seg of rowSegments(row, 0)) {
      const rtlSeg = seg.runs.filter((r) => r.rtl).length > seg.runs.length / 2;
      const text = buildSpans(seg.runs, rtlSeg).map((x) => x.text).join('');
      const col = Math.round((seg.x0 - minX) / cw);
      if (col > s.length) s += ' '.repeat(col - s.length);
      else if (s) s += '  ';
      s += text;
    }
    out.push(s.replace(/\s+$/, ''));
    geom.push(lineGeom({ x0: minOf(row.runs, (r) => r.x0), x1: maxOf(row.runs, (r) => r.x1), top: row.top, bottom: row.bottom, text: s }));
    prev = row;
  }
  flush();
  return blocks;
}
