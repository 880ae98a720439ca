import { corrupt, LIMITS } from './common';
import type { Block } from '@/lib/document/types';
import { readChart, readPicture, readTextBody } from './drawingml';
import type { MergedRange, Placed } from './sheet-blocks';
import { childElements, firstChild, path, readRelationships, readXmlPart, textOf, type XmlElement } from './xml';
import { MAX_ROW, parseRef } from './xlsx-cells';
import { type OfficeZip, relsPathOf, resolvePartPath } from './zip';

/*
 * Reading an XLSX package before and around exceljs: the workbook's sheets, worksheet XML cut to
 * the cell budget, and the drawings anchored on a sheet.
 */

/** Worksheet elements exceljs does not need for values; skipping them also avoids `cols` bombs. */
export const IGNORED_NODES = [
  'cols', 'dataValidations', 'conditionalFormatting', 'extLst', 'rowBreaks', 'colBreaks', 'hyperlinks',
  'pageMargins', 'pageSetup', 'printOptions', 'headerFooter', 'picture', 'drawing', 'legacyDrawing',
  'sheetProtection', 'tableParts', 'autoFilter', 'dimension', 'sheetViews', 'sheetFormatPr',
];

export interface SheetInfo {
  name: string;
  part?: string;
  visible: boolean;
}

function regexEscape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface Sanitized {
  xml: string;
  cells: number;
  truncated: boolean;
  /** The merged ranges kept (exceljs gets the same ones). */
  merges: MergedRange[];
}

/**
 * Cuts a worksheet's <sheetData> after `budget` cells and keeps only merged ranges that are
 * inside what is kept and not absurdly large. Row numbers / cell references beyond Excel's grid
 * are refused (exceljs would allocate or loop up to them).
 */
export function sanitizeWorksheet(xml: string, budget: number, sheet: string): Sanitized {
  // Patterns stop at the next "<" or at the end of the text: linear even on hostile input.
  const open = /<((?:[\w.-]+:)?)sheetData\b[^<>]*?(\/?)>/.exec(xml);
  if (!open) return { xml, cells: 0, truncated: false, merges: [] };
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
  const ranges: MergedRange[] = [];
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
      ranges.push({
        top: Math.min(from.row, to.row),
        left: Math.min(from.col, to.col),
        bottom: Math.max(from.row, to.row),
        right: Math.max(from.col, to.col),
      });
    }
    return kept.length ? `<${prefix}mergeCells count="${kept.length}">${kept.join('')}</${prefix}mergeCells>` : '';
  });
  return { xml: out, cells, truncated, merges: ranges };
}

/** Sheets in workbook order with their part and visibility. */
export function workbookSheets(zip: OfficeZip, workbookPart: string): SheetInfo[] {
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

/** Most drawing objects read per sheet. */
const MAX_DRAWING_OBJECTS = 1_000;

/** Charts, pictures and text boxes of a sheet's drawing parts, at their anchor cells. */
export function sheetDrawings(zip: OfficeZip, sheetPart: string): Placed[] {
  const placed: Placed[] = [];
  for (const rel of readRelationships(zip, relsPathOf(sheetPart)).values()) {
    if (rel.external || !rel.type.endsWith('/drawing')) continue;
    const drawingPart = resolvePartPath(sheetPart, rel.target);
    const root = readXmlPart(zip, drawingPart);
    if (!root) continue;
    const drawingRels = readRelationships(zip, relsPathOf(drawingPart));
    const objectBlocks = (el: XmlElement): Block[] => {
      switch (el.name) {
        case 'graphicFrame': {
          const chartRel = drawingRels.get(path(el, 'graphic', 'graphicData', 'chart')?.attrs['r:id'] ?? '');
          if (!chartRel || chartRel.external) return [];
          return readChart(zip, resolvePartPath(drawingPart, chartRel.target), path(el, 'nvGraphicFramePr', 'cNvPr')?.attrs.descr);
        }
        case 'pic': {
          const picture = readPicture(path(el, 'nvPicPr', 'cNvPr')?.attrs.descr);
          return picture ? [picture] : [];
        }
        case 'sp':
          return readTextBody(firstChild(el, 'txBody'), false);
        case 'grpSp':
          return childElements(el).flatMap(objectBlocks);
        case 'AlternateContent': {
          const branch = firstChild(el, 'Fallback') ?? firstChild(el, 'Choice');
          return branch ? childElements(branch).flatMap(objectBlocks) : [];
        }
        default:
          return [];
      }
    };
    for (const anchor of childElements(root).slice(0, MAX_DRAWING_OBJECTS)) {
      const from = firstChild(anchor, 'from');
      const top = from ? Number.parseInt(textOf(firstChild(from, 'row')), 10) + 1 : Number.POSITIVE_INFINITY;
      const left = from ? Number.parseInt(textOf(firstChild(from, 'col')), 10) + 1 : Number.POSITIVE_INFINITY;
      const blocks = childElements(anchor).flatMap(objectBlocks);
      if (blocks.length) {
        placed.push({
          top: Number.isFinite(top) ? top : Number.POSITIVE_INFINITY,
          left: Number.isFinite(left) ? left : Number.POSITIVE_INFINITY,
          blocks,
        });
      }
    }
  }
  return placed;
}

export function workbookPartOf(zip: OfficeZip): string {
  for (const rel of readRelationships(zip, '_rels/.rels').values()) {
    if (rel.type.endsWith('/officeDocument') && !rel.external) return resolvePartPath('', rel.target);
  }
  return 'xl/workbook.xml';
}

