import type ExcelJS from 'exceljs';

/*
 * XLSX cells: references on Excel's grid, the keys of the cell maps sheetBlocks takes, and
 * cell values as text (see xlsx.ts for the rules).
 */

export const MAX_ROW = 1_048_576;
export const MAX_COL = 16_384;

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function parseRef(ref: string): { row: number; col: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref.trim());
  if (!m) return undefined;
  const col = columnNumber(m[1]);
  const row = Number(m[2]);
  if (row < 1 || row > MAX_ROW || col < 1 || col > MAX_COL) return undefined;
  return { row, col };
}

/** The key of a (1-based) cell in the maps sheetBlocks takes (sheet-blocks.ts). */
export function cellKey(row: number, col: number): number {
  return row * (MAX_COL + 1) + col;
}

function formatNumber(n: number, numFmt: string | undefined): string {
  if (!Number.isFinite(n)) return String(n);
  if (numFmt && /%/.test(numFmt.replace(/"[^"]*"|\\./g, ''))) {
    return `${Number((n * 100).toPrecision(15))}%`;
  }
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

function formatDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  const time = iso.slice(11, 19);
  if (iso.startsWith('1899-12-30') || iso.startsWith('1899-12-31')) return time; // a time of day only
  if (time === '00:00:00' && d.getUTCMilliseconds() === 0) return iso.slice(0, 10);
  return `${iso.slice(0, 10)}T${time}`;
}

export function valueText(value: ExcelJS.CellValue | undefined, numFmt: string | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return formatNumber(value, numFmt);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return formatDate(value);
  if (typeof value === 'object') {
    const v = value as unknown as Record<string, unknown>;
    if (Array.isArray(v.richText)) return (v.richText as { text?: unknown }[]).map((r) => String(r.text ?? '')).join('');
    if ('formula' in v || 'sharedFormula' in v) {
      if (v.result !== undefined && v.result !== null) return valueText(v.result as ExcelJS.CellValue, numFmt);
      return v.formula ? `=${String(v.formula)}` : '';
    }
    if ('error' in v) return String(v.error);
    if ('text' in v) return valueText(v.text as ExcelJS.CellValue, numFmt);
  }
  return '';
}
