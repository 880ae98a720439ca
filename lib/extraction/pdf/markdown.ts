/**
 * Blocks of all pages → one Markdown document. Heading levels need the whole document (the body
 * size is the font size carrying most text), so pages are laid out first and written here.
 */
import { LayoutBuilder, unionBox, type ExtractionLayout, type SourceLine } from '@/lib/chunking/layout';
import { pageMarker } from '../types';
import type { Block, Span } from './blocks';
import { spansText } from './blocks';
import { planHeadings, type HeadingPlan } from './headings';
import { renderTable } from './tables';
import { joinLines } from './text';

export interface PageBlocks {
  page: number;
  blocks: Block[];
}

const BLOCK_START = /^(#{1,6}(\s|$)|>|[-+*](\s|$)|\d{1,9}[.)](\s|$)|```|~~~|\||={3,}\s*$|-{3,}\s*$)/;

function escapeInline(text: string): string {
  // "<MIME>" would be an HTML tag to a Markdown renderer; a backslash keeps it literal.
  return text.replace(/<(?=[A-Za-z!/?])/g, '\\<');
}

function spansToMarkdown(spans: Span[]): string {
  let out = '';
  for (const s of spans) {
    const text = escapeInline(s.text);
    if (s.bold && /\S/.test(text)) {
      const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
      out += `${m[1]}**${m[2]}**${m[3]}`;
    } else out += text;
  }
  return out.replace(/\*\*\*\*/g, '');
}

/** Keeps a paragraph from being read as a heading, quote, list, fence or table. */
function escapeBlockStart(text: string): string {
  if (!BLOCK_START.test(text)) return text;
  const ordered = /^(\d{1,9})([.)])/.exec(text);
  if (ordered) return `${ordered[1]}\\${text.slice(ordered[1].length)}`;
  return `\\${text}`;
}

/** A written block: where it sits in its page's body, and the source lines it came from. */
interface Written {
  start: number;
  end: number;
  geom?: SourceLine[];
  table: boolean;
}

function renderBlocks(blocks: Block[], plan: HeadingPlan): { body: string; written: Written[] } {
  const parts: string[] = [];
  const written: Written[] = [];
  // Offset in the body where the next part starts (parts are joined by a blank line).
  let at = 0;
  const push = (text: string) => {
    parts.push(text);
    at += text.length + 2;
  };
  let listRun: string[] = [];
  let listStart = 0;
  let prevLevel = -1;
  let prevOrdered = false;
  const flushList = () => {
    if (listRun.length) push(listRun.join('\n'));
    listRun = [];
    prevLevel = -1;
  };
  for (const b of blocks) {
    if (b.kind === 'list') {
      // A top-level item of the other kind (bullets ↔ numbers) starts a new list.
      if (listRun.length && b.level === 0 && b.ordered !== prevOrdered) flushList();
      prevOrdered = b.level === 0 ? b.ordered : prevOrdered;
      const level = Math.min(b.level, prevLevel + 1);
      prevLevel = level;
      const body = spansToMarkdown(b.spans).trim();
      const item = `${'    '.repeat(level)}${b.marker} ${body}`.trimEnd();
      if (!listRun.length) listStart = at;
      const start = listStart + listRun.reduce((n, l) => n + l.length + 1, 0);
      written.push({ start, end: start + item.length, geom: b.geom, table: false });
      listRun.push(item);
      continue;
    }
    flushList();
    let text = '';
    switch (b.kind) {
      case 'text': {
        const level = plan.level(b);
        if (level > 0) {
          const title = b.spans
            .map((s) => s.text)
            .reduce((acc, t) => (acc ? joinLines(acc, t) : t), '')
            .replace(/\s+/g, ' ')
            .trim();
          text = `${'#'.repeat(level)} ${escapeInline(title)}`;
        } else {
          const md = spansToMarkdown(b.spans).trim();
          if (md) text = escapeBlockStart(md);
        }
        break;
      }
      case 'code':
        text = `\`\`\`\n${b.text}\n\`\`\``;
        break;
      case 'table':
        text = renderTable(b.rows);
        break;
      case 'raw':
        if (b.text.trim()) text = b.text;
        break;
    }
    // Tables and code are written even when empty, as they always were.
    if (!text && b.kind !== 'table' && b.kind !== 'code') continue;
    written.push({ start: at, end: at + text.length, geom: b.geom, table: b.kind === 'table' });
    push(text);
  }
  flushList();
  return { body: parts.join('\n\n'), written };
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

/** The whole document: every page starts with its page marker. */
export function renderDocument(pages: PageBlocks[]): string {
  return renderDocumentWithLayout(pages).markdown;
}

/** The whole document and where each written line sits on its page (lib/chunking/layout.ts). */
export function renderDocumentWithLayout(pages: PageBlocks[]): { markdown: string; layout: ExtractionLayout } {
  dropRepeatedFurniture(pages);
  const plan = planHeadings(pages);
  const out: string[] = [];
  const placed: { page: number; start: number; end: number; geom: SourceLine[]; table: boolean }[] = [];
  let at = 0;
  for (const p of pages) {
    const { body, written } = renderBlocks(p.blocks, plan);
    const marker = pageMarker(p.page);
    const bodyStart = at + marker.length + 2;
    for (const w of written) {
      if (w.geom?.length) placed.push({ page: p.page, start: bodyStart + w.start, end: bodyStart + w.end, geom: w.geom, table: w.table });
    }
    const page = body ? `${marker}\n\n${body}` : marker;
    out.push(page);
    at += page.length + 2;
  }
  const markdown = `${out.join('\n\n')}\n`;
  const layout = new LayoutBuilder();
  for (const w of placed) {
    if (w.table) placeTable(layout, w.page, markdown, w.start, w.end, w.geom);
    else layout.add(w.page, markdown, w.start, w.end, w.geom);
  }
  return { markdown, layout: layout.build() };
}

/**
 * A table's rows are placed on their source lines one by one when there is a line per row (the
 * delimiter row aside); otherwise (cells over several lines, a bordered table) the table is one region.
 */
function placeTable(layout: LayoutBuilder, page: number, markdown: string, start: number, end: number, geom: SourceLine[]): void {
  const rows: { start: number; end: number }[] = [];
  let at = start;
  for (const line of markdown.slice(start, end).split('\n')) {
    rows.push({ start: at, end: at + line.length });
    at += line.length + 1;
  }
  rows.splice(1, 1);
  if (rows.length === geom.length) layout.addExact(page, rows.map((r, i) => ({ ...r, box: geom[i].box })));
  else layout.addExact(page, [{ start, end, box: unionBox(geom.map((g) => g.box)) }]);
}

/** Whether a rendered page has any text. */
export function blocksHaveText(blocks: Block[]): boolean {
  return blocks.some((b) => {
    if (b.kind === 'text' || b.kind === 'list') return /\S/.test(spansText(b.spans));
    if (b.kind === 'table') return b.rows.some((r) => r.some((c) => /\S/.test(c)));
    return /\S/.test(b.text);
  });
}
