import { describe, expect, it } from 'vitest';
import type { Block, QuarryDocument, Table, TableCell } from '@/lib/document/types';
import { adjacencies, commonAdjacencies, modelGrid, normalizeText, stackGrids, truthGrid, type Grid } from '@/scripts/bench-truth/grid';
import { boxIoU, matchTables, outputTables, pageFractions } from '@/scripts/bench-truth/match';
import { addCounts, bestVariant, emptyCounts, goals, prf, scoreDocument } from '@/scripts/bench-truth/score';
import { readTruth, truthVariants } from '@/scripts/bench-truth/truth';

const c = (text: string, span: { row_span?: number; col_span?: number } = {}): TableCell => ({ content: text ? [{ type: 'text', text }] : [], ...span });
const table = (rows: TableCell[][], page?: number, bbox?: [number, number, number, number]): Table => ({
  type: 'table',
  rows,
  header_rows: 1,
  ...(page || bbox ? { prov: { ...(page ? { page } : {}), ...(bbox ? { bbox } : {}) } } : {}),
});
const pages = (...content: Block[][]): QuarryDocument => ({
  version: 1,
  metadata: {},
  blocks: content.map((blocks, i) => ({ type: 'section', kind: 'page', page: i + 1, width: 600, height: 800, content: blocks })),
});
const keys = (grid: Grid) => grid.map((row) => row.map((cell) => cell?.key ?? '.').join('|'));
const rel = (list: ReturnType<typeof adjacencies>) => list.map((a) => `${a.from}${a.direction === 'right' ? '→' : '↓'}${a.to}`).sort();

const cellXml = (row: number, col: number, text: string, end: { row?: number; col?: number } = {}) =>
  `<cell id="1" start-row="${row}" start-col="${col}"${end.row !== undefined ? ` end-row="${end.row}"` : ''}${end.col !== undefined ? ` end-col="${end.col}"` : ''}>` +
  `<bounding-box x1="${100 + col * 50}" y1="${700 - row * 20}" x2="${140 + col * 50}" y2="${710 - row * 20}"/><content>${text}</content><instruction instr-id="1"/></cell>`;
const region = (page: number, cells: string[], increment = 0) => `<region id="1" page="${page}" row-increment="${increment}" col-increment="0">${cells.join('')}</region>`;
const str = (...tables: string[][]) => `<?xml version="1.0" encoding="UTF-8"?><document filename="t-str.xml">${tables.map((regions, i) => `<table id="${i + 1}">${regions.join('')}</table>`).join('')}</document>`;

// A 3×3 table: a header spanning two columns, an empty cell between two cells in the last row.
const SMALL = str([region(1, [cellXml(0, 0, 'Item'), cellXml(0, 1, 'Price &amp; tax', { col: 2 }), cellXml(1, 0, 'Apples'), cellXml(1, 1, '0.50'), cellXml(1, 2, '1.00'), cellXml(2, 0, 'Pears'), cellXml(2, 2, '2.00')])]);
const SMALL_REG = `<document><table id="1"><region id="1" page="1"><instruction instr-id="1"/><bounding-box x1="60" y1="480" x2="300" y2="720"/></region></table></document>`;

describe('reading the ICDAR truth', () => {
  it('reads cells with their spans, text as written and the region box, ignoring instructions', () => {
    const [t] = readTruth(SMALL, SMALL_REG);
    expect(t.regions).toHaveLength(1);
    expect(t.regions[0].page).toBe(1);
    expect(t.regions[0].bbox).toEqual([60, 480, 300, 720]);
    expect(t.regions[0].cells[1]).toEqual({ row: 0, col: 1, endRow: 0, endCol: 2, text: 'Price & tax' });
    expect(t.regions[0].cells[3].text).toBe('0.50');
  });

  it('adds the row increment, and takes the union of the cell boxes without a region file', () => {
    const [t] = readTruth(str([region(2, [cellXml(1, 0, 'a'), cellXml(2, 1, 'b')], -1)]));
    expect(t.regions[0].cells.map((x) => [x.row, x.endRow])).toEqual([[0, 0], [1, 1]]);
    expect(t.regions[0].bbox).toEqual([100, 660, 190, 690]);
  });

  it('scores eu-009a against both of its truths, any other PDF against its own', () => {
    const names = ['eu-001.pdf', 'eu-001-str.xml', 'eu-001-reg.xml', 'eu-009a.pdf', 'eu-009a-str.xml', 'eu-009b-str.xml', 'eu-010.pdf', 'eu-010-str.xml', 'eu-011.pdf'];
    expect(Object.fromEntries(truthVariants(names))).toEqual({ 'eu-001.pdf': ['eu-001-str.xml'], 'eu-009a.pdf': ['eu-009a-str.xml', 'eu-009b-str.xml'], 'eu-010.pdf': ['eu-010-str.xml'] });
  });
});

describe('grids and adjacency relations', () => {
  it('normalizes text: NFKC, lower case, no whitespace or invisible characters, punctuation kept', () => {
    expect(normalizeText(' Total\u00a0(ﬁnal)\nＡ1 co\u00adop ')).toBe('total(final)a1coop');
    expect(normalizeText('1,000.5')).toBe('1,000.5');
  });

  it('expands a model table HTML-style: a spanning cell at every position it covers, short rows padded', () => {
    const grid = modelGrid(table([[c('A', { row_span: 2 }), c('B', { col_span: 2 })], [c('C'), c('D')], [c('E')]]));
    expect(keys(grid)).toEqual(['a|b|b', 'a|c|d', 'e|.|.']);
    expect(grid[0][1]).toBe(grid[0][2]);
  });

  it('relates each non-empty cell to the nearest non-empty cell right and below, over empty cells, once per pair', () => {
    const [t] = readTruth(SMALL);
    const grid = truthGrid(t.regions[0].cells);
    expect(keys(grid)).toEqual(['item|price&tax|price&tax', 'apples|0.50|1.00', 'pears|.|2.00']);
    expect(rel(adjacencies(grid))).toEqual(
      ['item→price&tax', 'item↓apples', 'price&tax↓0.50', 'price&tax↓1.00', 'apples→0.50', '0.50→1.00', 'apples↓pears', '1.00↓2.00', 'pears→2.00'].sort(),
    );
  });

  it('finds the same relations in the truth and in a model table of the same structure', () => {
    const truth = adjacencies(truthGrid(readTruth(SMALL)[0].regions[0].cells));
    const output = adjacencies(modelGrid(table([[c('Item'), c('Price & tax', { col_span: 2 })], [c('Apples'), c('0.50'), c('1.00')], [c('Pears'), c(''), c('2.00')]])));
    expect(commonAdjacencies(truth, output)).toBe(9);
    // Without the span the header relates to 0.50 only, and 1.00 has no header above it.
    const flat = adjacencies(modelGrid(table([[c('Item'), c('Price & tax'), c('')], [c('Apples'), c('0.50'), c('1.00')], [c('Pears'), c(''), c('2.00')]])));
    expect(commonAdjacencies(truth, flat)).toBe(8);
    expect(flat).toHaveLength(8);
  });

  it('stacks grids of a continued table one below the other, keeping cells apart', () => {
    const stacked = stackGrids([modelGrid(table([[c('a'), c('b')]])), modelGrid(table([[c('c'), c('d'), c('e')]]))]);
    expect(keys(stacked)).toEqual(['a|b|.', 'c|d|e']);
    expect(rel(adjacencies(stacked))).toEqual(['a→b', 'a↓c', 'b↓d', 'c→d', 'd→e'].sort());
  });
});

describe('matching and scoring', () => {
  it('turns truth points into page fractions from the top-left corner', () => {
    pageFractions([60, 480, 300, 720], { width: 600, height: 800 }).forEach((v, i) => expect(v).toBeCloseTo([0.1, 0.1, 0.5, 0.4][i], 9));
    expect(boxIoU([0, 0, 0.5, 0.5], [0.25, 0, 0.75, 0.5])).toBeCloseTo(1 / 3);
    expect(boxIoU([0, 0, 0.1, 0.1], [0.5, 0.5, 0.6, 0.6])).toBe(0);
  });

  it('matches by box when the text differs, only on the same page', () => {
    const truth = readTruth(SMALL, SMALL_REG);
    const sizes = new Map([[1, { width: 600, height: 800 }]]);
    const other = (page: number) => outputTables(pages(...Array.from({ length: page }, (_, i) => (i === page - 1 ? [table([[c('x'), c('y')]], undefined, [0.1, 0.1, 0.5, 0.4])] : [])))).tables;
    expect(matchTables(truth, other(1), sizes).matches[0].outputs[0]?.index).toBe(0);
    expect(matchTables(truth, other(2), sizes).matches[0].outputs).toEqual([null]);
  });

  it('scores a table split over two pages matched by a table on each, and a false table', () => {
    const split = str([region(1, [cellXml(0, 0, 'Year'), cellXml(0, 1, 'Sales'), cellXml(1, 0, '2019'), cellXml(1, 1, '10')]), region(2, [cellXml(0, 0, '2020'), cellXml(0, 1, '12')], 2)]);
    const truth = readTruth(split);
    expect(truth[0].regions.map((r) => r.page)).toEqual([1, 2]);
    const doc = pages(
      [table([[c('Year'), c('Sales')], [c('2019'), c('10')]])],
      [table([[c('2020'), c('12')]]), table([[c('Contents'), c('Page')], [c('Intro'), c('1')]])],
    );
    const { tables, pageSizes } = outputTables(doc);
    expect(tables.map((t) => t.page)).toEqual([1, 2, 2]);
    expect(pageSizes.get(2)).toEqual({ width: 600, height: 800 });
    const score = scoreDocument(truth, tables, pageSizes);
    expect(score.tables[0]).toMatchObject({ found: true, outputs: [0, 1], truthRows: 3, outputRows: 3, truthTuples: 7, correctTuples: 7 });
    expect(score).toMatchObject({ truthTables: 1, found: 1, outputTables: 3, falseTables: 1, rowsRight: 1, colsRight: 1, differingCells: 0 });
    // The false table's four relations count against precision only.
    expect(score.outputTuples).toBe(11);
    expect(prf(score).recall).toBe(1);
    expect(prf(score).precision).toBeCloseTo(7 / 11);
  });

  it('matches a table joined over two pages part by part, as tables kept apart', () => {
    const split = str([region(1, [cellXml(0, 0, 'Year'), cellXml(0, 1, 'Sales'), cellXml(1, 0, '2019'), cellXml(1, 1, '10')]), region(2, [cellXml(0, 0, '2020'), cellXml(0, 1, '12')], 2)]);
    const truth = readTruth(split);
    const joined: Table = {
      ...table([[c('Year'), c('Sales')], [c('2019'), c('10')], [c('2020'), c('12')]], 1, [0.1, 0.7, 0.5, 0.9]),
      row_prov: [
        { page: 1, bbox: [0.1, 0.7, 0.5, 0.8] },
        { page: 1, bbox: [0.1, 0.8, 0.5, 0.9] },
        { page: 2, bbox: [0.1, 0.1, 0.5, 0.2] },
      ],
    };
    const { tables, pageSizes } = outputTables(pages([joined], []));
    expect(tables.map((t) => [t.page, t.table.rows.length])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(tables[1].bbox).toEqual([0.1, 0.1, 0.5, 0.2]);
    const score = scoreDocument(truth, tables, pageSizes);
    expect(score.tables[0]).toMatchObject({ found: true, outputs: [0, 1], correctTuples: 7 });
    expect(score.falseTables).toBe(0);
  });

  it('counts a missed table against recall and a cell whose text differs', () => {
    const truth = readTruth(str([region(1, [cellXml(0, 0, 'Name'), cellXml(0, 1, 'Total'), cellXml(1, 0, 'Oslo'), cellXml(1, 1, '1,204')])], [region(3, [cellXml(0, 0, 'Only'), cellXml(0, 1, 'here')])]));
    const { tables, pageSizes } = outputTables(pages([table([[c('Name'), c('Total')], [c('Oslo'), c('1.204')], [c('Bergen'), c('7')]])]));
    const score = scoreDocument(truth, tables, pageSizes);
    expect(score).toMatchObject({ truthTables: 2, found: 1, falseTables: 0, rowsRight: 0, colsRight: 1, truthCells: 4, differingCells: 1, truthTuples: 5, correctTuples: 2 });
    expect(score.differences).toEqual([{ table: '1', truth: '1,204', nearest: '1.204' }]);
  });

  it('picks the truth variant with the better F1 and adds documents up relation by relation', () => {
    const a = { name: 'a', score: { ...emptyCounts(), truthTuples: 10, outputTuples: 10, correctTuples: 5 } };
    const b = { name: 'b', score: { ...emptyCounts(), truthTuples: 10, outputTuples: 10, correctTuples: 8 } };
    expect(bestVariant([a, b]).name).toBe('b');
    expect(bestVariant([b, a]).name).toBe('b');
    const total = addCounts([a.score, b.score]);
    expect(Object.values(prf(total)).map((v) => v.toFixed(6))).toEqual(['0.650000', '0.650000', '0.650000']);
  });

  it('judges the goals at their thresholds', () => {
    const met = goals({ ...emptyCounts(), truthTuples: 100, outputTuples: 100, correctTuples: 91, truthTables: 20, found: 19, outputTables: 20, falseTables: 1 });
    expect(met.map((g) => g.met)).toEqual([true, true, true]);
    const missed = goals({ ...emptyCounts(), truthTuples: 100, outputTuples: 100, correctTuples: 89, truthTables: 20, found: 18, outputTables: 19, falseTables: 1 });
    expect(missed.map((g) => g.met)).toEqual([false, false, false]);
  });
});
