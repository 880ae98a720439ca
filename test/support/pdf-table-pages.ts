/**
 * A generated document with one table over several pages, whose every cell the caller knows: a
 * shipments table of four columns (region, product, units, revenue), with a heading and a
 * paragraph above it on the first page.
 */
import { buildPdf, paragraph, type PdfLine, type PdfPageSpec, type PdfText } from '@/lib/extraction/pdf/run/writer';

export const HEADER = ['Region', 'Product', 'Units', 'Revenue'];
export const COLUMNS = [72, 190, 330, 440];
const REGIONS = ['North', 'South', 'East', 'West', 'Central'];
const PRODUCTS = ['Anchors', 'Bolts', 'Clamps', 'Dowels', 'Eyelets', 'Fittings', 'Gaskets'];

/** Row `i` of the shipments table: known text in each column. */
export function row(i: number): string[] {
  return [REGIONS[i % REGIONS.length], `${PRODUCTS[i % PRODUCTS.length]} ${i + 1}`, String(100 + i * 7), `${(1200 + i * 35).toLocaleString('en-US')}.00`];
}

function rowTexts(cells: string[], y: number, font?: 'bold'): PdfText[] {
  return cells.map((text, k) => ({ x: COLUMNS[k], y, text, size: 10, font }));
}

export interface TableOptions {
  /** Rows of the table on each page (indexes into row()). */
  parts: number[][];
  /** Repeat the header row at the top of each later part. */
  repeatHeader?: boolean;
  /** Rule every row (a bordered table) instead of setting it by alignment alone. */
  ruled?: boolean;
  /** Header of the later parts, when it differs (another table). */
  laterHeader?: string[];
  /** Where the first part starts (baseline of its header, points from the bottom). */
  firstTop?: number;
  /** Text under the last part. */
  after?: string;
  /** A line above each later part ("Table 1 (continued)"). */
  note?: string;
}

export const PITCH = 18;

/** Ruling lines of a grid: a line above and under each row, and between the columns. */
function grid(top: number, rows: number): PdfLine[] {
  const lines: PdfLine[] = [];
  const x0 = COLUMNS[0] - 6;
  const x1 = 540;
  for (let r = 0; r <= rows; r++) lines.push({ x1: x0, y1: top - r * PITCH, x2: x1, y2: top - r * PITCH });
  for (const x of [x0, ...COLUMNS.slice(1).map((c) => c - 6), x1]) lines.push({ x1: x, y1: top, x2: x, y2: top - rows * PITCH });
  return lines;
}

/** A document with one table over `parts.length` pages: a heading and a paragraph above it. */
export function shipments(o: TableOptions): Uint8Array {
  const pages: PdfPageSpec[] = o.parts.map((rows, p) => {
    const texts: PdfText[] = [];
    const lines: PdfLine[] = [];
    let y = 740;
    if (p > 0 && o.note) {
      texts.push({ x: 72, y, text: o.note, size: 9 });
      y -= 24;
    }
    if (p === 0) {
      texts.push({ x: 72, y, text: 'Quarterly shipments', size: 16, font: 'bold' });
      const intro = paragraph('The table below lists every shipment of the quarter by region and product, with units and revenue.', {
        x: 72,
        y: 710,
        width: 460,
        size: 10,
      });
      texts.push(...intro.texts);
      y = o.firstTop ?? intro.y - 20;
    }
    const header = p === 0 ? HEADER : o.repeatHeader ? (o.laterHeader ?? HEADER) : null;
    const written = header ? [header, ...rows.map(row)] : rows.map(row);
    if (o.ruled) lines.push(...grid(y + 13, written.length));
    written.forEach((cells, r) => texts.push(...rowTexts(cells, y - r * PITCH, header && r === 0 ? 'bold' : undefined)));
    y -= written.length * PITCH + 24;
    if (p === o.parts.length - 1 && o.after) texts.push(...paragraph(o.after, { x: 72, y, width: 460, size: 10 }).texts);
    return { texts, lines };
  });
  return buildPdf(pages);
}

export const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** A page holding only the shipments table's header and `rows`, from the top. */
export function shipmentsPage(rows: number[]): PdfText[] {
  return [HEADER, ...rows.map(row)].flatMap((cells, r) => rowTexts(cells, 740 - r * PITCH, r === 0 ? 'bold' : undefined));
}
