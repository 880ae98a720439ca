/**
 * Tables in scanned pages: generated documents whose every cell is known, rendered to pixels by
 * poppler (the text layer gone), then read back by OCR as an image-only PDF and as PNG images.
 * The ruling lines must be found in the pixels and the cells built from Tesseract's word boxes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_LIMITS } from '@/lib/document/settings';
import { tableGrid } from '@/lib/document/table-grid';
import type { QuarryDocument, Table, TableCell } from '@/lib/document/types';
import { extractImage, extractPdf } from '@/lib/extraction/engine';
import { createOcrService } from '@/lib/extraction/ocr';
import { encodeGreyPng, type GreyRaster } from '@/lib/extraction/ocr/raster';
import { findRules, inkBoxes } from '@/lib/extraction/ocr/rules';
import type { OcrOutput, OcrWord } from '@/lib/extraction/ocr/types';
import { ocrPage } from '@/lib/extraction/pdf/ocr/words';
import { layoutOcrTables } from '@/lib/extraction/pdf/stages';
import { buildPdf, paragraph } from '@/lib/extraction/pdf/run/writer';
import type { ExtractionOptions, ExtractResult } from '@/lib/extraction/types';
import { extractInput, PDF_TYPE } from '@/test/support/extract-input';
import { documentTables } from '@/test/support/pdf-extract';
import { characterErrorRate } from '@/test/support/ocr-images';
import { buildStructuredReport } from '@/test/support/pdf-report-fixture';
import { COLUMNS, HEADER, range, row, shipments } from '@/test/support/pdf-table-pages';
import { imageOnlyPdf, scanPages } from '@/test/support/scanned';

const DPI = 200;
const PNG_TYPE = { mime_type: 'image/png', extension: '.png' } as const;
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-ocr-tables-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function extractScan(name: string, bytes: Uint8Array, type: { mime_type: string; extension: string }, options: Partial<ExtractionOptions> = {}): Promise<ExtractResult> {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  const input = extractInput(file, type, tmp);
  const full = { ...input, options: { ...input.options, ...options } };
  const ocr = createOcrService(full.options, tmp);
  try {
    return type === PDF_TYPE ? await extractPdf(full, ocr) : await extractImage(full, ocr);
  } finally {
    await ocr.close();
  }
}

const cellText = (c: TableCell | null) => (c?.content ?? []).map((i) => (i.type === 'text' ? i.text : ' ')).join('').trim();

/** The table's texts on its grid (a spanning cell at its first position, '' where it covers). */
function grid(table: Table): string[][] {
  return tableGrid(table, TABLE_LIMITS).rows.map((r) => r.map(cellText));
}

/**
 * Checks a table read from a scan against the true grid: the same rows and columns exactly, and
 * the cells' text as OCR reads it (a misread letter here and there: Q1 for Qi), at most 3% of the
 * characters wrong and 90% of the cells exact.
 */
function expectGrid(actual: string[][], truth: string[][]): void {
  expect(actual.length).toBe(truth.length);
  for (const r of actual) expect(r.length).toBe(truth[0].length);
  const cells = truth.flat();
  const read = actual.flat();
  const exact = cells.filter((t, i) => read[i] === t).length;
  expect(exact / cells.length, JSON.stringify(actual)).toBeGreaterThanOrEqual(0.9);
  expect(characterErrorRate(read.join(' | '), cells.join(' | '))).toBeLessThanOrEqual(0.03);
}

const SHIPMENTS = [HEADER, ...range(0, 8).map(row)];

describe('a scanned ruled table', () => {
  let scans: GreyRaster[];

  beforeAll(() => {
    scans = scanPages(shipments({ parts: [range(0, 8)], ruled: true, after: 'Figures are provisional until the audit closes.' }), DPI);
  });

  it('as an image-only PDF: one table with every cell, the text around it in paragraphs, rows citing the page', async () => {
    const result = await extractScan('ruled-scan.pdf', imageOnlyPdf(scans, DPI), PDF_TYPE);
    const tables = documentTables(result.document);
    expect(tables).toHaveLength(1);
    expectGrid(grid(tables[0]), SHIPMENTS);
    expect(tables[0].header_rows).toBe(1);
    expect(tables[0].row_prov?.map((r) => r.page)).toEqual(SHIPMENTS.map(() => 1));
    // The table's box lies where the grid was drawn: from COLUMNS[0] - 6 to 540 points across a 612-point page.
    const box = tables[0].prov?.bbox;
    expect(box).toBeDefined();
    expect(box![0]).toBeCloseTo((COLUMNS[0] - 6) / 612, 1);
    expect(box![2]).toBeCloseTo(540 / 612, 1);
    expect(result.markdown).toMatch(/Figures are provisional until the audit closes\./);
    expect(result.markdown.indexOf('Quarterly shipments')).toBeLessThan(result.markdown.indexOf('| Region'));
  });

  it('as a PNG image: the same table', async () => {
    const result = await extractScan('ruled-scan.png', encodeGreyPng(scans[0]), PNG_TYPE);
    const tables = documentTables(result.document);
    expect(tables).toHaveLength(1);
    expectGrid(grid(tables[0]), SHIPMENTS);
  });

  it('with extract_tables false, or the layout preserved, the scan stays text', async () => {
    for (const options of [{ extract_tables: false }, { preserve_layout: true }]) {
      const result = await extractScan('ruled-scan-text.png', encodeGreyPng(scans[0]), PNG_TYPE, options);
      expect(documentTables(result.document), JSON.stringify(options)).toHaveLength(0);
      expect(result.markdown).toMatch(/Central\s+Eyelets 5\s+128\s+1,340\.00/);
    }
  });
});

describe('a scanned report (tables with a spanning header and a wrapped cell, booktabs rules, no rules)', () => {
  let doc: QuarryDocument | undefined;
  /** The same report read from its text layer. */
  let born: QuarryDocument | undefined;
  let reference: string;

  beforeAll(async () => {
    const report = buildStructuredReport();
    reference = report.markdown;
    doc = (await extractScan('report-scan.pdf', imageOnlyPdf(scanPages(report.pdf, DPI), DPI), PDF_TYPE)).document;
    const original = path.join(tmp, 'report.pdf');
    fs.writeFileSync(original, report.pdf);
    born = (await extractPdf(extractInput(original, PDF_TYPE, tmp, { mode: 'simple' }), null)).document;
  });

  it('finds the three tables, each with its true rows and columns, and no other', () => {
    const tables = documentTables(doc);
    expect(tables).toHaveLength(3);
    expectGrid(grid(tables[0]), [
      ['Region', 'Revenue (M EUR)', '', 'Notes'],
      ['', 'Q1', 'Q2', ''],
      ['North', '12.4', '13.1', 'Steady growth'],
      ['South', '8.0', '9.6', 'New office opened in March'],
      ['East', '10.2', '9.9', 'Flat'],
    ]);
    expectGrid(grid(tables[1]), [
      ['Format', 'Pages/s', 'Memory (MB)', 'Errors'],
      ['PDF', '412', '180', '0'],
      ['DOCX', '95', '120', '1'],
      ['XLSX', '60', '240', '0'],
      ['PPTX', '48', '150', '2'],
    ]);
    expectGrid(grid(tables[2]), [
      ['Setting', 'Default', 'Range'],
      ['Worker threads', '2', '1-16'],
      ['Page timeout (s)', '30', '5-600'],
      ['Memory cap (MB)', '1024', '256-8192'],
      ['Max pages', '2000', '1-100000'],
    ]);
    expect(reference).toContain('| New office opened in March |');
  });

  it('keeps the spanning header cell one cell over the two columns its rules enclose, with the header rows the text layer gives', () => {
    const spanning = documentTables(doc)[0].rows[0].find((c) => cellText(c).startsWith('Revenue'));
    expect(spanning?.col_span).toBe(2);
    const shape = (t: Table) => ({ header: t.header_rows, spans: t.rows.map((r) => r.map((c) => `${c.row_span ?? 1}x${c.col_span ?? 1}`).join(' ')) });
    expect(documentTables(doc).map(shape)).toEqual(documentTables(born).map(shape));
  });

  it('cites the pages the tables are on', () => {
    expect(documentTables(doc).map((t) => t.prov?.page)).toEqual([2, 2, 3]);
  });
});

describe('scanned prose', () => {
  it('a page of two columns of prose is no table', async () => {
    const left = paragraph(
      'The committee met on the first Monday of the month to review the progress of the survey. Members agreed that the second round of interviews should start before the summer, and that the questionnaire needs shorter questions.',
      { x: 72, y: 700, width: 220, size: 10 },
    );
    const right = paragraph(
      'Field teams reported that response rates were higher in the northern districts. The analysis group will publish a first summary of the results in the autumn, together with the weighting method and the full tables.',
      { x: 320, y: 700, width: 220, size: 10 },
    );
    const pdf = buildPdf([{ texts: [{ x: 72, y: 740, text: 'Survey progress', size: 16, font: 'bold' }, ...left.texts, ...right.texts] }]);
    const result = await extractScan('prose-scan.pdf', imageOnlyPdf(scanPages(pdf, DPI), DPI), PDF_TYPE);
    expect(documentTables(result.document)).toHaveLength(0);
    expect(result.markdown).toMatch(/first Monday of the month/);
    expect(result.markdown).toMatch(/response rates were higher/);
  });
});

describe('a table in OCR words', () => {
  const GRID = [
    ['Item', 'Count', 'Share'],
    ['Anchors', '120', '0.40'],
    ['Bolts', '180', '0.60'],
  ];

  /** A reading of a 3×3 ruled grid of numbers (words at `confidence`), with its rules, on a 1000-pixel square image. */
  function gridReading(confidence: number, cells = GRID): OcrOutput {
    const wordBoxes: OcrWord[] = [];
    cells.forEach((row, r) =>
      row.forEach((text, c) => wordBoxes.push({ text, box: [0.12 + c * 0.25, 0.112 + r * 0.04, 0.12 + c * 0.25 + 0.012 * text.length, 0.126 + r * 0.04], line: r, confidence })),
    );
    const ys = [0.1, 0.14, 0.18, 0.22];
    const xs = [0.1, 0.35, 0.6, 0.85];
    return {
      text: cells.map((r) => r.join(' ')).join('\n'),
      meanConfidence: confidence,
      words: 9,
      size: { width: 1000, height: 1000 },
      wordBoxes,
      rules: { h: ys.map((y) => ({ y, x0: 0.1, x1: 0.85 })), v: xs.map((x) => ({ x, y0: 0.1, y1: 0.22 })) },
    };
  }

  it('is a table when OCR read its words surely, and the text of its rows when not (the labels of a chart)', () => {
    const sure = layoutOcrTables(gridReading(92));
    const table = sure?.find((b) => b.kind === 'table');
    expect(table?.kind === 'table' && table.rows).toEqual([
      ['Item', 'Count', 'Share'],
      ['Anchors', '120', '0.40'],
      ['Bolts', '180', '0.60'],
    ]);
    // Unsure words in the same grid: no table on the page, so its text stays Tesseract's paragraphs.
    expect(layoutOcrTables(gridReading(45))).toBeNull();
  });

  it("is the text of its rows when its cells are a chart's strokes read as glyphs; a dash alone is a table's 'none'", () => {
    const strokes = layoutOcrTables(gridReading(92, [['Item', '|', 'Share'], ['Anchors', '~~', '0.40'], ['Bolts', '__', '0.60']]));
    expect(strokes).toBeNull();
    const dashes = layoutOcrTables(gridReading(92, [['Item', 'Count', 'Share'], ['Anchors', '—', '0.40'], ['Bolts', '180', '—']]));
    expect(dashes?.some((b) => b.kind === 'table')).toBe(true);
  });
});

describe('ruling lines and word boxes in pixels', () => {
  /** A white raster with black rectangles painted. */
  function raster(width: number, height: number, rects: [number, number, number, number][]): GreyRaster {
    const grey = new Uint8Array(width * height).fill(255);
    for (const [x0, y0, x1, y1] of rects) for (let y = y0; y < y1; y++) grey.fill(0, y * width + x0, y * width + x1);
    return { width, height, grey };
  }

  it('finds the rules of a grid, a little askew too, and not a filled bar, a shaded bar cut by white letters or letter strokes', () => {
    const rects: [number, number, number, number][] = [];
    // A grid: 4 rules across (2 px thick) from x 100 to 700, 3 rules down from y 100 to 400.
    for (const y of [100, 200, 300, 400]) rects.push([100, y, 700, y + 2]);
    for (const x of [100, 400, 698]) rects.push([x, 100, x + 2, 402]);
    // A bar 40 px thick, and short letter-like strokes.
    rects.push([100, 500, 700, 540]);
    for (let x = 100; x < 700; x += 30) rects.push([x, 600, x + 12, 602]);
    // A rule a little askew: down one pixel every 100 across.
    for (let x = 100; x < 700; x += 100) rects.push([x, 700 + x / 100, x + 100, 702 + x / 100]);
    // A shaded bar with white letters in it (strips of dark between them are no column rules).
    rects.push([100, 740, 700, 790]);
    const page = raster(800, 800, rects);
    for (let x = 110; x < 690; x += 16) for (let y = 745; y < 785; y++) page.grey.fill(255, y * 800 + x, y * 800 + x + 5);
    const found = findRules(page, 20);
    const ys = found.h.map((h) => Math.round(h.y * 800)).sort((a, b) => a - b);
    expect(ys.slice(0, 4)).toEqual([101, 201, 301, 401]);
    expect(ys).toHaveLength(5);
    expect(ys[4]).toBeGreaterThan(700);
    expect(ys[4]).toBeLessThan(710);
    for (const h of found.h) {
      expect(h.x0 * 800).toBeCloseTo(100, 0);
      expect(h.x1 * 800).toBeCloseTo(700, 0);
    }
    expect(found.v.map((v) => Math.round(v.x * 800)).sort((a, b) => a - b)).toEqual([101, 401, 699]);
  });

  it("fits a word's box to its ink", () => {
    const words: OcrWord[] = [{ text: 'Setting', box: [0.1, 0.1, 0.5, 0.5], line: 0, confidence: 95 }];
    const [fitted] = inkBoxes(raster(100, 100, [[20, 30, 40, 45]]), words);
    expect(fitted.box).toEqual([0.2, 0.3, 0.4, 0.45]);
    // No ink in it: the box stays.
    expect(inkBoxes(raster(100, 100, []), words)[0].box).toEqual(words[0].box);
  });

  it('gives the lines of a page one body size whatever their ascenders and descenders, and refuses words that do not lie upright', () => {
    const word = (text: string, x0: number, top: number, bottom: number, line: number): OcrWord => ({ text, box: [x0, top, x0 + 0.08, bottom], line, confidence: 95 });
    const out: OcrOutput = {
      text: '',
      meanConfidence: 95,
      words: 6,
      size: { width: 1000, height: 1000 },
      wordBoxes: [
        // "Worker threads": capitals and ascenders, no descender (top 0.100, baseline 0.114).
        word('Worker', 0.1, 0.1, 0.114, 0),
        word('threads', 0.2, 0.1, 0.114, 0),
        // "Setting Range": the same size, its boxes reaching down for g.
        word('Setting', 0.1, 0.13, 0.148, 1),
        word('Range', 0.2, 0.13, 0.148, 1),
        word('Default', 0.3, 0.13, 0.144, 1),
        // A title twice the size.
        word('Title', 0.1, 0.16, 0.188, 2),
      ],
    };
    const page = ocrPage(out)!;
    const sizes = new Map(page.frame.runs.filter((r) => !r.space).map((r) => [r.text, r.size]));
    expect(sizes.get('Worker')).toBe(sizes.get('Setting'));
    expect(sizes.get('Title')! / sizes.get('Worker')!).toBeCloseTo(2, 0);
    // The baseline of "Setting Range Default" is where "Default" ends, not the g's.
    const setting = page.frame.runs.find((r) => r.text === 'Setting')!;
    expect(setting.y / page.page.height).toBeCloseTo(0.144, 3);
    // Spaces between the words of a line.
    expect(page.frame.runs.filter((r) => r.space)).toHaveLength(3);
    // Words running down the image (a page turned while it was read) are not laid out.
    const down = { ...out, wordBoxes: out.wordBoxes!.map((w, i) => ({ ...w, box: [0.1, 0.1 + i * 0.1, 0.114, 0.18 + i * 0.1] as OcrWord['box'], line: 0 })) };
    expect(ocrPage(down)).toBeNull();
  });
});
