/**
 * Table structure rules on generated PDFs whose truth is known because the test wrote them:
 * wrapped cells stay one cell (in a tall ruled header row, across the seam of shadings painted once
 * per line, and in a borderless row carried on to a second line), values stacked in one ruled row
 * are rows, a chart's legend in its frame and the axis labels of charts side by side are no
 * tables, a section label set larger keeps the table whole, a title right above the header is no
 * header cell, and a page turned by /Rotate has its ruled tables found.
 */
import { describe, expect, it } from 'vitest';
import type { Table } from '@/lib/document/types';
import { buildPdf, textWidth, type PdfLine, type PdfRect, type PdfText } from '@/test/support/pdf-fixture';
import { pdfFile } from '@/test/support/pdf-unicode-fixture';
import { documentTables, pdfExtractor } from '@/test/support/pdf-extract';

const extract = pdfExtractor('quarry-table-rules-');
const tables = documentTables;

/** A table's cell texts at every grid position (a spanning cell's text at each position it covers). */
function grid(table: Table): string[][] {
  const out: string[][] = [];
  table.rows.forEach((row, r) => {
    out[r] ??= [];
    let c = 0;
    for (const cell of row) {
      while (out[r][c] !== undefined) c++;
      const text = cell.content.map((i) => ('text' in i ? i.text : '')).join('');
      for (let dr = 0; dr < (cell.row_span ?? 1); dr++)
        for (let dc = 0; dc < (cell.col_span ?? 1); dc++) (out[r + dr] ??= [])[c + dc] = text;
      c += cell.col_span ?? 1;
    }
  });
  return out;
}

async function onlyTable(name: string, bytes: Uint8Array): Promise<string[][]> {
  const { document } = await extract(name, bytes);
  const found = tables(document);
  expect(found).toHaveLength(1);
  return grid(found[0]);
}

const BODY = [
  ['North', '1,204', '31%', '12.5'],
  ['South', '986', '25%', '10.1'],
  ['East', '1,310', '34%', '14.0'],
  ['West', '402', '10%', '6.2'],
  ['Centre', '77', '2%', '3.9'],
];

/** The four sides of a box as ruling lines. */
function frame(x0: number, y0: number, x1: number, y1: number): PdfLine[] {
  return [
    { x1: x0, y1: y0, x2: x1, y2: y0 },
    { x1: x0, y1: y1, x2: x1, y2: y1 },
    { x1: x0, y1: y0, x2: x0, y2: y1 },
    { x1: x1, y1: y0, x2: x1, y2: y1 },
  ];
}

describe('ruled tables', () => {
  it('keeps header cells wrapped over three lines one cell in a table ruled under its header only', async () => {
    const xs = [72, 190, 290, 390, 490];
    const header = [
      ['', '', 'Region'],
      ['Number of', 'registered', 'companies'],
      ['', 'Share of', 'all firms'],
      ['Firms per', 'thousand', 'inhabitants'],
    ];
    const texts: PdfText[] = [];
    header.forEach((cell, c) => cell.forEach((t, k) => t && texts.push({ x: xs[c] + 4, y: 688 - k * 11, text: t, size: 9 })));
    BODY.forEach((row, r) => row.forEach((t, c) => texts.push({ x: xs[c] + 4, y: 646 - r * 14, text: t, size: 9 })));
    const lines: PdfLine[] = [700, 660, 576].map((y) => ({ x1: 72, y1: y, x2: 490, y2: y }));
    for (const x of xs) lines.push({ x1: x, y1: 576, x2: x, y2: 700 });
    const rows = await onlyTable('wrapped-header-ruled.pdf', buildPdf([{ texts, lines }]));
    expect(rows).toEqual([['Region', 'Number of registered companies', 'Share of all firms', 'Firms per thousand inhabitants'], ...BODY]);
  });

  it('keeps wrapped header cells one cell across the seams of shadings painted once per line', async () => {
    const xs = [72, 200, 300, 400, 500];
    const texts: PdfText[] = [
      { x: 76, y: 704, text: 'Travel mode', size: 9 },
      { x: 76, y: 694, text: 'to work', size: 9 },
      { x: 330, y: 710, text: 'Share of trips', size: 9 },
    ];
    const sub = [
      ['Less than', 'ten minutes'],
      ['Ten to thirty', 'minutes'],
      ['More than', 'half an hour'],
    ];
    sub.forEach(([a, b], k) => texts.push({ x: xs[k + 1] + 4, y: 697, text: a, size: 9 }, { x: xs[k + 1] + 4, y: 687, text: b, size: 9 }));
    const body = [
      ['Car', '18', '46', '36'],
      ['Bicycle', '41', '48', '11'],
      ['Bus', '9', '52', '39'],
      ['On foot', '63', '33', '4'],
    ];
    body.forEach((row, r) => row.forEach((t, c) => texts.push({ x: xs[c] + 4, y: 672 - r * 14, text: t, size: 9 })));
    // Shading: the label's cell (over both header rows) and each sub-header cell are painted as
    // two boxes, one per text line, meeting at a different height in the label's column.
    const rects: PdfRect[] = [
      { x: 72, y: 701, w: 128, h: 19, fill: true },
      { x: 72, y: 682, w: 128, h: 19, fill: true },
      { x: 200, y: 706, w: 300, h: 14, fill: true },
    ];
    for (let k = 1; k < 4; k++) rects.push({ x: xs[k], y: 692, w: 100, h: 14, fill: true }, { x: xs[k], y: 682, w: 100, h: 10, fill: true });
    const lines: PdfLine[] = [...frame(72, 626, 500, 720), { x1: 200, y1: 706, x2: 500, y2: 706 }];
    for (const y of [682, 668, 654, 640]) lines.push({ x1: 72, y1: y, x2: 500, y2: y });
    lines.push({ x1: 200, y1: 626, x2: 200, y2: 720 });
    for (const x of [300, 400]) lines.push({ x1: x, y1: 626, x2: x, y2: 706 });
    const rows = await onlyTable('shaded-header-seams.pdf', buildPdf([{ texts, rects, lines }]));
    expect(rows).toEqual([
      ['Travel mode to work', 'Share of trips', 'Share of trips', 'Share of trips'],
      ['Travel mode to work', 'Less than ten minutes', 'Ten to thirty minutes', 'More than half an hour'],
      ...body,
    ]);
  });

  it('splits values stacked in one ruled row (a rule left out) into their rows', async () => {
    const xs = [72, 200, 300, 400, 500];
    const rowsText = [['Region', 'Firms', 'Share', 'Density'], ...BODY];
    const texts: PdfText[] = [];
    rowsText.forEach((row, r) => row.forEach((t, c) => texts.push({ x: xs[c] + 4, y: 688 - r * 14, text: t, size: 9 })));
    const bottom = 700 - rowsText.length * 14;
    // Every row is ruled but the one between "East" and "West".
    const lines: PdfLine[] = [];
    for (let r = 0; r <= rowsText.length; r++) if (r !== 4) lines.push({ x1: 72, y1: 700 - r * 14, x2: 500, y2: 700 - r * 14 });
    for (const x of xs) lines.push({ x1: x, y1: bottom, x2: x, y2: 700 });
    expect(await onlyTable('stacked-values.pdf', buildPdf([{ texts, lines }]))).toEqual(rowsText);
  });

  it('finds no table in a chart whose frame holds its legend, one line across all its gridlines', async () => {
    const lines: PdfLine[] = [...frame(100, 500, 500, 700), { x1: 100, y1: 540, x2: 500, y2: 540 }, { x1: 100, y1: 520, x2: 500, y2: 520 }];
    // Gridlines every 40 points over the plot area only, and bars between them.
    for (let x = 140; x < 500; x += 40) lines.push({ x1: x, y1: 540, x2: x, y2: 700 });
    const rects: PdfRect[] = [];
    for (let k = 0; k < 9; k++) rects.push({ x: 110 + k * 40, y: 540, w: 20, h: 30 + ((k * 37) % 110), fill: true });
    const texts: PdfText[] = [
      { x: 200, y: 527, text: 'Domestic sales', size: 9 },
      { x: 330, y: 527, text: 'Exports', size: 9 },
      { x: 200, y: 507, text: 'Imports', size: 9 },
      { x: 330, y: 507, text: 'Re-exports', size: 9 },
    ];
    const { document } = await extract('chart-legend.pdf', buildPdf([{ texts, lines, rects }]));
    expect(tables(document)).toEqual([]);
  });
});

describe('borderless tables', () => {
  it('finds no table in the axis labels of two charts side by side', async () => {
    const texts: PdfText[] = [];
    for (const left of [72, 322]) {
      ['300', '200', '100', '0'].forEach((t, k) => texts.push({ x: left + 20 - textWidth(t, 8), y: 700 - k * 13, text: t, size: 8 }));
      ['2019', '2020', '2021', '2022'].forEach((t, k) => texts.push({ x: left + 40 + k * 50, y: 646, text: t, size: 8 }));
      texts.push({ x: left, y: 633, text: 'Source: national accounts', size: 8 });
    }
    const { document } = await extract('two-charts.pdf', buildPdf([{ texts }]));
    expect(tables(document)).toEqual([]);
  });

  it('joins a row whose cells carry on to a second line into one row', async () => {
    const xs = [72, 160, 300, 440];
    const rowsText = [
      ['Item', 'Description', 'Supplier', 'Price'],
      ['Bolts', 'Steel hex bolts,', 'Northern Tools', '4.20'],
      ['', 'zinc plated', 'and fasteners', ''],
      ['Nuts', 'Brass nuts', 'Harbour Supply', '2.10'],
      ['Washers', 'Nylon washers', 'Harbour Supply', '0.80'],
      ['Screws', 'Wood screws', 'Northern Tools', '3.60'],
    ];
    const texts: PdfText[] = [];
    rowsText.forEach((row, r) => row.forEach((t, c) => t && texts.push({ x: xs[c], y: 700 - r * 13, text: t, size: 9 })));
    expect(await onlyTable('wrapped-row.pdf', buildPdf([{ texts }]))).toEqual([
      rowsText[0],
      ['Bolts', 'Steel hex bolts, zinc plated', 'Northern Tools and fasteners', '4.20'],
      ...rowsText.slice(3),
    ]);
  });

  const GROUPS: [string, string[][]][] = [
    ['Sex', [['Male', '412', '48.1', '41.2'], ['Female', '445', '51.9', '42.8']]],
    ['Age group', [['18-34', '301', '35.1', '26.4'], ['35-54', '322', '37.6', '44.9'], ['55 and over', '234', '27.3', '63.0']]],
    ['Region', [['Urban', '598', '69.8', '40.1'], ['Rural', '259', '30.2', '45.7']]],
  ];

  /** A table of respondents in groups, each opened by a section label; the header at `headerY`. */
  function groupsTable(title: PdfText, sectionSize: number): PdfText[] {
    const texts: PdfText[] = [title];
    const cell = (t: string, c: number, y: number) => texts.push({ x: c === 0 ? 72 : 260 + c * 80 - textWidth(t, 9), y, text: t, size: 9 });
    let y = 700;
    ['Count', 'Share', 'Mean age'].forEach((t, k) => cell(t, k + 1, y));
    for (const [label, rows] of GROUPS) {
      y -= 15;
      texts.push({ x: 72, y, text: label, size: sectionSize, font: 'bold' });
      for (const row of rows) {
        y -= 13;
        row.forEach((t, c) => cell(t, c, y));
      }
    }
    return texts;
  }

  const GROUPS_GRID = [['', 'Count', 'Share', 'Mean age'], ...GROUPS.flatMap(([label, rows]) => [[label, '', '', ''], ...rows])];

  it('keeps a table whole across section labels set larger than its rows', async () => {
    const texts = groupsTable({ x: 72, y: 730, text: 'Table 4. Respondents by group', size: 10, font: 'bold' }, 11.5);
    expect(await onlyTable('section-rows.pdf', buildPdf([{ texts }]))).toEqual(GROUPS_GRID);
  });

  it('does not take a title right above the header for the header of the row labels', async () => {
    const texts = groupsTable({ x: 72, y: 713, text: 'Respondents by group, 2023', size: 9, font: 'bold' }, 9);
    const { markdown, document } = await extract('title-over-header.pdf', buildPdf([{ texts }]));
    const found = tables(document);
    expect(found).toHaveLength(1);
    expect(grid(found[0])).toEqual(GROUPS_GRID);
    expect(markdown).toContain('Respondents by group, 2023');
  });
});

describe('a page turned by /Rotate', () => {
  /** One page 612 × 792 turned a quarter clockwise, its content drawn upright as shown (792 × 612). */
  function landscapePage(texts: PdfText[], lines: PdfLine[]): Uint8Array {
    const esc = (t: string) => t.replace(/[()\\]/g, (ch) => `\\${ch}`);
    const ops = ['q 0 1 -1 0 612 0 cm'];
    for (const l of lines) ops.push(`0.5 w ${l.x1} ${l.y1} m ${l.x2} ${l.y2} l S`);
    for (const t of texts) ops.push(`BT /F1 ${t.size ?? 10} Tf ${t.x} ${t.y} Td (${esc(t.text)}) Tj ET`);
    ops.push('Q');
    const content = ops.join('\n');
    return pdfFile([
      '',
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Rotate 90 /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    ]);
  }

  it('finds a ruled table on it, a label wrapped in its cell one cell', async () => {
    const rowsText = [
      ['Topic', 'Enquiries'],
      ['Institutions', '3.597'],
      ['Employment, Social Affairs and|Equal Opportunities', '1.783'],
      ['Air Passenger Rights', '1.726'],
      ['Consumer Safety', '1.241'],
      ['Total', '8.347'],
    ];
    const texts: PdfText[] = [];
    const lines: PdfLine[] = [];
    let top = 540;
    for (const [label, value] of rowsText) {
      const parts = label.split('|');
      const height = 8 + parts.length * 11;
      parts.forEach((p, k) => texts.push({ x: 64, y: top - 12 - k * 11, text: p, size: 9 }));
      texts.push({ x: 350 - textWidth(value, 9), y: top - 12, text: value, size: 9 });
      lines.push({ x1: 60, y1: top, x2: 360, y2: top });
      top -= height;
    }
    lines.push({ x1: 60, y1: top, x2: 360, y2: top }, { x1: 60, y1: top, x2: 60, y2: 540 }, { x1: 300, y1: top, x2: 300, y2: 540 }, { x1: 360, y1: top, x2: 360, y2: 540 });
    // A chart's labels beside the table, in a column of their own.
    for (let k = 0; k < 4; k++) texts.push({ x: 420, y: 520 - k * 24, text: ['Institutions', 'Employment', 'Passengers', 'Consumers'][k], size: 8 });
    const rows = await onlyTable('rotated-ruled.pdf', landscapePage(texts, lines));
    expect(rows).toEqual(rowsText.map(([label, value]) => [label.replace('|', ' '), value]));
  });
});
