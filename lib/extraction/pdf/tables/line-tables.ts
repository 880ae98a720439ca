/**
 * The borderless tables among the lines of one column (a leaf of the reading order), as block
 * building places them: by the index of their first line. Lines that cannot be table rows (a
 * bordered table, code, a list item, a line starting with a symbol) end a candidate table.
 */
import { buildSpans } from '../layout/lines';
import { listMarker } from '../layout/lists';
import type { LineTable } from '../layout/block-builder';
import type { Line } from '../layout/util';
import type { Run } from '../read/runs';
import { gridCells } from './bordered';
import { findBorderlessTables } from './borderless';

/**
 * A piece of a line as the borderless-table detector sees it. Its text is only needed once the
 * detector has found a table body (most lines never get there), so it is written when first asked.
 */
class TablePiece {
  private written: string | null = null;

  constructor(
    readonly x0: number,
    readonly x1: number,
    private readonly runs: Run[],
    private readonly rtl: boolean,
  ) {}

  get text(): string {
    this.written ??= buildSpans(this.runs, this.rtl)
      .map((x) => x.text)
      .join('');
    return this.written;
  }
}

export function findLineTables(lines: Line[]): Map<number, LineTable> {
  const tableAt = new Map<number, LineTable>();
  const found = findBorderlessTables(
    lines.map((l) => ({
      segs: l.segs.map((s) => new TablePiece(s.x0, s.x1, s.runs, l.rtl)),
      y: l.y,
      size: l.size,
      excluded: !!l.table || l.mono || listMarker(l.text) !== null || (l.segs[0] ? /^\W{0,2}$/.test(segFirstText(l)) : false),
    })),
  );
  for (const t of found) {
    // Right-to-left tables are read from their rightmost column: that is the first one.
    const rtl = lines.slice(t.start, t.end + 1).filter((l) => l.rtl).length * 2 > t.end - t.start + 1;
    const rows = rtl ? t.rows.map((r) => r.slice().reverse()) : t.rows;
    const ids = rtl ? t.ids.map((r) => r.slice().reverse()) : t.ids;
    tableAt.set(t.start, { end: t.end, rows, cells: gridCells(rows, ids) });
  }
  return tableAt;
}

function segFirstText(l: Line): string {
  return l.segs[0].runs
    .filter((r) => !r.space)
    .map((r) => r.text)
    .join('')
    .trim();
}
