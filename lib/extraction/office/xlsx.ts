import ExcelJS from 'exceljs';
import { pageMarker, throwIfAborted, type ExtractInput, type ExtractResult } from '../types';
import { corrupt, finishMarkdown, LIMITS, parsing, readInputFile, refuseTooManyPages } from './common';
import { imagePlaceholder, renderChart, renderTextBody } from './drawingml';
import { escapeCell, escapeText, renderTable } from './markdown';
import { childElements, firstChild, path, readCoreProperties, readRelationships, readXmlPart, textOf, type XmlElement } from './xml';
import { OfficeZip, relsPathOf, resolvePartPath } from './zip';

/*
 * XLSX → Markdown with exceljs, one section per visible sheet.
 *
 * - Each sheet starts with `<!-- page N -->` and `## <sheet name>`; total_pages = number of
 *   visible sheets (hidden and very hidden sheets are skipped, as Excel does when showing them).
 * - A sheet's cells are split into tables: blocks of non-empty cells that touch each other
 *   (sharing a side) form one table, blocks separated by empty rows or columns are separate
 *   tables, in reading order (top to bottom, then left to right). Each table is the block's
 *   bounding box, first row as the header. A block of one cell, or one row repeating a single
 *   value (a merged title), is a paragraph.
 * - Values: formulas → their cached result; dates → ISO 8601 (date only at midnight); rich text
 *   → plain text; percentages → "25%"; errors → "#DIV/0!"; merged cells repeat their value in
 *   every cell they cover; pipes and newlines are escaped / flattened.
 * - Limits: at most LIMITS.cellsPerSheet cells per sheet and LIMITS.cellsPerWorkbook in all; the
 *   sheet XML is cut before exceljs sees it (so a huge sheet never becomes a huge object model)
 *   and the section ends with a note. Row/column numbers beyond Excel's limits, or absurd merged
 *   ranges, are refused or dropped before exceljs could allocate for them.
 * - Drawings anchored on the sheet take their place in the reading order: charts as a caption
 *   line and a table of their cached data, text boxes as text, pictures as an italic
 *   "Image: <alt>" line when they have a description. Comments and hyperlink targets are not
 *   extracted.
 * - Metadata: docProps/core.xml, the source of exceljs's workbook properties (title, creator,
 *   created); read directly because exceljs invents a creation date when the file has none.
 */

const MAX_ROW = 1_048_576;
const MAX_COL = 16_384;

/** Worksheet elements exceljs does not need for values; skipping them also avoids `cols` bombs. */
const IGNORED_NODES = [
  'cols', 'dataValidations', 'conditionalFormatting', 'extLst', 'rowBreaks', 'colBreaks', 'hyperlinks',
  'pageMargins', 'pageSetup', 'printOptions', 'headerFooter', 'picture', 'drawing', 'legacyDrawing',
  'sheetProtection', 'tableParts', 'autoFilter', 'dimension', 'sheetViews', 'sheetFormatPr',
];

interface SheetInfo {
  name: string;
  part?: string;
  visible: boolean;
}

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

function parseRef(ref: string): { row: number; col: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref.trim());
  if (!m) return undefined;
  const col = columnNumber(m[1]);
  const row = Number(m[2]);
  if (row < 1 || row > MAX_ROW || col < 1 || col > MAX_COL) return undefined;
  return { row, col };
}

function regexEscape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Sanitized {
  xml: string;
  cells: number;
  truncated: boolean;
}

/**
 * Cuts a worksheet's <sheetData> after `budget` cells and keeps only merged ranges that are
 * inside what is kept and not absurdly large. Row numbers / cell references beyond Excel's grid
 * are refused (exceljs would allocate or loop up to them).
 */
function sanitizeWorksheet(xml: string, budget: number, sheet: string): Sanitized {
  // Patterns stop at the next "<" or at the end of the text: linear even on hostile input.
  const open = /<((?:[\w.-]+:)?)sheetData\b[^<>]*?(\/?)>/.exec(xml);
  if (!open) return { xml, cells: 0, truncated: false };
  const prefix = open[1];
  let out = xml;
  let cells = 0;
  let truncated = false;
  let lastRow = 0;
  if (open[2] !== '/') {
    const dataStart = open.index + open[0].length;
    const closeTag = `</${prefix}sheetData>`;
    const dataEnd = xml.indexOf(closeTag, dataStart);
    if (dataEnd < 0) throw corrupt(`The XLSX file is damaged: the sheet "${sheet}" is truncated`);
    const tags = new RegExp(`<${regexEscape(prefix)}(row|c)\\b([^<>]*?)/?>`, 'g');
    tags.lastIndex = dataStart;
    let cut = -1;
    for (let m = tags.exec(xml); m && m.index < dataEnd; m = tags.exec(xml)) {
      const ref = /\br="([^"]*)"/.exec(m[2])?.[1];
      if (m[1] === 'row') {
        const row = ref === undefined ? lastRow + 1 : Number(ref);
        if (!Number.isInteger(row) || row < 1 || row > MAX_ROW) {
          throw corrupt(`The XLSX file is damaged: the sheet "${sheet}" has a row number beyond Excel's limits`);
        }
        lastRow = row;
        continue;
      }
      if (cells >= budget) {
        cut = m.index;
        break;
      }
      if (ref !== undefined && !parseRef(ref)) {
        throw corrupt(`The XLSX file is damaged: the sheet "${sheet}" has a cell reference beyond Excel's limits (${ref.slice(0, 20)})`);
      }
      cells++;
    }
    if (cut >= 0) {
      truncated = true;
      out = `${xml.slice(0, cut)}</${prefix}row>${xml.slice(dataEnd)}`;
    }
  }
  // Merged ranges: only those fully inside the kept rows, and not more cells than the budget.
  const maxRow = truncated ? lastRow : MAX_ROW;
  let mergedArea = 0;
  const merges = new RegExp(`<${regexEscape(prefix)}mergeCells\\b[^<>]*(?:/>|>[\\s\\S]*?(?:</${regexEscape(prefix)}mergeCells>|$))`);
  out = out.replace(merges, (block) => {
    const kept: string[] = [];
    for (const m of block.matchAll(/<(?:[\w.-]+:)?mergeCell\b[^<>]*?\bref="([^"<>]*)"[^<>]*?\/?>/g)) {
      const [a, b] = m[1].split(':');
      const from = parseRef(a ?? '');
      const to = parseRef(b ?? a ?? '');
      if (!from || !to) continue;
      const rows = Math.abs(to.row - from.row) + 1;
      const cols = Math.abs(to.col - from.col) + 1;
      if (Math.max(from.row, to.row) > maxRow) continue;
      if (mergedArea + rows * cols > LIMITS.cellsPerSheet) continue;
      mergedArea += rows * cols;
      kept.push(`<${prefix}mergeCell ref="${m[1]}"/>`);
    }
    return kept.length ? `<${prefix}mergeCells count="${kept.length}">${kept.join('')}</${prefix}mergeCells>` : '';
  });
  return { xml: out, cells, truncated };
}

/** Sheets in workbook order with their part and visibility. */
function workbookSheets(zip: OfficeZip, workbookPart: string): SheetInfo[] {
  const workbook = readXmlPart(zip, workbookPart);
  if (!workbook || workbook.name !== 'workbook') throw corrupt('The XLSX file is not an Excel workbook: it has no workbook part');
  const rels = readRelationships(zip, relsPathOf(workbookPart));
  return childElements(firstChild(workbook, 'sheets') ?? workbook, 'sheet').map((sheet) => {
    const rel = rels.get(sheet.attrs['r:id'] ?? '');
    return {
      name: sheet.attrs.name ?? '',
      part: rel && !rel.external ? resolvePartPath(workbookPart, rel.target) : undefined,
      visible: (sheet.attrs.state ?? 'visible') === 'visible',
    };
  });
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

function valueText(value: ExcelJS.CellValue | undefined, numFmt: string | undefined): string {
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

/** Groups non-empty cells into blocks of side-touching cells, in reading order. */
function blocksOf(cells: Map<number, string>): number[][] {
  const key = (row: number, col: number) => row * (MAX_COL + 1) + col;
  const seen = new Set<number>();
  const blocks: number[][] = [];
  const sorted = [...cells.keys()].sort((a, b) => a - b);
  for (const start of sorted) {
    if (seen.has(start)) continue;
    const block: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const k = stack.pop()!;
      block.push(k);
      const row = Math.floor(k / (MAX_COL + 1));
      const col = k % (MAX_COL + 1);
      for (const n of [key(row - 1, col), key(row + 1, col), key(row, col - 1), key(row, col + 1)]) {
        if (!seen.has(n) && cells.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    blocks.push(block);
  }
  return blocks;
}

export interface Placed {
  top: number;
  left: number;
  markdown: string;
}

/** Most drawing objects read per sheet. */
const MAX_DRAWING_OBJECTS = 1_000;

/** Charts, pictures and text boxes of a sheet's drawing parts, at their anchor cells. */
function sheetDrawings(zip: OfficeZip, sheetPart: string): Placed[] {
  const placed: Placed[] = [];
  for (const rel of readRelationships(zip, relsPathOf(sheetPart)).values()) {
    if (rel.external || !rel.type.endsWith('/drawing')) continue;
    const drawingPart = resolvePartPath(sheetPart, rel.target);
    const root = readXmlPart(zip, drawingPart);
    if (!root) continue;
    const drawingRels = readRelationships(zip, relsPathOf(drawingPart));
    const objectMarkdown = (el: XmlElement): string[] => {
      switch (el.name) {
        case 'graphicFrame': {
          const chartRel = drawingRels.get(path(el, 'graphic', 'graphicData', 'chart')?.attrs['r:id'] ?? '');
          if (!chartRel || chartRel.external) return [];
          return [renderChart(zip, resolvePartPath(drawingPart, chartRel.target), path(el, 'nvGraphicFramePr', 'cNvPr')?.attrs.descr)];
        }
        case 'pic':
          return [imagePlaceholder(path(el, 'nvPicPr', 'cNvPr')?.attrs.descr)];
        case 'sp':
          return [renderTextBody(firstChild(el, 'txBody'), false)];
        case 'grpSp':
          return childElements(el).flatMap(objectMarkdown);
        case 'AlternateContent': {
          const branch = firstChild(el, 'Fallback') ?? firstChild(el, 'Choice');
          return branch ? childElements(branch).flatMap(objectMarkdown) : [];
        }
        default:
          return [];
      }
    };
    for (const anchor of childElements(root).slice(0, MAX_DRAWING_OBJECTS)) {
      const from = firstChild(anchor, 'from');
      const top = from ? Number.parseInt(textOf(firstChild(from, 'row')), 10) + 1 : Number.POSITIVE_INFINITY;
      const left = from ? Number.parseInt(textOf(firstChild(from, 'col')), 10) + 1 : Number.POSITIVE_INFINITY;
      const markdown = childElements(anchor).flatMap(objectMarkdown).filter((m) => m.trim()).join('\n\n');
      if (markdown) {
        placed.push({
          top: Number.isFinite(top) ? top : Number.POSITIVE_INFINITY,
          left: Number.isFinite(left) ? left : Number.POSITIVE_INFINITY,
          markdown,
        });
      }
    }
  }
  return placed;
}

function renderSheet(ws: ExcelJS.Worksheet, drawings: Placed[]): string {
  const cells = new Map<number, string>();
  ws.eachRow({ includeEmpty: false }, (row, r) => {
    row.eachCell({ includeEmpty: false }, (cell, c) => {
      if (c > MAX_COL || r > MAX_ROW) return;
      const text = valueText(cell.value, cell.numFmt).trim();
      if (text) cells.set(cellKey(r, c), text);
    });
  });
  return renderCellBlocks(cells, drawings);
}

/** The key of a (1-based) cell in the maps renderCellBlocks takes. */
export function cellKey(row: number, col: number): number {
  return row * (MAX_COL + 1) + col;
}

/**
 * A sheet's non-empty cells (plain text by cellKey) as Markdown: each block of adjacent cells a
 * GFM table (a lone value as a line), with `drawings` placed among them by their anchor cells.
 * Shared with the OpenDocument spreadsheet reader.
 */
export function renderCellBlocks(cells: Map<number, string>, drawings: Placed[] = []): string {
  const parts: Placed[] = [...drawings];
  // Tables are rendered over their bounding boxes; empty padding counts against this budget so
  // that sparse blocks (an L of cells spanning a huge box) stay bounded.
  let area: number = LIMITS.tableCells;
  for (const block of blocksOf(cells)) {
    let top = Infinity;
    let bottom = 0;
    let left = Infinity;
    let right = 0;
    for (const k of block) {
      const row = Math.floor(k / (MAX_COL + 1));
      const col = k % (MAX_COL + 1);
      top = Math.min(top, row);
      bottom = Math.max(bottom, row);
      left = Math.min(left, col);
      right = Math.max(right, col);
    }
    const members = new Set(block);
    const values = block.map((k) => cells.get(k)!);
    let markdown: string;
    if (top === bottom && new Set(values).size === 1) {
      markdown = escapeText(values[0].replace(/\s+/g, ' '));
    } else {
      const width = Math.min(right - left + 1, LIMITS.tableColumns);
      const rowLimit = Math.max(1, Math.floor(Math.max(area, width) / width));
      const rows: string[][] = [];
      for (let r = top; r <= bottom && rows.length < rowLimit; r++) {
        const row: string[] = [];
        for (let c = left; c < left + width; c++) {
          const k = r * (MAX_COL + 1) + c;
          row.push(members.has(k) ? escapeCell(cells.get(k)!) : '');
        }
        rows.push(row);
      }
      markdown = renderTable(rows, Number.POSITIVE_INFINITY, bottom - top + 1);
      area = Math.max(0, area - rows.length * width);
    }
    parts.push({ top, left, markdown });
  }
  parts.sort((a, b) => a.top - b.top || a.left - b.left);
  return parts.map((p) => p.markdown).join('\n\n');
}

function workbookPartOf(zip: OfficeZip): string {
  for (const rel of readRelationships(zip, '_rels/.rels').values()) {
    if (rel.type.endsWith('/officeDocument') && !rel.external) return resolvePartPath('', rel.target);
  }
  return 'xl/workbook.xml';
}

export async function extractXlsx(input: ExtractInput): Promise<ExtractResult> {
  throwIfAborted(input.signal);
  const zip = OfficeZip.open(await readInputFile(input), 'XLSX');
  const workbookPart = workbookPartOf(zip);
  const sheets = workbookSheets(zip, workbookPart);
  const visible = sheets.filter((s) => s.visible);
  refuseTooManyPages(visible.length, input.maxPages, 'sheets');
  const metadata = readCoreProperties(zip);

  // Cut every worksheet to its share of the cell budget before exceljs builds its model.
  const replaced = new Map<string, Uint8Array>();
  const truncated = new Map<string, number>();
  let remaining: number = LIMITS.cellsPerWorkbook;
  for (const sheet of sheets) {
    if (!sheet.part || !zip.has(sheet.part)) continue;
    throwIfAborted(input.signal);
    const xml = zip.text(sheet.part)!;
    const budget = sheet.visible ? Math.min(LIMITS.cellsPerSheet, remaining) : 0;
    const result = sanitizeWorksheet(xml, budget, sheet.name);
    remaining -= result.cells;
    if (result.truncated && sheet.visible) truncated.set(sheet.name, result.cells);
    if (result.xml !== xml) replaced.set(zip.names().find((n) => n.toLowerCase() === sheet.part!.toLowerCase())!, new TextEncoder().encode(result.xml));
  }
  // exceljs gets the XML parts only: images, embedded objects and printer settings stay packed.
  const repacked = zip.repack((name) => /\.(xml|rels)$/i.test(name) && !/^xl\/(media|embeddings|printerSettings)\//i.test(name), replaced);
  throwIfAborted(input.signal);

  const workbook = new ExcelJS.Workbook();
  await parsing('XLSX', () =>
    workbook.xlsx.load(Buffer.from(repacked.buffer, repacked.byteOffset, repacked.byteLength) as unknown as ExcelJS.Buffer, {
      ignoreNodes: IGNORED_NODES,
    } as Partial<ExcelJS.XlsxReadOptions>),
  );

  const byName = new Map(workbook.worksheets.map((ws) => [ws.name, ws]));
  const sections: string[] = [];
  let hasContent = false;
  for (const [i, sheet] of visible.entries()) {
    throwIfAborted(input.signal);
    const ws = byName.get(sheet.name);
    const drawings = sheet.part ? sheetDrawings(zip, sheet.part) : [];
    const body = ws ? await parsing('XLSX', () => renderSheet(ws, drawings)) : '';
    const parts = [pageMarker(i + 1), `## ${escapeText(sheet.name)}`];
    if (body) parts.push(body);
    hasContent ||= Boolean(body);
    const kept = truncated.get(sheet.name);
    if (kept !== undefined) {
      parts.push(`*The sheet is truncated: only its first ${kept.toLocaleString('en-US')} cells were extracted.*`);
    }
    sections.push(parts.join('\n\n'));
    input.onProgress(i + 1, visible.length);
  }
  return {
    // A workbook without a single value is an empty document: no headings for empty sheets.
    markdown: hasContent ? finishMarkdown(sections.join('\n\n')) : '',
    totalPages: Math.max(visible.length, 1),
    metadata,
  };
}
