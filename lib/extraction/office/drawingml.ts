import type { Block, List, Picture, Table, TableCell } from '@/lib/document/types';
import { altText, note, paragraph, text } from './model';
import { tableFromGrid, type GridCell, type GridRow } from './table-model';
import { childElements, firstChild, path, readXmlPart, textOf, type XmlElement } from './xml';
import type { OfficeZip } from './zip';

/*
 * DrawingML pieces shared by PPTX slides and XLSX drawings, read into the document model: text
 * bodies (paragraphs, bullet and numbered lists), tables (a:tbl) and charts (c:chartSpace parts).
 */

function int(value: string | undefined, fallback: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : fallback;
}

type BulletKind = 'none' | 'bullet' | 'number';

function bulletOf(pPr: XmlElement | undefined): { kind: BulletKind; start?: number } | undefined {
  if (!pPr) return undefined;
  if (firstChild(pPr, 'buNone')) return { kind: 'none' };
  const autoNum = firstChild(pPr, 'buAutoNum');
  if (autoNum) return { kind: 'number', start: int(autoNum.attrs.startAt, 1) };
  if (firstChild(pPr, 'buChar') || firstChild(pPr, 'buBlip')) return { kind: 'bullet' };
  return undefined;
}

/** Text of a paragraph: runs, fields and line breaks (as spaces). */
export function paragraphText(p: XmlElement): string {
  let out = '';
  for (const child of childElements(p)) {
    if (child.name === 'r' || child.name === 'fld') out += textOf(firstChild(child, 't'));
    else if (child.name === 'br') out += ' ';
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * A text body as blocks: paragraphs, and bulleted / numbered paragraphs as lists nested by their
 * level (a level never more than one below the item before it; a change between bullets and
 * numbers starts a new list).
 */
export function readTextBody(txBody: XmlElement | undefined, defaultBullets: boolean): Block[] {
  if (!txBody) return [];
  const lstStyle = firstChild(txBody, 'lstStyle');
  const out: Block[] = [];
  /** The open list at each nesting depth. */
  let open: List[] = [];
  for (const p of childElements(txBody, 'p')) {
    const value = paragraphText(p);
    if (!value) continue;
    const pPr = firstChild(p, 'pPr');
    const level = Math.min(Math.max(int(pPr?.attrs.lvl, 0), 0), 8);
    const bullet = bulletOf(pPr) ??
      bulletOf(firstChild(lstStyle, `lvl${level + 1}pPr`)) ?? { kind: defaultBullets ? ('bullet' as const) : ('none' as const) };
    if (bullet.kind === 'none') {
      open = [];
      out.push(paragraph(value));
      continue;
    }
    const ordered = bullet.kind === 'number';
    const depth = Math.min(level, open.length);
    open.length = depth + 1;
    let list = open[depth];
    if (!list || list.ordered !== ordered) {
      list = { type: 'list', ordered, items: [] };
      if (ordered && (bullet.start ?? 1) !== 1) list.start = bullet.start;
      if (depth === 0) out.push(list);
      else {
        const parent = open[depth - 1].items[open[depth - 1].items.length - 1];
        parent.content.push(list);
      }
      open[depth] = list;
    }
    list.items.push({ content: [paragraph(value)] });
  }
  return out;
}

function isContinuation(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

/**
 * The table of an a:tbl: each a:tc is a grid column; a merged cell (gridSpan / rowSpan) spans the
 * positions its continuation cells (hMerge / vMerge) hold, so its text is in the model once.
 */
export function readDrawingTable(tbl: XmlElement): Table | undefined {
  const grid: GridRow[] = childElements(tbl, 'tr').map((tr) =>
    childElements(tr, 'tc').map((tc): GridCell | undefined => {
      if (isContinuation(tc.attrs.hMerge) || isContinuation(tc.attrs.vMerge)) return undefined;
      const value = childElements(firstChild(tc, 'txBody') ?? tc, 'p').map(paragraphText).filter(Boolean).join(' ');
      return { content: value ? [text(value)] : [], colSpan: int(tc.attrs.gridSpan, 1), rowSpan: int(tc.attrs.rowSpan, 1) };
    }),
  );
  const firstRow = firstChild(tbl, 'tblPr')?.attrs.firstRow;
  return tableFromGrid(grid, { headerRows: isContinuation(firstRow) ? 1 : 0 });
}

// --- Charts ------------------------------------------------------------------------------------

const CHART_TYPES: Record<string, string> = {
  lineChart: 'Line chart', line3DChart: 'Line chart', areaChart: 'Area chart', area3DChart: 'Area chart',
  pieChart: 'Pie chart', pie3DChart: 'Pie chart', ofPieChart: 'Pie chart', doughnutChart: 'Doughnut chart',
  scatterChart: 'Scatter chart', bubbleChart: 'Bubble chart', radarChart: 'Radar chart', stockChart: 'Stock chart',
  surfaceChart: 'Surface chart', surface3DChart: 'Surface chart',
};

/** Most data points (rows) and series (columns) written for one chart. */
const MAX_CHART_POINTS = 10_000;
const MAX_CHART_SERIES = 100;

/** Cached values of a c:strRef / c:numRef / c:strLit / c:numLit / c:multiLvlStrRef, by point index. */
function cachedPoints(el: XmlElement | undefined): Map<number, string> {
  const points = new Map<number, string>();
  if (!el) return points;
  const cache =
    path(el, 'strRef', 'strCache') ?? path(el, 'numRef', 'numCache') ?? firstChild(el, 'strLit') ?? firstChild(el, 'numLit') ??
    path(el, 'multiLvlStrRef', 'multiLvlStrCache', 'lvl');
  if (!cache) return points;
  for (const pt of childElements(cache, 'pt')) {
    const idx = int(pt.attrs.idx, -1);
    if (idx < 0 || idx >= MAX_CHART_POINTS) continue;
    const raw = textOf(firstChild(pt, 'v')).trim();
    const n = Number(raw);
    points.set(idx, raw !== '' && Number.isFinite(n) && /^[-+\d.eE]+$/.test(raw) ? String(Number(n.toPrecision(15))) : raw);
  }
  return points;
}

function chartTypeLabel(el: XmlElement): string | undefined {
  if (el.name === 'barChart' || el.name === 'bar3DChart') {
    return firstChild(el, 'barDir')?.attrs.val === 'bar' ? 'Bar chart' : 'Column chart';
  }
  return CHART_TYPES[el.name];
}

/**
 * A chart: its data table (one row per category or x value, one column per series) with the
 * caption "Line chart: <title>", or the caption alone when the chart caches no data. `description`
 * is the drawing's description, used when the chart has no title.
 */
export function readChart(zip: OfficeZip, chartPart: string, description = ''): Block[] {
  const root = readXmlPart(zip, chartPart);
  const chart = firstChild(root, 'chart');
  if (!chart) return [];
  const plotArea = firstChild(chart, 'plotArea');
  const title = childElements(path(chart, 'title', 'tx', 'rich') ?? chart, 'p')
    .map((p) => paragraphText(p))
    .join(' ')
    .trim() || textOf(path(chart, 'title', 'tx', 'strRef', 'strCache', 'pt', 'v')).trim();
  const labels: string[] = [];
  const series: { name: string; categories: Map<number, string>; values: Map<number, string> }[] = [];
  for (const group of plotArea ? childElements(plotArea) : []) {
    const label = chartTypeLabel(group);
    if (!label) continue;
    if (!labels.includes(label)) labels.push(label);
    for (const ser of childElements(group, 'ser')) {
      if (series.length >= MAX_CHART_SERIES) break;
      const tx = firstChild(ser, 'tx');
      const name = (cachedPoints(tx).get(0) ?? textOf(firstChild(tx, 'v'))).trim();
      series.push({
        name: name || `Series ${series.length + 1}`,
        categories: cachedPoints(firstChild(ser, 'cat') ?? firstChild(ser, 'xVal')),
        values: cachedPoints(firstChild(ser, 'val') ?? firstChild(ser, 'yVal')),
      });
    }
  }
  const about = title || altText(description).replace(/^Chart type:\s*[^.]*\.\s*/i, '');
  const caption = [labels.join(' and ') || 'Chart', about].filter(Boolean).join(': ');
  const count = Math.min(
    MAX_CHART_POINTS,
    series.reduce((max, s) => Math.max(max, ...[...s.values.keys(), ...s.categories.keys()].map((i) => i + 1), 0), 0),
  );
  if (series.length === 0 || count === 0) return [note(caption)];
  const categories = series.find((s) => s.categories.size > 0)?.categories;
  const cell = (value: string): TableCell => ({ content: value ? [text(value)] : [] });
  const rows: TableCell[][] = [[cell(''), ...series.map((s) => cell(s.name))]];
  for (let i = 0; i < count; i++) {
    rows.push([cell(categories?.get(i) ?? String(i + 1)), ...series.map((s) => cell(s.values.get(i) ?? ''))]);
  }
  return [{ type: 'table', rows, header_rows: 1, caption: [text(caption, { italic: true })] }];
}

/** A picture with a description; none without one. */
export function readPicture(descr: string | undefined): Picture | undefined {
  const alt = altText(descr);
  return alt ? { type: 'picture', alt } : undefined;
}
