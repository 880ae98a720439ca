/**
 * Blocks of all pages → one Markdown document. Heading levels need the whole document (the body
 * size is the font size carrying most text), so pages are laid out first and written here.
 */
import { pageMarker } from '../types';
import type { Block, Span } from './blocks';
import { spansText } from './blocks';
import { renderTable } from './tables';
import { joinLines } from './text';

export interface PageBlocks {
  page: number;
  blocks: Block[];
}

type TextBlock = Extract<Block, { kind: 'text' }>;

function sizeKey(size: number): number {
  return Math.round(size * 2) / 2;
}

interface HeadingPlan {
  level(block: TextBlock): number;
}

function planHeadings(pages: PageBlocks[]): HeadingPlan {
  const weights = new Map<number, number>();
  let boldChars = 0;
  let allChars = 0;
  for (const p of pages)
    for (const b of p.blocks) {
      if ((b.kind === 'text' || b.kind === 'list') && b.size > 0) {
        const chars = b.kind === 'text' ? b.chars : spansText(b.spans).length;
        weights.set(sizeKey(b.size), (weights.get(sizeKey(b.size)) ?? 0) + chars);
        allChars += chars;
        if (b.kind === 'text' && b.bold) boldChars += chars;
      }
    }
  let body = 0;
  let bestW = -1;
  for (const [size, w] of weights) if (w > bestW || (w === bestW && size < body)) [body, bestW] = [size, w];
  if (body <= 0) return { level: () => 0 };

  const isCandidate = (b: TextBlock) => {
    const text = spansText(b.spans).trim();
    if (b.lines > 3 || text.length > 200 || text.length < 2) return false;
    if (!/\p{L}/u.test(text) || /[,;]$/.test(text)) return false;
    if (/(?:\.\s?){4,}\s*\S{0,6}$/.test(text)) return false; // a table-of-contents entry
    return true;
  };
  const headingSizes: number[] = [];
  for (const p of pages)
    for (const b of p.blocks) if (b.kind === 'text' && b.size >= body * 1.1 && isCandidate(b)) headingSizes.push(sizeKey(b.size));
  // Distinct sizes, largest first, sizes within 5% merged.
  const levels: number[] = [];
  for (const s of [...new Set(headingSizes)].sort((a, b) => b - a)) {
    if (levels.length === 0 || levels[levels.length - 1] - s > levels[levels.length - 1] * 0.05) levels.push(s);
  }
  const boldUsable = allChars > 0 && boldChars < allChars * 0.5;
  return {
    level(b) {
      if (!isCandidate(b)) return 0;
      if (b.size >= body * 1.1) {
        let idx = levels.length - 1;
        for (let i = 0; i < levels.length; i++) {
          if (sizeKey(b.size) >= levels[i] - levels[i] * 0.05) {
            idx = i;
            break;
          }
        }
        return 2 + Math.min(2, Math.max(0, idx));
      }
      const text = spansText(b.spans).trim();
      if (boldUsable && b.bold && b.lines <= 2 && text.length <= 120 && !/[.:]$/.test(text)) return 2 + Math.min(2, levels.length);
      return 0;
    },
  };
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
  if (pages.length < 3) return;
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
  const threshold = Math.max(3, Math.ceil(pages.length * 0.5));
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
