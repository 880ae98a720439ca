/**
 * The last PDF stage: the laid-out blocks of all pages → the document model (lib/document), each
 * page as a page section, once its furniture is moved out of its content (furniture.ts) and
 * heading levels are planned (headings.ts): both need the whole document.
 */
import type { Block as ModelBlock, Inline, List, ListItem, Paragraph, QuarryDocument, RowProvenance, Section, TableCell } from '@/lib/document/types';
import type { DocumentMetadata } from '@/lib/extraction/types';
import type { Block, Span } from '../layout/blocks';
import { spansText } from '../layout/blocks';
import type { HeadingPlan } from './headings';
import { joinLines } from '../read/text';

export interface PageBlocks {
  page: number;
  blocks: Block[];
  /** The page's furniture (page numbers, running headers and footers), top to bottom: set by model/furniture.ts. */
  furniture?: Block[];
}

type ListBlock = Extract<Block, { kind: 'list' }>;

function inlines(spans: readonly Span[]): Inline[] {
  return spans.map((s) => (s.bold ? { type: 'text', text: s.text, bold: true } : { type: 'text', text: s.text }));
}

function prov(page: number, b: Block) {
  return b.geom?.length ? { page, lines: b.geom } : { page };
}

/**
 * Consecutive list blocks → nested lists. A block's level never goes more than one deeper than the
 * item before it; a top-level item of the other kind (bullets ↔ numbers) starts a new list, a
 * nested one a new nested list in the same item.
 */
function buildLists(items: ListBlock[], page: number): List[] {
  const top: List[] = [];
  // The open list at each nesting depth.
  const open: List[] = [];
  for (const b of items) {
    const level = Math.min(b.level, open.length);
    const ordered = b.ordered;
    const item: ListItem = { content: [{ type: 'paragraph', content: inlines(b.spans) }], prov: prov(page, b) };
    const number = ordered ? Number.parseInt(b.marker, 10) : NaN;
    const label = ordered ? '' : b.marker.replace(/^-\s*/, '');
    if (label) item.label = label;
    open.length = level + 1;
    let list = open[level];
    if (!list || list.ordered !== ordered) {
      list = { type: 'list', ordered, items: [] };
      if (ordered && Number.isFinite(number) && number !== 1) list.start = number;
      if (level === 0) top.push(list);
      else {
        const parent = open[level - 1].items[open[level - 1].items.length - 1];
        parent.content.push(list);
      }
      open[level] = list;
    }
    if (ordered && Number.isFinite(number) && number !== (list.start ?? 1) + list.items.length) item.number = number;
    list.items.push(item);
    open.length = level + 1;
  }
  return top;
}

/** Cells of a grid of texts, one per position. */
export function tableCells(rows: string[][]): TableCell[][] {
  return rows.map((row) => row.map((text) => ({ content: text ? [{ type: 'text', text }] : [] })));
}

/**
 * Each row's page and region: set by the join of a table continued over pages, else the table's
 * page, with the row's own line when the table was read line by line (one line per row).
 */
export function tableRowProv(t: Extract<Block, { kind: 'table' }>, page: number): RowProvenance[] {
  if (t.rowProv) return t.rowProv;
  const perRow = t.geom?.length === t.rows.length ? t.geom : null;
  return t.rows.map((_, i) => (perRow ? { page: perRow[i].page ?? page, bbox: perRow[i].box } : { page }));
}

function pageBlocks(blocks: Block[], page: number, plan: HeadingPlan): ModelBlock[] {
  const out: ModelBlock[] = [];
  let run: ListBlock[] = [];
  const flush = () => {
    if (run.length) out.push(...buildLists(run, page));
    run = [];
  };
  for (const b of blocks) {
    if (b.kind === 'list') {
      run.push(b);
      continue;
    }
    flush();
    switch (b.kind) {
      case 'text': {
        const level = plan.level(b);
        if (level > 0) {
          const title = b.spans
            .map((s) => s.text)
            .reduce((acc, t) => (acc ? joinLines(acc, t) : t), '')
            .replace(/\s+/g, ' ')
            .trim();
          out.push({ type: 'heading', level: Math.min(level, 6) as 1, content: [{ type: 'text', text: title }], prov: prov(page, b) });
        } else if (/\S/.test(spansText(b.spans))) {
          out.push({ type: 'paragraph', content: inlines(b.spans), prov: prov(page, b) });
        }
        break;
      }
      case 'code':
        out.push({ type: 'code', text: b.text, prov: prov(page, b) });
        break;
      case 'table':
        if (b.rows.length) out.push({ type: 'table', rows: b.cells ?? tableCells(b.rows), header_rows: 1, row_prov: tableRowProv(b, page), prov: prov(page, b) });
        break;
      case 'raw':
        if (b.text.trim()) out.push({ type: 'preformatted', text: b.text, prov: prov(page, b) });
        break;
    }
  }
  flush();
  return out;
}

/** The whole document: a page section per page, in page order, headings as `plan` has them. */
export function writeDocument(pages: PageBlocks[], metadata: DocumentMetadata, plan: HeadingPlan): QuarryDocument {
  const blocks: Section[] = pages.map((p) => {
    const section: Section = { type: 'section', kind: 'page', page: p.page, content: pageBlocks(p.blocks, p.page, plan) };
    const furniture = furnitureParagraphs(p.furniture ?? [], p.page);
    if (furniture.length) section.furniture = furniture;
    return section;
  });
  return { version: 1, metadata, blocks };
}

/** A page's furniture lines as paragraphs, with their place on the page. */
function furnitureParagraphs(blocks: Block[], page: number): Paragraph[] {
  return blocks.flatMap((b): Paragraph[] => (b.kind === 'text' && /\S/.test(spansText(b.spans)) ? [{ type: 'paragraph', content: inlines(b.spans), prov: prov(page, b) }] : []));
}

/** Whether a laid-out page has any text (a page number alone is none). */
export function blocksHaveText(blocks: Block[]): boolean {
  return blocks.some((b) => {
    if (b.kind === 'text' && b.pageNumber) return false;
    if (b.kind === 'text' || b.kind === 'list') return /\S/.test(spansText(b.spans));
    if (b.kind === 'table') return b.rows.some((r) => r.some((c) => /\S/.test(c)));
    return /\S/.test(b.text);
  });
}
