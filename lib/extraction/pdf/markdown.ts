/**
 * Blocks of all pages → one Markdown document. Heading levels need the whole document (the body
 * size is the font size carrying most text), so pages are laid out first and written here.
 */
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

function renderBlocks(blocks: Block[], plan: HeadingPlan): string {
  const parts: string[] = [];
  let listRun: string[] = [];
  let prevLevel = -1;
  let prevOrdered = false;
  const flushList = () => {
    if (listRun.length) parts.push(listRun.join('\n'));
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
      listRun.push(`${'    '.repeat(level)}${b.marker} ${body}`.trimEnd());
      continue;
    }
    flushList();
    switch (b.kind) {
      case 'text': {
        const level = plan.level(b);
        if (level > 0) {
          const text = b.spans
            .map((s) => s.text)
            .reduce((acc, t) => (acc ? joinLines(acc, t) : t), '')
            .replace(/\s+/g, ' ')
            .trim();
          parts.push(`${'#'.repeat(level)} ${escapeInline(text)}`);
        } else {
          const md = spansToMarkdown(b.spans).trim();
          if (md) parts.push(escapeBlockStart(md));
        }
        break;
      }
      case 'code':
        parts.push(`\`\`\`\n${b.text}\n\`\`\``);
        break;
      case 'table':
        parts.push(renderTable(b.rows));
        break;
      case 'raw':
        if (b.text.trim()) parts.push(b.text);
        break;
    }
  }
  flushList();
  return parts.join('\n\n');
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
  dropRepeatedFurniture(pages);
  const plan = planHeadings(pages);
  const out: string[] = [];
  for (const p of pages) {
    const body = renderBlocks(p.blocks, plan);
    out.push(body ? `${pageMarker(p.page)}\n\n${body}` : pageMarker(p.page));
  }
  return `${out.join('\n\n')}\n`;
}

/** Whether a rendered page has any text. */
export function blocksHaveText(blocks: Block[]): boolean {
  return blocks.some((b) => {
    if (b.kind === 'text' || b.kind === 'list') return /\S/.test(spansText(b.spans));
    if (b.kind === 'table') return b.rows.some((r) => r.some((c) => /\S/.test(c)));
    return /\S/.test(b.text);
  });
}
