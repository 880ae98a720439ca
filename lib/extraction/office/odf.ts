import { safeHref } from '@/lib/document/links';
import type { Block, Footnote, Inline, List, ListItem, Section, Table } from '@/lib/document/types';
import { ExtractionError, throwIfAborted, type DocumentMetadata, type ExtractedDocument, type ExtractInput } from '../types';
import { compactMetadata, isoDate, LIMITS, readInputFile, refuseTooManyPages } from './common';
import { collapseInlines, documentOf, flattenInlines, hasText, heading, note, paragraph, text } from './model';
import { int, sheetCells, SKIPPED, tableRows } from './odf-cells';
import { sheetBlocks } from './sheet-blocks';
import { tableFromGrid, type GridRow } from './table-model';
import { childElements, findAll, firstChild, readXmlPart, textOf, type XmlElement } from './xml';
import { OfficeZip } from './zip';

/*
 * OpenDocument (ODT, ODS, ODP) → the document model, read from content.xml through the guarded
 * zip reader, in the shapes the OOXML readers give:
 *
 * - Text: text:h → heading of its outline level; text:p → paragraph; text:list → nested list
 *   (numbered when its list style numbers that level); table:table → table (a merged cell once,
 *   with its spans; table:table-header-rows as header rows); frames' text boxes read in place;
 *   notes → footnotes after the text. No page sections (ODT has no fixed pages, like DOCX).
 * - Spreadsheet: one `sheet` section per sheet (page N, its name, the name as a level-2
 *   heading), each block of adjacent cells a table as for XLSX; repeated rows and columns (Calc
 *   writes a million empty ones) cost only the cells with text, and LIMITS.cellsPerSheet cut a
 *   sheet with a note.
 * - Presentation: one `slide` section per slide, the title frame as a level-2 heading, the other
 *   frames in order, speaker notes as a quote ("**Notes:** …"), the slide's notes after it.
 * - Metadata from meta.xml: title, author (initial creator or creator), created_date.
 */

interface Context {
  /** List style name → levels (1-based) that are numbered. */
  numbered: Map<string, Set<number>>;
  /** Notes met so far, numbered in document order. */
  notes: Footnote[];
  /** Notes not yet placed (a slide's go after the slide, a text's after the text). */
  pending: Footnote[];
}

function withHref(content: Inline[], href: string): Inline[] {
  return content.map((run) => (run.type === 'text' ? { ...run, href } : run));
}

function inline(el: XmlElement, ctx: Context): Inline[] {
  const out: Inline[] = [];
  for (const child of el.children) {
    if (typeof child === 'string') {
      out.push(text(child.replace(/\s+/g, ' ')));
      continue;
    }
    switch (child.name) {
      case 's':
        out.push(text(' '.repeat(int(child.attrs.c, 1, 100))));
        break;
      case 'tab':
      case 'line-break':
        out.push(text(' '));
        break;
      case 'note': {
        const body = firstChild(child, 'note-body');
        const content = body ? blocks(body, ctx) : [];
        if (content.length) {
          const footnote: Footnote = { type: 'footnote', label: String(ctx.notes.length + 1), content };
          ctx.notes.push(footnote);
          ctx.pending.push(footnote);
          out.push({ type: 'footnote_ref', label: footnote.label });
        }
        break;
      }
      case 'a': {
        const content = inline(child, ctx);
        const target = (child.attrs['xlink:href'] ?? '').trim();
        out.push(...(safeHref(target) && hasText(content) ? withHref(content, target) : content));
        break;
      }
      case 'frame':
        out.push(text(' '), ...flattenInlines(blocks(child, ctx)), text(' '));
        break;
      default:
        if (!SKIPPED.has(child.name)) out.push(...inline(child, ctx));
    }
  }
  return out;
}

function readList(list: XmlElement, depth: number, ctx: Context, style?: string): List | undefined {
  const styleName = list.attrs['text:style-name'] ?? style;
  const ordered = (styleName ? ctx.numbered.get(styleName)?.has(depth + 1) : false) ?? false;
  const items: ListItem[] = [];
  let n = 0;
  for (const item of childElements(list)) {
    if (item.name !== 'list-item' && item.name !== 'list-header') continue;
    n++;
    const content: Block[] = [];
    for (const child of childElements(item)) {
      if (child.name === 'list') {
        const nested = readList(child, depth + 1, ctx, styleName);
        if (nested) content.push(nested);
      } else content.push(...blocks({ name: 'item', attrs: {}, children: [child] }, ctx));
    }
    if (!content.length) continue;
    const entry: ListItem = { content };
    // An empty item still takes its number.
    if (ordered && n !== items.length + 1) entry.number = n;
    items.push(entry);
  }
  return items.length ? { type: 'list', ordered, items } : undefined;
}

/** Header rows: the rows of the table:table-header-rows at the table's top. */
function headerRowCount(table: XmlElement): number {
  let count = 0;
  for (const child of childElements(table)) {
    if (child.name === 'table-header-rows') count += tableRows(child).length;
    else if (child.name === 'table-row' || /^table-(rows|row-group)$/.test(child.name)) break;
  }
  return count;
}

function readTable(table: XmlElement, ctx: Context): Table | undefined {
  const grid: GridRow[] = [];
  for (const row of tableRows(table).slice(0, LIMITS.tableCells)) {
    const cells: GridRow = [];
    let c = 0;
    for (const cell of childElements(row)) {
      if (cell.name !== 'table-cell' && cell.name !== 'covered-table-cell') continue;
      const repeat = int(cell.attrs['number-columns-repeated'], 1, LIMITS.tableColumns);
      // A covered cell holds no text: the merged cell's is written once, where it starts.
      const content = cell.name === 'table-cell' ? flattenInlines(blocks(cell, ctx)) : [];
      const colSpan = int(cell.attrs['number-columns-spanned'], 1, LIMITS.tableColumns);
      const rowSpan = int(cell.attrs['number-rows-spanned'], 1, LIMITS.tableCells);
      for (let i = 0; i < repeat && c < LIMITS.tableColumns; i++, c++) {
        if (content.length) cells[c] = { content, colSpan, rowSpan };
      }
    }
    grid.push(cells);
  }
  return tableFromGrid(grid, { headerRows: headerRowCount(table) });
}

/** The blocks of an element's block-level children. */
function blocks(el: XmlElement, ctx: Context): Block[] {
  const out: Block[] = [];
  for (const child of childElements(el)) {
    switch (child.name) {
      case 'h': {
        const content = collapseInlines(inline(child, ctx));
        if (hasText(content)) out.push(heading(int(child.attrs['outline-level'], 1, 6), content));
        break;
      }
      case 'p': {
        const content = inline(child, ctx);
        if (hasText(content)) out.push(paragraph(content));
        break;
      }
      case 'list': {
        const list = readList(child, 0, ctx);
        if (list) out.push(list);
        break;
      }
      case 'table': {
        const table = readTable(child, ctx);
        if (table) out.push(table);
        break;
      }
      case 'image':
      case 'object':
      case 'object-ole':
        break;
      default:
        if (!SKIPPED.has(child.name)) out.push(...blocks(child, ctx));
    }
  }
  return out;
}

function numberedLevels(...roots: (XmlElement | undefined)[]): Map<string, Set<number>> {
  const map = new Map<string, Set<number>>();
  for (const root of roots) {
    if (!root) continue;
    for (const style of findAll(root, 'list-style')) {
      const levels = new Set<number>();
      for (const level of childElements(style, 'list-level-style-number')) levels.add(int(level.attrs.level, 1, 10));
      if (style.attrs['style:name']) map.set(style.attrs['style:name'], levels);
    }
  }
  return map;
}

function readMeta(zip: OfficeZip): DocumentMetadata {
  const meta = firstChild(readXmlPart(zip, 'meta.xml'), 'meta');
  const value = (name: string) => (firstChild(meta, name) ? textOf(firstChild(meta, name)).trim() : undefined);
  return compactMetadata({
    title: value('title'),
    author: value('initial-creator') || value('creator'),
    created_date: isoDate(value('creation-date')),
    subject: value('subject'),
  });
}

/** Slide shapes in reading order: top to bottom, then left to right (tops within 5 mm are one row). */
function readingOrder(shapes: XmlElement[]): XmlElement[] {
  const placed = shapes.map((shape, order) => ({ shape, order, x: lengthMm(shape.attrs['svg:x']), y: lengthMm(shape.attrs['svg:y']) }));
  if (placed.some((p) => p.x === undefined || p.y === undefined)) return shapes;
  placed.sort((a, b) => (Math.abs(a.y! - b.y!) > 5 ? a.y! - b.y! : a.x! - b.x! || a.order - b.order));
  return placed.map((p) => p.shape);
}

const MM_PER_UNIT: Record<string, number> = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72, pc: 25.4 / 6, px: 25.4 / 96 };

function lengthMm(value: string | undefined): number | undefined {
  const match = /^(-?[\d.]+)(mm|cm|in|pt|pc|px)$/.exec(value ?? '');
  return match ? Number(match[1]) * MM_PER_UNIT[match[2]] : undefined;
}

function sheetSection(unit: XmlElement, page: number): Section {
  const name = unit.attrs['table:name'] ?? '';
  const { cells, spans, positions, truncated } = sheetCells(unit);
  const content: Block[] = [heading(2, name), ...sheetBlocks(cells, spans)];
  if (truncated) content.push(note(`The sheet is truncated: only its first ${positions.toLocaleString('en-US')} cells were extracted.`));
  return { type: 'section', kind: 'sheet', page, name, content };
}

function slideSection(unit: XmlElement, page: number, ctx: Context): Section {
  const content: Block[] = [];
  const frames = childElements(unit, 'frame');
  const title = flattenInlines(frames.filter((f) => f.attrs['presentation:class'] === 'title').flatMap((f) => blocks(f, ctx)));
  if (hasText(title)) content.push(heading(2, title));
  const shapes = childElements(unit).filter((c) => c.attrs['presentation:class'] !== 'title' && c.name !== 'notes');
  for (const frame of readingOrder(shapes)) content.push(...blocks({ name: 'slide', attrs: {}, children: [frame] }, ctx));
  const notes = flattenInlines(blocks(firstChild(unit, 'notes') ?? { name: 'notes', attrs: {}, children: [] }, ctx));
  if (hasText(notes)) content.push({ type: 'quote', content: [paragraph([text('Notes:', { bold: true }), text(' '), ...notes])] });
  content.push(...ctx.pending.splice(0));
  return { type: 'section', kind: 'slide', page, content };
}

export async function readOdf(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const zip = OfficeZip.open(await readInputFile(input), 'ODF');
  if (/encryption-data/.test(zip.text('META-INF/manifest.xml') ?? '')) {
    throw new ExtractionError('ENCRYPTED_DOCUMENT', 'The OpenDocument file is password-protected');
  }
  const content = readXmlPart(zip, 'content.xml');
  const body = firstChild(content, 'body');
  if (!content || !body) throw new ExtractionError('CORRUPT_DOCUMENT', 'The OpenDocument file has no content.xml body');
  const ctx: Context = { numbered: numberedLevels(content, readXmlPart(zip, 'styles.xml')), notes: [], pending: [] };
  const metadata = readMeta(zip);
  throwIfAborted(input.signal);

  const sheets = firstChild(body, 'spreadsheet');
  const slides = firstChild(body, 'presentation');
  if (sheets || slides) {
    const units = sheets ? childElements(sheets, 'table') : childElements(slides!, 'page');
    refuseTooManyPages(units.length, input.maxPages, sheets ? 'sheets' : 'slides');
    const sections: Section[] = [];
    units.forEach((unit, i) => {
      throwIfAborted(input.signal);
      sections.push(sheets ? sheetSection(unit, i + 1) : slideSection(unit, i + 1, ctx));
      input.onProgress(i + 1, units.length);
    });
    return { document: documentOf(metadata, sections), totalPages: Math.max(units.length, 1) };
  }

  const out = blocks(firstChild(body, 'text') ?? body, ctx);
  out.push(...ctx.pending.splice(0));
  input.onProgress(1, 1);
  return { document: documentOf(metadata, out), totalPages: 1 };
}
