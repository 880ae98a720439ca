import { ExtractionError, pageMarker, throwIfAborted, type DocumentMetadata, type ExtractInput, type ExtractResult } from '../types';
import { compactMetadata, finishMarkdown, isoDate, LIMITS, readInputFile, refuseTooManyPages } from './common';
import { escapeText, markdownToCell, renderTable, safeHref } from './markdown';
import { childElements, findAll, firstChild, readXmlPart, textOf, type XmlElement } from './xml';
import { int, sheetCells, SKIPPED, tableRows } from './odf-cells';
import { renderCellBlocks } from './xlsx';
import { OfficeZip } from './zip';

/*
 * OpenDocument (ODT, ODS, ODP) → Markdown, read from content.xml through the guarded zip reader,
 * in the shapes the OOXML extractors produce:
 *
 * - Text: text:h → heading of its outline level; text:p → paragraph; text:list → nested list
 *   (numbered when its list style numbers that level); table:table → GFM table (a merged cell's
 *   text written once, the positions it covers left empty); frames' text boxes read in place; footnotes after
 *   the text. No page markers (ODT has no fixed pages, like DOCX).
 * - Spreadsheet: one `<!-- page N -->` + `## sheet` section per sheet, each block of adjacent
 *   cells a GFM table as for XLSX; repeated rows and columns (Calc writes a million empty ones)
 *   cost only the cells with text, and LIMITS.cellsPerSheet cut a sheet with a note.
 * - Presentation: one `<!-- page N -->` section per slide, the title frame as `## title`, the
 *   other frames in order, speaker notes as a `> **Notes:**` quote.
 * - Metadata from meta.xml: title, author (initial creator or creator), created_date.
 */

interface Context {
  /** List style name → levels (1-based) that are numbered. */
  numbered: Map<string, Set<number>>;
  notes: string[];
}

function inline(el: XmlElement, ctx: Context): string {
  let out = '';
  for (const child of el.children) {
    if (typeof child === 'string') {
      out += escapeText(child.replace(/\s+/g, ' '));
      continue;
    }
    switch (child.name) {
      case 's':
        out += ' '.repeat(int(child.attrs.c, 1, 100));
        break;
      case 'tab':
      case 'line-break':
        out += ' ';
        break;
      case 'note': {
        const body = firstChild(child, 'note-body');
        const text = body ? blocks(body, ctx).join(' ') : '';
        if (text) {
          ctx.notes.push(text.replace(/\s+/g, ' '));
          out += `[^${ctx.notes.length}]`;
        }
        break;
      }
      case 'a': {
        const text = inline(child, ctx);
        const href = safeHref(child.attrs['xlink:href']);
        out += href && text.trim() ? `[${text.trim()}](${href})` : text;
        break;
      }
      case 'frame':
        out += ` ${blocks(child, ctx).join(' ')} `;
        break;
      default:
        if (!SKIPPED.has(child.name)) out += inline(child, ctx);
    }
  }
  return out;
}

function renderList(list: XmlElement, depth: number, ctx: Context, out: string[], style?: string): void {
  const styleName = list.attrs['text:style-name'] ?? style;
  const numbered = styleName ? ctx.numbered.get(styleName)?.has(depth + 1) : false;
  let n = 0;
  for (const item of childElements(list)) {
    if (item.name !== 'list-item' && item.name !== 'list-header') continue;
    n++;
    const marker = numbered ? `${n}. ` : '- ';
    const pad = '  '.repeat(depth);
    let first = true;
    for (const child of childElements(item)) {
      if (child.name === 'list') {
        renderList(child, depth + 1, ctx, out, styleName);
        continue;
      }
      for (const block of blocks({ name: 'item', attrs: {}, children: [child] }, ctx)) {
        out.push(`${pad}${first ? marker : ' '.repeat(marker.length)}${block.replace(/\n/g, ' ')}`);
        first = false;
      }
    }
  }
}

function renderOdfTable(table: XmlElement, ctx: Context): string {
  const grid: string[][] = [];
  for (const row of tableRows(table).slice(0, LIMITS.tableCells)) {
    const cells: string[] = [];
    for (const cell of childElements(row)) {
      if (cell.name !== 'table-cell' && cell.name !== 'covered-table-cell') continue;
      const text = cell.name === 'table-cell' ? markdownToCell(blocks(cell, ctx).join(' ')) : undefined;
      const repeat = int(cell.attrs['number-columns-repeated'], 1, LIMITS.tableColumns);
      for (let i = 0; i < repeat && cells.length < LIMITS.tableColumns; i++) {
        // A covered cell stays empty: the merged cell's text is written once, where it starts.
        cells.push(text ?? '');
      }
    }
    grid.push(cells);
  }
  const rows = grid.filter((r) => r.some(Boolean));
  return rows.length ? renderTable(rows) : '';
}

/** The Markdown blocks of an element's block-level children. */
function blocks(el: XmlElement, ctx: Context): string[] {
  const out: string[] = [];
  for (const child of childElements(el)) {
    switch (child.name) {
      case 'h': {
        const text = inline(child, ctx).trim();
        if (text) out.push(`${'#'.repeat(int(child.attrs['outline-level'], 1, 6))} ${text}`);
        break;
      }
      case 'p': {
        const text = inline(child, ctx).trim();
        if (text) out.push(text);
        break;
      }
      case 'list': {
        const items: string[] = [];
        renderList(child, 0, ctx, items);
        if (items.length) out.push(items.join('\n'));
        break;
      }
      case 'table': {
        const table = renderOdfTable(child, ctx);
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
  const text = (name: string) => (firstChild(meta, name) ? textOf(firstChild(meta, name)).trim() : undefined);
  return compactMetadata({
    title: text('title'),
    author: text('initial-creator') || text('creator'),
    created_date: isoDate(text('creation-date')),
    subject: text('subject'),
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

export async function extractOdf(input: ExtractInput): Promise<ExtractResult> {
  throwIfAborted(input.signal);
  const zip = OfficeZip.open(await readInputFile(input), 'ODF');
  if (/encryption-data/.test(zip.text('META-INF/manifest.xml') ?? '')) {
    throw new ExtractionError('ENCRYPTED_DOCUMENT', 'The OpenDocument file is password-protected');
  }
  const content = readXmlPart(zip, 'content.xml');
  const body = firstChild(content, 'body');
  if (!content || !body) throw new ExtractionError('CORRUPT_DOCUMENT', 'The OpenDocument file has no content.xml body');
  const ctx: Context = { numbered: numberedLevels(content, readXmlPart(zip, 'styles.xml')), notes: [] };
  const metadata = readMeta(zip);
  throwIfAborted(input.signal);

  const sheets = firstChild(body, 'spreadsheet');
  const slides = firstChild(body, 'presentation');
  const sections: string[] = [];
  if (sheets || slides) {
    const units = sheets ? childElements(sheets, 'table') : childElements(slides!, 'page');
    refuseTooManyPages(units.length, input.maxPages, sheets ? 'sheets' : 'slides');
    units.forEach((unit, i) => {
      throwIfAborted(input.signal);
      const name = unit.attrs['table:name'] ?? unit.attrs['draw:name'] ?? '';
      const parts = [pageMarker(i + 1)];
      if (sheets) {
        parts.push(`## ${escapeText(name)}`);
        const { cells, truncated } = sheetCells(unit);
        parts.push(renderCellBlocks(cells));
        if (truncated) parts.push(`*The sheet is truncated: only its first ${cells.size.toLocaleString('en-US')} cells were extracted.*`);
      } else {
        const frames = childElements(unit, 'frame');
        const title = frames.filter((f) => f.attrs['presentation:class'] === 'title').flatMap((f) => blocks(f, ctx));
        if (title.length) parts.push(`## ${title.join(' ').replace(/\s+/g, ' ')}`);
        const shapes = childElements(unit).filter((c) => c.attrs['presentation:class'] !== 'title' && c.name !== 'notes');
        for (const frame of readingOrder(shapes)) {
          parts.push(...blocks({ name: 'slide', attrs: {}, children: [frame] }, ctx));
        }
        const notes = blocks(firstChild(unit, 'notes') ?? { name: 'notes', attrs: {}, children: [] }, ctx).join(' ').replace(/\s+/g, ' ').trim();
        if (notes) parts.push(`> **Notes:** ${notes}`);
      }
      sections.push(parts.join('\n\n'));
      input.onProgress(i + 1, units.length);
    });
    return { markdown: finishMarkdown(sections.join('\n\n')), totalPages: Math.max(units.length, 1), metadata };
  }

  const text = firstChild(body, 'text') ?? body;
  const markdown = [...blocks(text, ctx), ...ctx.notes.map((note, i) => `[^${i + 1}]: ${note}`)].join('\n\n');
  input.onProgress(1, 1);
  return { markdown: finishMarkdown(markdown), totalPages: 1, metadata };
}

