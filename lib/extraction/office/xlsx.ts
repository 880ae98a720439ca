import type ExcelJS from 'exceljs';
import type { Block, Section } from '@/lib/document/types';
import { throwIfAborted, type ExtractedDocument, type ExtractInput } from '../types';
import { LIMITS, parsing, readInputFile, refuseTooManyPages } from './common';
import { documentOf, heading, note } from './model';
import { readSheet, type MergedRange } from './sheet-blocks';
import { readCoreProperties } from './xml';
import { IGNORED_NODES, sanitizeWorksheet, sheetDrawings, workbookPartOf, workbookSheets, type SheetInfo } from './xlsx-parts';
import { OfficeZip } from './zip';

/*
 * XLSX → the document model with exceljs, one section per visible sheet.
 *
 * - Each sheet is a `sheet` section (page N, the sheet's name) opening with the sheet's name as a
 *   level-2 heading; total_pages = number of visible sheets (hidden and very hidden sheets are
 *   skipped, as Excel does when showing them).
 * - A sheet's cells are split into tables: blocks of non-empty cells that touch each other
 *   (sharing a side, a merged cell covering all its positions) form one table, blocks separated
 *   by empty rows or columns are separate tables, in reading order (top to bottom, then left to
 *   right). Each table is the block's bounding box, first row as the header. A block of one
 *   (merged) cell, or one row repeating a single value, is a paragraph.
 * - Values: formulas → their cached result; dates → ISO 8601 (date only at midnight); rich text
 *   → plain text; percentages → "25%"; errors → "#DIV/0!". A merged cell is one cell with its
 *   row and column spans (the positions it covers hold no text of their own).
 * - Limits: at most LIMITS.cellsPerSheet cells per sheet and LIMITS.cellsPerWorkbook in all; the
 *   sheet XML is cut before exceljs sees it (so a huge sheet never becomes a huge object model)
 *   and the section ends with a note. Row/column numbers beyond Excel's limits, or absurd merged
 *   ranges, are refused or dropped before exceljs could allocate for them.
 * - Drawings anchored on the sheet take their place in the reading order: charts as a table of
 *   their cached data captioned with the chart's kind and title, text boxes as text, pictures
 *   with their description. Comments and hyperlink targets are not extracted.
 * - Metadata: docProps/core.xml, the source of exceljs's workbook properties (title, creator,
 *   created); read directly because exceljs invents a creation date when the file has none.
 */

interface Loaded {
  workbook: ExcelJS.Workbook;
  /** Cells kept of the visible sheets that were cut, by sheet name. */
  truncated: Map<string, number>;
  /** The merged ranges kept, by sheet name. */
  merges: Map<string, MergedRange[]>;
}

/**
 * Every worksheet cut to its share of the cell budget, then the workbook as exceljs reads it. The
 * copies of the XML made on the way are let go before the sheets are read (a million-cell
 * workbook's are a hundred megabytes or more).
 */
async function loadWorkbook(zip: OfficeZip, sheets: SheetInfo[], signal: AbortSignal): Promise<Loaded> {
  const replaced = new Map<string, Uint8Array>();
  const truncated = new Map<string, number>();
  const merges = new Map<string, MergedRange[]>();
  let remaining: number = LIMITS.cellsPerWorkbook;
  for (const sheet of sheets) {
    if (!sheet.part || !zip.has(sheet.part)) continue;
    throwIfAborted(signal);
    const xml = zip.text(sheet.part)!;
    const budget = sheet.visible ? Math.min(LIMITS.cellsPerSheet, remaining) : 0;
    const result = sanitizeWorksheet(xml, budget, sheet.name);
    remaining -= result.cells;
    merges.set(sheet.name, result.merges);
    if (result.truncated && sheet.visible) truncated.set(sheet.name, result.cells);
    if (result.xml !== xml) replaced.set(zip.names().find((n) => n.toLowerCase() === sheet.part!.toLowerCase())!, new TextEncoder().encode(result.xml));
  }
  // exceljs gets the XML parts only: images, embedded objects and printer settings stay packed.
  const repacked = zip.repack((name) => /\.(xml|rels)$/i.test(name) && !/^xl\/(media|embeddings|printerSettings)\//i.test(name), replaced);
  replaced.clear();
  // The worksheets are read once, by exceljs (the drawings are read from their own parts).
  for (const sheet of sheets) if (sheet.part) zip.release(sheet.part);
  throwIfAborted(signal);

  // Imported here, not at the top: every extraction process would otherwise load ExcelJS (a third
  // of a second and about 30 MB) whatever the document's format.
  const { Workbook } = (await import('exceljs')).default;
  const workbook = new Workbook();
  await parsing('XLSX', () =>
    workbook.xlsx.load(Buffer.from(repacked.buffer, repacked.byteOffset, repacked.byteLength) as unknown as ExcelJS.Buffer, {
      ignoreNodes: IGNORED_NODES,
    } as Partial<ExcelJS.XlsxReadOptions>),
  );
  return { workbook, truncated, merges };
}

export async function readXlsx(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const zip = OfficeZip.open(await readInputFile(input), 'XLSX');
  const workbookPart = workbookPartOf(zip);
  const sheets = workbookSheets(zip, workbookPart);
  const visible = sheets.filter((s) => s.visible);
  refuseTooManyPages(visible.length, input.maxPages, 'sheets');
  const metadata = readCoreProperties(zip);

  const { workbook, truncated, merges } = await loadWorkbook(zip, sheets, input.signal);

  const byName = new Map(workbook.worksheets.map((ws) => [ws.name, ws]));
  const sections: Section[] = [];
  let hasContent = false;
  for (const [i, sheet] of visible.entries()) {
    throwIfAborted(input.signal);
    const ws = byName.get(sheet.name);
    const drawings = sheet.part ? sheetDrawings(zip, sheet.part) : [];
    const body: Block[] = ws ? await parsing('XLSX', () => readSheet(ws, merges.get(sheet.name) ?? [], drawings)) : [];
    // The sheet's exceljs model is no longer needed: let it go while the next sheets are read.
    if (ws) workbook.removeWorksheet(ws.id);
    byName.delete(sheet.name);
    const content: Block[] = [heading(2, sheet.name), ...body];
    hasContent ||= body.length > 0;
    const kept = truncated.get(sheet.name);
    if (kept !== undefined) content.push(note(`The sheet is truncated: only its first ${kept.toLocaleString('en-US')} cells were extracted.`));
    sections.push({ type: 'section', kind: 'sheet', page: i + 1, name: sheet.name, content });
    input.onProgress(i + 1, visible.length);
  }
  return {
    // A workbook without a single value is an empty document: no headings for empty sheets.
    document: documentOf(metadata, hasContent ? sections : []),
    totalPages: Math.max(visible.length, 1),
  };
}
