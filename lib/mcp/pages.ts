import type { Block } from '@/lib/document/types';

/**
 * Reading an extraction's Markdown a piece at a time, so a long document does not flood an
 * agent's context window: by page range (the `<!-- page N -->` markers extractions write), then
 * by characters. The document model is read by page range likewise (its page sections).
 */
const MARKER = /^<!-- page (\d+) -->$/gm;

export interface MarkdownWindow {
  /** The pages the text covers, when the Markdown has page markers. */
  page_start: number | null;
  page_end: number | null;
  text: string;
  offset: number;
  /** Where the next call continues (same pages), or null at the end. */
  next_offset: number | null;
  total_chars: number;
}

/** The Markdown of pages `from`–`to` (inclusive; unmarked Markdown counts as one page). */
export function pagesOf(markdown: string, from: number | undefined, to: number | undefined): { text: string; first: number | null; last: number | null } {
  const markers = [...markdown.matchAll(MARKER)].map((m) => ({ page: Number(m[1]), at: m.index! }));
  if (markers.length === 0) return { text: markdown, first: null, last: null };
  const start = from ?? markers[0].page;
  const end = to ?? markers[markers.length - 1].page;
  const inRange = markers.map((m, i) => ({ ...m, end: markers[i + 1]?.at ?? markdown.length })).filter((m) => m.page >= start && m.page <= end);
  if (inRange.length === 0) return { text: '', first: null, last: null };
  // Text before the first marker belongs to the first page.
  const begin = inRange[0].page === markers[0].page ? 0 : inRange[0].at;
  return { text: markdown.slice(begin, inRange[inRange.length - 1].end), first: inRange[0].page, last: inRange[inRange.length - 1].page };
}

export function windowOf(markdown: string, options: { pageStart?: number; pageEnd?: number; offset: number; maxChars: number }): MarkdownWindow {
  const { text, first, last } = pagesOf(markdown, options.pageStart, options.pageEnd);
  let end = Math.min(text.length, options.offset + options.maxChars);
  // Never cut a character in two (a surrogate pair).
  if (end < text.length && end > options.offset && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  const slice = text.slice(options.offset, end);
  const next = end;
  return {
    page_start: first,
    page_end: last,
    text: slice,
    offset: options.offset,
    next_offset: next < text.length ? next : null,
    total_chars: text.length,
  };
}

/**
 * The top-level blocks of pages `from`–`to` (inclusive): the sections numbered as pages (slides,
 * sheets, chapters) in range, with any blocks between them belonging to the page before (and those
 * before the first to the first). A model without numbered sections is returned whole.
 */
export function blocksOnPages(blocks: Block[], from: number | undefined, to: number | undefined): { blocks: Block[]; first: number | null; last: number | null } {
  const pageOf = (b: Block) => (b.type === 'section' ? b.page : undefined);
  const numbered = blocks.map(pageOf).filter((p): p is number => p !== undefined);
  if (numbered.length === 0) return { blocks, first: null, last: null };
  const start = from ?? numbered[0];
  const end = to ?? numbered[numbered.length - 1];
  const kept: Block[] = [];
  let current = numbered[0];
  let first: number | null = null;
  let last: number | null = null;
  for (const block of blocks) {
    current = pageOf(block) ?? current;
    if (current < start || current > end) continue;
    kept.push(block);
    first ??= current;
    last = current;
  }
  return { blocks: kept, first, last };
}
