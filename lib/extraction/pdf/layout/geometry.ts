/**
 * Positions of laid-out text for citations: lines are laid out in their frame's reading
 * coordinates (read/runs.ts turns every frame upright); here they are turned back onto the page and
 * expressed as fractions of it.
 */
import { contentChars, type Box, type SourceLine } from '@/lib/document/layout';
import type { Block, DetectedTable } from './blocks';
import type { Line } from './util';

/** A laid-out line, in frame coordinates. */
export function lineGeom(line: Pick<Line, 'x0' | 'x1' | 'top' | 'bottom' | 'text'>): SourceLine {
  return { chars: contentChars(line.text), box: [line.x0, line.top, line.x1, line.bottom] };
}

/** A bordered table as one region, in frame coordinates. */
export function tableGeom(table: DetectedTable): SourceLine {
  return { chars: contentChars(table.rows.flat().join(' ')), box: [table.x0, table.top, table.x1, table.bottom] };
}

/** The rotation of a frame (read/runs.ts keys: "q<quarter turns>" or "a<degrees>"), as buildFrames computes it. */
function frameAngle(key: string): number {
  const n = Number(key.slice(1));
  if (!Number.isFinite(n)) return 0;
  return key.startsWith('q') ? (n * Math.PI) / 2 : (n * Math.PI) / 180;
}

/**
 * Turns the lines of a frame's blocks onto the page: frame coordinates (x, y) come from viewport
 * coordinates (ox, oy) by x = ox·cos + oy·sin, y = −ox·sin + oy·cos, so the inverse rotation gives
 * the corners back; the box is their extent, divided by the page size.
 */
export function placeOnPage(blocks: Block[], frameKey: string, page: { width: number; height: number }): void {
  const angle = frameAngle(frameKey);
  const cos = Math.round(Math.cos(angle) * 1e9) / 1e9;
  const sin = Math.round(Math.sin(angle) * 1e9) / 1e9;
  const w = page.width || 1;
  const h = page.height || 1;
  const place = (box: Box): Box => {
    const [x0, y0, x1, y1] = box;
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [x, y] of [
      [x0, y0],
      [x1, y0],
      [x0, y1],
      [x1, y1],
    ]) {
      const ox = x * cos - y * sin;
      const oy = x * sin + y * cos;
      minX = Math.min(minX, ox);
      maxX = Math.max(maxX, ox);
      minY = Math.min(minY, oy);
      maxY = Math.max(maxY, oy);
    }
    return [minX / w, minY / h, maxX / w, maxY / h];
  };
  for (const b of blocks) if (b.geom) b.geom = b.geom.map((l) => ({ ...l, box: place(l.box) }));
}
