/**
 * The last PDF stage: the laid-out blocks of all pages → the document model (lib/document). Heading
 * levels need the whole document (the body size is the font size carrying most text) and running
 * headers repeat across pages, so pages are laid out first and written here, each as a page
 * section.
 */
import type { Block as ModelBlock, Inline, List, ListItem, QuarryDocument, Section, TableCell } from '@/lib/document/types';
import type { DocumentMetadata } from '../types';
import type { Block, Span } from './blocks';
import { spansText } from './blocks';
import { planHeadings, type HeadingPlan } from './headings';
import { joinLines } from './text';

export interface PageBlocks {
  page: number;
  blocks: Block[];
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

function tableCells(rows: string[][]): TableCell[][] {
  return rows.map((row) => row.map((text) => ({ content: text ? [{ type: 'text', text }] : [] })));
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
        if (b.rows.length) out.push({ type: 'table', rows: b.cells ?? tableCells(b.rows), header_rows: 1, prov: prov(page, b) });
        break;
      case 'raw':
        if (b.text.trim()) out.push({ type: 'preformatted', text: b.text, prov: prov(page, b) });
        break;
    }
  }
  flush();
  return out;
}

/**
 * Drops running headers/footers: margin lines whose text (digits aside) repeats on many pages, and
 * margin lines carrying a number that follows the page index at a constant offset on at least
 * three pages ("Chapter 2: Methods 17" on page 20, "… 18" on page 21).
 */
function dropRepeatedFurniture(pages: PageBlocks[]): void {
  if (pages.length < 2) return;
  const counts = new Map<string, number>();
  const offsets = new Map<number, number>();
  for (const p of pages) {
    const seen = new Set<string>();
    const seenOffsets = new Set<number>();
    for (const b of p.blocks) {
      if (b.kind !== 'text' || !b.furniture) continue;
      seen.add(b.furniture);
      if (b.pageLabel !== undefined) seenOffsets.add(b.pageLabel - p.page);
    }
    for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
    for (const o of seenOffsets) offsets.set(o, (offsets.get(o) ?? 0) + 1);
  }
  // Odd and even pages often carry different headers: each repeats on about half of the pages.
  const threshold = Math.max(2, Math.ceil(pages.length * 0.4));
  let bestOffset: number | null = null;
  let bestCount = 2;
  for (const [o, n] of offsets) if (n > bestCount) [bestOffset, bestCount] = [o, n];
  for (const p of pages) {
    p.blocks = p.blocks.filter((b) => {
      if (b.kind !== 'text' || !b.furniture) return true;
      if ((counts.get(b.furniture) ?? 0) >= threshold) return false;
      return !(bestOffset !== null && b.pageLabel !== undefined && b.pageLabel - p.page === bestOffset);
    });
  }
}

/** The whole document: a page section per page, in page order. */
export function buildDocument(pages: PageBlocks[], metadata: DocumentMetadata): QuarryDocument {
  dropRepeatedFurniture(pages);
  const plan = planHeadings(pages);
  const blocks: Section[] = pages.map((p) => ({ type: 'section', kind: 'page', page: p.page, content: pageBlocks(p.blocks, p.page, plan) }));
  return { version: 1, metadata, blocks };
}

/** Whether a laid-out page has any text. */
export function blocksHaveText(blocks: Block[]): boolean {
  return blocks.some((b) => {
    if (b.kind === 'text' || b.kind === 'list') return /\S/.test(spansText(b.spans));
    if (b.kind === 'table') return b.rows.some((r) => r.some((c) => /\S/.test(c)));
    return /\S/.test(b.text);
  });
}
