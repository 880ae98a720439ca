/*
 * What chunking reads: the document model's blocks, placed in the Markdown by their spans.
 *
 * Every block at the top level or in a section carries `prov.span`, where it is in the
 * extraction's Markdown (the renderer sets it for every format; a Markdown or text file's own
 * parse sets it in the file's text). The chunker's text is that Markdown without its page marker
 * lines; each block is a stretch of it with what the model says about it: a heading's level and
 * title, a table's header rows and body rows, a list's items, a paragraph that leads into the
 * list after it. A Markdown text without a model (or with one from before spans were kept) is
 * read into one by the Markdown parser first, so every document takes the same path.
 */
import { documentFromMarkdown } from '@/lib/document/from-markdown';
import type { Block as ModelBlock, Inline, QuarryDocument, Span } from '@/lib/document/types';

export type BlockType = 'heading' | 'paragraph' | 'list' | 'table' | 'code' | 'quote' | 'rule';

export interface Block {
  type: BlockType;
  /** Offset in `ParsedMarkdown.text` of the block's first character. */
  start: number;
  /** Offset just after the block's last character. */
  end: number;
  /** `text.slice(start, end)`. */
  text: string;
  /** Headings: 1-6. */
  level?: number;
  /** Headings: the title as shown in the section path. */
  title?: string;
  /**
   * Tables: the lines repeated in front of every part of a split table (caption, header rows,
   * delimiter row), the body rows one by one, and what follows them (a note on rows left out).
   */
  table?: { header: Span; rows: Span[]; tail: Span | null };
  /** Lists: each top-level item. */
  items?: Span[];
  /** Paragraphs: a list follows directly, and this paragraph (its last sentence) leads into it. */
  leadsIn?: boolean;
}

export interface ParsedMarkdown {
  /** The Markdown without page marker lines, line endings normalised to "\n". */
  text: string;
  blocks: Block[];
  /** Whether the document had at least one page marker. */
  paged: boolean;
  /** Page starts, ascending by offset in `text`. */
  pages: Array<{ offset: number; page: number }>;
  /** Heading starts with the heading path in effect from there, ascending by offset. */
  sections: Array<{ offset: number; path: string }>;
  /** Where each kept line starts in `text` (offset) and in the Markdown as given (source). */
  lines: Array<{ offset: number; source: number }>;
}

export const SECTION_SEPARATOR = ' > ';

const PAGE_MARKER = /^[ \t]*<!--[ \t]*page[ \t]+(\d+)[ \t]*-->[ \t]*$/i;
const BLANK = /^[ \t]*$/;

/** A block of the model placed in the Markdown (source offsets). */
interface Placed {
  block: ModelBlock;
  span: Span;
  items?: Span[];
}

/** The plain text of inline runs: what a heading shows in a section path. */
export function plainText(content: readonly Inline[]): string {
  let out = '';
  for (const run of content) {
    if (run.type === 'text') out += run.text;
    else if (run.type === 'math') out += run.latex;
    else if (run.type === 'break') out += ' ';
  }
  return out.replace(/\s+/g, ' ').trim();
}

function validSpan(span: Span | undefined, length: number): span is Span {
  return Array.isArray(span) && Number.isInteger(span[0]) && Number.isInteger(span[1]) && span[0] >= 0 && span[0] <= span[1] && span[1] <= length;
}

/**
 * The model's blocks at the top level and in sections, in order, with their spans; the page
 * sections' markers. Null when the model gives no spans (or spans that do not fit the Markdown).
 */
function placedBlocks(doc: QuarryDocument, markdown: string): { placed: Placed[]; pages: Array<{ at: number; page: number }> } | null {
  const placed: Placed[] = [];
  const pages: Array<{ at: number; page: number }> = [];
  let ok = true;
  let last = 0;
  const walk = (blocks: readonly ModelBlock[]) => {
    for (const block of blocks) {
      if (!ok) return;
      const span = block.prov?.span;
      if (block.type === 'section') {
        if (!Array.isArray(block.content)) continue;
        if (Number.isInteger(block.page) && validSpan(span, markdown.length)) pages.push({ at: span[0], page: block.page as number });
        walk(block.content);
        continue;
      }
      if (span === undefined) continue; // writes nothing
      if (!validSpan(span, markdown.length) || span[0] < last) {
        // Blocks of one source stretch (HTML read as several paragraphs) share a span: one block.
        const prev = placed[placed.length - 1];
        if (prev && validSpan(span, markdown.length) && span[0] >= prev.span[0]) {
          prev.span = [prev.span[0], Math.max(prev.span[1], span[1])];
          prev.block = { type: 'paragraph', content: [] };
          prev.items = undefined;
          last = prev.span[1];
          continue;
        }
        ok = false;
        return;
      }
      const entry: Placed = { block, span };
      if (block.type === 'list' && Array.isArray(block.items)) {
        const items = block.items.map((item) => item.prov?.span);
        if (items.every((s): s is Span => validSpan(s, markdown.length) && s[0] >= span[0] && s[1] <= span[1])) entry.items = items;
      }
      placed.push(entry);
      last = span[1];
    }
  };
  walk(doc.blocks);
  if (!ok) return null;
  if (placed.length === 0 && /\S/.test(markdown.replace(/<!--[\s\S]*?-->/g, ''))) return null;
  return { placed, pages };
}

/** The given model's placement; null when it has none that fits (or is not a model at all). */
function modelPlacement(document: QuarryDocument, markdown: string): ReturnType<typeof placedBlocks> {
  try {
    return Array.isArray(document.blocks) ? placedBlocks(document, markdown) : null;
  } catch {
    return null;
  }
}

function typeOf(block: ModelBlock): BlockType {
  switch (block.type) {
    case 'heading':
    case 'paragraph':
    case 'list':
    case 'table':
    case 'code':
    case 'quote':
    case 'rule':
      return block.type;
    case 'footnote':
      return 'quote';
    default:
      // Pictures, formulas, preformatted text: prose (split at sentences and words when too long).
      return 'paragraph';
  }
}

/** The Markdown's lines without page marker lines (and one blank line beside each). */
function keptLines(markdown: string, markers: ReadonlySet<number>) {
  const rawStarts = [markdown.startsWith('\uFEFF') ? 1 : 0];
  for (const m of markdown.matchAll(/\r\n?|\n/g)) rawStarts.push(m.index + m[0].length);
  const rawLines = markdown.replace(/^\uFEFF/, '').split(/\r\n?|\n/);
  const kept: string[] = [];
  const lines: ParsedMarkdown['lines'] = [];
  /** Where each dropped marker line was in the kept text, by the marker's source offset. */
  const pageOffsets = new Map<number, number>();
  let offset = 0;
  let dropBlank = false;
  rawLines.forEach((line, i) => {
    const source = rawStarts[i];
    if (PAGE_MARKER.test(line)) {
      // Every marker line is dropped (one inside code too: markers are never content); the
      // model's page sections say which of them start pages.
      const at = source + line.search(/\S|$/);
      if (markers.has(source) || markers.has(at)) pageOffsets.set(markers.has(source) ? source : at, offset);
      // "text\n\n<!-- page 2 -->\n\nmore": keep one blank line, not two.
      dropBlank = kept.length === 0 || BLANK.test(kept[kept.length - 1]);
      return;
    }
    if (dropBlank && BLANK.test(line)) {
      dropBlank = false;
      return;
    }
    dropBlank = false;
    lines.push({ offset, source });
    kept.push(line);
    offset += line.length + 1;
  });
  return { text: kept.join('\n'), lines, pageOffsets };
}

/** Offset in the kept text of source offset `at` (which is not inside a dropped line). */
function textOffset(lines: ParsedMarkdown['lines'], at: number): number {
  const found = lastAtOrBefore(lines, at, 'source');
  if (found < 0) return 0;
  return lines[found].offset + (at - lines[found].source);
}

/** Lines of `text` within [start, end): their spans. */
function lineSpans(text: string, start: number, end: number): Span[] {
  const out: Span[] = [];
  let at = start;
  while (at <= end) {
    let next = text.indexOf('\n', at);
    if (next < 0 || next > end) next = end;
    out.push([at, next]);
    at = next + 1;
  }
  return out;
}

/**
 * A table's parts: its caption (a line and a blank line above the rows, when it has one), the
 * header row with the delimiter row under it and its further header rows, then the body rows
 * up to the first blank line, then the rest.
 */
function tableParts(text: string, start: number, end: number, table: Extract<ModelBlock, { type: 'table' }>): Block['table'] {
  const lines = lineSpans(text, start, end);
  let first = 0;
  if (table.caption?.length) {
    // The caption's line(s), up to the blank line above the rows.
    while (first < lines.length && !BLANK.test(text.slice(lines[first][0], lines[first][1]))) first++;
    while (first < lines.length && BLANK.test(text.slice(lines[first][0], lines[first][1]))) first++;
  }
  const headerLines = 1 + 1 + Math.max(0, Math.min(lines.length, Number(table.header_rows) || 1) - 1);
  const headerEnd = first + headerLines;
  if (headerEnd > lines.length) return undefined;
  const rows: Span[] = [];
  let i = headerEnd;
  for (; i < lines.length && !BLANK.test(text.slice(lines[i][0], lines[i][1])); i++) rows.push(lines[i]);
  while (i < lines.length && BLANK.test(text.slice(lines[i][0], lines[i][1]))) i++;
  const tail: Span | null = i < lines.length ? [lines[i][0], end] : null;
  return { header: [start, lines[headerEnd - 1][1]], rows, tail };
}

/** The chunker's reading of a document: its Markdown, and the model's blocks placed in it. */
export function chunkSource(markdown: string, document?: QuarryDocument | null): ParsedMarkdown {
  const placement = (document && modelPlacement(document, markdown)) || placedBlocks(documentFromMarkdown(markdown, {}, { spans: true }), markdown) || { placed: [], pages: [] };
  const markerStarts = new Set(placement.pages.map((p) => p.at));
  const { text, lines, pageOffsets } = keptLines(markdown, markerStarts);
  const pages = placement.pages.map((p) => ({ offset: pageOffsets.get(p.at) ?? textOffset(lines, p.at), page: p.page }));
  const blocks: Block[] = [];
  const sections: ParsedMarkdown['sections'] = [];
  const headingStack: Array<{ level: number; title: string }> = [];
  let covered = 0;
  /** Text between the model's blocks that the model leaves out (an empty heading's "#", a link definition) is kept as prose. */
  const gap = (until: number) => {
    const between = text.slice(covered, until);
    const first = between.search(/\S/);
    if (first >= 0) {
      const start = covered + first;
      const end = covered + between.trimEnd().length;
      blocks.push({ type: 'paragraph', start, end, text: text.slice(start, end) });
    }
  };
  for (const { block, span, items } of placement.placed) {
    const start = textOffset(lines, span[0]);
    const end = Math.max(start, textOffset(lines, span[1]));
    if (start < covered) continue;
    gap(start);
    covered = end;
    const out: Block = { type: typeOf(block), start, end, text: text.slice(start, end) };
    if (!out.text.trim()) continue;
    if (block.type === 'heading') {
      const title = Array.isArray(block.content) ? plainText(block.content) : '';
      out.level = block.level;
      out.title = title;
      while (headingStack.length > 0 && headingStack[headingStack.length - 1].level >= block.level) headingStack.pop();
      if (title) headingStack.push({ level: block.level, title });
      sections.push({ offset: start, path: headingStack.map((h) => h.title).join(SECTION_SEPARATOR) });
    } else if (block.type === 'table') {
      const table = tableParts(text, start, end, block);
      if (table) out.table = table;
    } else if (block.type === 'list' && items) {
      out.items = items.map((s) => [textOffset(lines, s[0]), textOffset(lines, s[1])]);
    }
    const prev = blocks[blocks.length - 1];
    if (out.type === 'list' && prev?.type === 'paragraph') prev.leadsIn = true;
    blocks.push(out);
  }
  gap(text.length);
  return { text, blocks, paged: pages.length > 0, pages, sections, lines };
}

/** The last entry whose `key` is at or before `at` (entries ascending by it), or -1. */
function lastAtOrBefore<K extends string, T extends Record<K, number>>(entries: readonly T[], at: number, key: K): number {
  let lo = 0;
  let hi = entries.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid][key] <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Page of the character at `at`: null for a document without markers, 1 before the first marker. */
export function pageAt(doc: ParsedMarkdown, at: number): number | null {
  if (!doc.paged) return null;
  const i = lastAtOrBefore(doc.pages, at, 'offset');
  return i < 0 ? 1 : doc.pages[i].page;
}

/** Heading path in effect at `at`, or null before the first heading. */
export function sectionAt(doc: ParsedMarkdown, at: number): string | null {
  const i = lastAtOrBefore(doc.sections, at, 'offset');
  if (i < 0) return null;
  return doc.sections[i].path || null;
}

/** The offset in the Markdown as given of offset `at` in the parsed text. */
export function sourceOffset(doc: ParsedMarkdown, at: number): number {
  const i = lastAtOrBefore(doc.lines, at, 'offset');
  if (i < 0) return at;
  return doc.lines[i].source + (at - doc.lines[i].offset);
}
