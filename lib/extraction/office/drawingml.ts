import { cleanAltText, escapeCell, escapeText, renderTable } from './markdown';
import { childElements, firstChild, path, readXmlPart, textOf, type XmlElement } from './xml';
import type { OfficeZip } from './zip';

/*
 * DrawingML pieces shared by PPTX slides and XLSX drawings: text bodies (paragraphs, bullet and
 * numbered lists), tables (a:tbl) and charts (c:chartSpace parts).
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
  let text = '';
  for (const child of childElements(p)) {
    if (child.name === 'r' || child.name === 'fld') text += textOf(firstChild(child, 't'));
    else if (child.name === 'br') text += ' ';
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** Markdown of a text body: paragraphs and (nested) lists. */
export function renderTextBody(txBody: XmlElement | undefined, defaultBullets: boolean): string {
  if (!txBody) return '';
  const lstStyle = firstChild(txBody, 'lstStyle');
  const out: string[] = [];
  let listLines: string[] = [];
  /** Open list levels: kind, current number, and the width of the marker ("- " = 2, "10. " = 4). */
  const levels: { kind: BulletKind; n: number; width: number }[] = [];
  const flushList = () => {
    if (listLines.length) out.push(listLines.join('\n'));
    listLines = [];
    levels.length = 0;
  };
  for (const p of childElements(txBody, 'p')) {
    const text = paragraphText(p);
    if (!text) continue;
    const pPr = firstChild(p, 'pPr');
    const level = Math.min(Math.max(int(pPr?.attrs.lvl, 0), 0), 8);
    const bullet = bulletOf(pPr) ??
      bulletOf(firstChild(lstStyle, `lvl${level + 1}pPr`)) ?? { kind: defaultBullets ? ('bullet' as const) : ('none' as const) };
    if (bullet.kind === 'none') {
      flushList();
      out.push(escapeText(text));
      continue;
    }
    levels.length = Math.min(levels.length, level + 1);
    // Nest under the parent items' content columns.
    let indent = 0;
    for (let l = 0; l < level; l++) indent += levels[l]?.width ?? 2;
    let marker = '-';
    if (bullet.kind === 'number') {
      const previous = levels[level];
      const n = previous?.kind === 'number' ? previous.n + 1 : (bullet.start ?? 1);
      marker = `${n}.`;
      levels[level] = { kind: 'number', n, width: marker.length + 1 };
    } else {
      levels[level] = { kind: 'bullet', n: 0, width: 2 };
    }
    listLines.push(`${' '.repeat(indent)}${marker} ${escapeText(text)}`);
  }
  flushList();
  return out.join('\n\n');
}

/** GFM table of an a:tbl; merged cells' continuation cells (gridSpan/rowSpan) stay empty, so no text repeats. */
export function renderDrawingTable(tbl: XmlElement): string {
  const grid: string[][] = [];
  childElements(tbl, 'tr').forEach((tr) => {
    const row: string[] = [];
    childElements(tr, 'tc').forEach((tc) => {
      if (tc.attrs.hMerge === '1' || tc.attrs.hMerge === 'true' || tc.attrs.vMerge === '1' || tc.attrs.vMerge === 'true') row.push('');
      else {
        const paragraphs = childElements(firstChild(tc, 'txBody') ?? tc, 'p').map(paragraphText).filter(Boolean);
        row.push(escapeCell(paragraphs.join(' ')));
      }
    });
    grid.push(row);
  });
  return renderTable(grid.filter((row) => row.some(Boolean)));
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
 * A chart as a caption line ("*Line chart: <title>*") and a GFM table of its cached data: one row
 * per category (or x value), one column per series. `altText` is the drawing's description, used
 * when the chart has no title.
 */
export function renderChart(zip: OfficeZip, chartPart: string, altText = ''): string {
  const root = readXmlPart(zip, chartPart);
  const chart = firstChild(root, 'chart');
  if (!chart) return '';
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
  const description = title || cleanAltText(altText).replace(/^Chart type:\s*[^.]*\.\s*/i, '');
  const caption = `*${[labels.join(' and ') || 'Chart', escapeText(description)].filter(Boolean).join(': ')}*`;
  const count = Math.min(
    MAX_CHART_POINTS,
    series.reduce((max, s) => Math.max(max, ...[...s.values.keys(), ...s.categories.keys()].map((i) => i + 1), 0), 0),
  );
  if (series.length === 0 || count === 0) return caption;
  const categories = series.find((s) => s.categories.size > 0)?.categories;
  const rows: string[][] = [['', ...series.map((s) => escapeCell(s.name))]];
  for (let i = 0; i < count; i++) {
    rows.push([escapeCell(categories?.get(i) ?? String(i + 1)), ...series.map((s) => escapeCell(s.values.get(i) ?? ''))]);
  }
  return `${caption}\n\n${renderTable(rows)}`;
}

/** The italic placeholder for a picture with a description; empty without one. */
export function imagePlaceholder(descr: string | undefined): string {
  const alt = cleanAltText(descr ?? '');
  return alt ? `*Image: ${escapeText(alt)}*` : '';
}
