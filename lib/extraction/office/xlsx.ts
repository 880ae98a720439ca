import type ExcelJS from 'exceljs';
import { pageMarker, throwIfAborted, type ExtractInput, type ExtractResult } from '../types';
import { finishMarkdown, LIMITS, parsing, readInputFile, refuseTooManyPages } from './common';
import { escapeText } from './markdown';
import { readCoreProperties } from './xml';
import { IGNORED_NODES, sanitizeWorksheet, sheetDrawings, workbookPartOf, workbookSheets } from './xlsx-parts';
import { renderSheet } from './xlsx-render';
import { OfficeZip } from './zip';

export { cellKey } from './xlsx-cells';
export { renderCellBlocks, type Placed } from './xlsx-render';

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

  // Imported here, not at the top: every extraction process would otherwise load ExcelJS (a third
  // of a second and about 30 MB) whatever the document's format.
  const { Workbook } = (await import('exceljs')).default;
  const workbook = new Workbook();
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
