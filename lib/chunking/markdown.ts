/*
 * A small line-based reader for the GitHub-flavoured Markdown our extractors produce. It finds
 * the block structure chunking needs (headings, paragraphs, lists, tables, fenced code, quotes,
 * thematic breaks) and removes the page marker lines `<!-- page N -->`, remembering where each
 * page starts. It is not a full CommonMark parser: inline syntax is left alone and rarely used
 * constructs (indented code, HTML blocks, link reference definitions) read as paragraphs.
 */

export type BlockType = 'heading' | 'paragraph' | 'list' | 'table' | 'code' | 'quote' | 'rule';

export interface Block {
  type: BlockType;
  /** Offset in `ParsedMarkdown.text` of the block's first line. */
  start: number;
  /** Offset just after the block's last non-blank line. */
  end: number;
  /** `text.slice(start, end)`. */
  text: string;
  /** Headings: 1-6. */
  level?: number;
  /** Headings: the title as shown in the section path. */
  title?: string;
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
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const QUOTE = /^ {0,3}>/;
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const BLANK = /^[ \t]*$/;

/** Heading text as shown in a section path: closing #s removed, backslash escapes undone. */
export function headingTitle(raw: string): string {
  return raw
    .replace(/(?:^|[ \t]+)#+[ \t]*$/, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

interface OpenBlock {
  type: BlockType;
  start: number;
  /** End offset of the last non-blank line so far. */
  end: number;
  lines: number;
  /** Start offset of the last line (to split a paragraph whose last line is a table header). */
  lastLineStart: number;
  lastLine: string;
  /** Lists: a blank line was seen since the last non-blank line. */
  blankSeen: boolean;
}

export function parseMarkdown(input: string): ParsedMarkdown {
  const source = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const rawLines = source.split('\n');
  // Line starts in the input itself (before the byte order mark and CR line ends are dropped).
  const rawStarts = [input.startsWith('\uFEFF') ? 1 : 0];
  for (const m of input.matchAll(/\r\n?|\n/g)) rawStarts.push(m.index + m[0].length);
  const lineMap: ParsedMarkdown['lines'] = [];
  let rawIndex = -1;
  const kept: string[] = [];
  const blocks: Block[] = [];
  const pages: ParsedMarkdown['pages'] = [];
  const sections: ParsedMarkdown['sections'] = [];
  const headingStack: Array<{ level: number; title: string }> = [];
  let paged = false;
  let dropBlank = false;
  let offset = 0; // offset in the output text where the next kept line starts
  let open: OpenBlock | null = null;
  let fence: { char: string; length: number; owner: 'code' | 'list' } | null = null;

  const close = () => {
    if (!open) return;
    const o = open;
    open = null;
    blocks.push({ type: o.type, start: o.start, end: o.end, text: '' });
  };
  const start = (type: BlockType, lineStart: number, line: string) => {
    close();
    open = {
      type,
      start: lineStart,
      end: lineStart + line.length,
      lines: 1,
      lastLineStart: lineStart,
      lastLine: line,
      blankSeen: false,
    };
  };
  const extend = (lineStart: number, line: string) => {
    const o = open as OpenBlock;
    o.end = lineStart + line.length;
    o.lines++;
    o.lastLineStart = lineStart;
    o.lastLine = line;
    o.blankSeen = false;
  };
  const addHeading = (level: number, title: string, at: number) => {
    while (headingStack.length > 0 && headingStack[headingStack.length - 1].level >= level) headingStack.pop();
    if (title) headingStack.push({ level, title });
    sections.push({
      offset: at,
      path: headingStack.length > 0 ? headingStack.map((h) => h.title).join(SECTION_SEPARATOR) : '',
    });
  };

  for (const line of rawLines) {
    rawIndex++;
    const marker = PAGE_MARKER.exec(line);
    if (marker) {
      // Page markers are never content, even inside a code fence; outside one they end the block.
      paged = true;
      pages.push({ offset, page: Number.parseInt(marker[1], 10) });
      if (!fence) close();
      // "text\n\n<!-- page 2 -->\n\nmore": keep one blank line, not two.
      dropBlank = kept.length === 0 || BLANK.test(kept[kept.length - 1]);
      continue;
    }
    if (dropBlank && !fence && BLANK.test(line)) {
      dropBlank = false;
      continue;
    }
    dropBlank = false;
    const lineStart = offset;
    lineMap.push({ offset: lineStart, source: rawStarts[rawIndex] });
    kept.push(line);
    offset += line.length + 1;
    const o = open as OpenBlock | null;

    if (fence) {
      extend(lineStart, line);
      const closing = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (closing && closing[1][0] === fence.char && closing[1].length >= fence.length) {
        const owner = fence.owner;
        fence = null;
        if (owner === 'code') close();
      }
      continue;
    }

    if (BLANK.test(line)) {
      if (o && o.type === 'list') o.blankSeen = true;
      else close();
      continue;
    }

    const indented = /^[ \t]/.test(line);

    // Lists swallow indented lines (nested items, continuation paragraphs, nested fences).
    if (o && o.type === 'list' && (indented || (!o.blankSeen && !startsOtherBlock(line)) || LIST_ITEM.test(line))) {
      if (!THEMATIC_BREAK.test(line) || indented) {
        const nestedFence = FENCE_OPEN.exec(line);
        if (nestedFence && !(nestedFence[2][0] === '`' && nestedFence[3].includes('`'))) {
          fence = { char: nestedFence[2][0], length: nestedFence[2].length, owner: 'list' };
        }
        extend(lineStart, line);
        continue;
      }
    }

    const fenceOpen = FENCE_OPEN.exec(line);
    if (fenceOpen && !(fenceOpen[2][0] === '`' && fenceOpen[3].includes('`'))) {
      start('code', lineStart, line);
      fence = { char: fenceOpen[2][0], length: fenceOpen[2].length, owner: 'code' };
      continue;
    }

    const atx = ATX_HEADING.exec(line);
    if (atx) {
      close();
      const level = atx[1].length;
      blocks.push({ type: 'heading', start: lineStart, end: lineStart + line.length, text: '', level, title: headingTitle(atx[2] ?? '') });
      addHeading(level, headingTitle(atx[2] ?? ''), lineStart);
      continue;
    }

    if (o && o.type === 'paragraph' && o.lastLine.includes('|') && line.includes('|') && TABLE_DELIMITER.test(line)) {
      // The paragraph's last line is a table header: earlier lines stay a paragraph.
      const headerStart = o.lastLineStart;
      const headerLine = o.lastLine;
      if (o.lines > 1) {
        blocks.push({ type: 'paragraph', start: o.start, end: headerStart - 1, text: '' });
        open = null;
        start('table', headerStart, headerLine);
      } else {
        o.type = 'table';
      }
      extend(lineStart, line);
      continue;
    }

    if (o && o.type === 'paragraph' && SETEXT_UNDERLINE.test(line)) {
      const level = line.trim()[0] === '=' ? 1 : 2;
      const title = headingTitle(kept.slice(kept.length - 1 - o.lines, kept.length - 1).join(' '));
      const startOffset = o.start;
      open = null;
      blocks.push({ type: 'heading', start: startOffset, end: lineStart + line.length, text: '', level, title });
      addHeading(level, title, startOffset);
      continue;
    }

    if (THEMATIC_BREAK.test(line)) {
      close();
      blocks.push({ type: 'rule', start: lineStart, end: lineStart + line.length, text: '' });
      continue;
    }

    if (LIST_ITEM.test(line) && !indentedCode(line)) {
      start('list', lineStart, line);
      continue;
    }

    if (QUOTE.test(line)) {
      if (o && o.type === 'quote') extend(lineStart, line);
      else start('quote', lineStart, line);
      continue;
    }

    if (o && (o.type === 'paragraph' || o.type === 'table' || o.type === 'quote')) {
      // Paragraph continuation, a table row, or a lazy blockquote continuation.
      extend(lineStart, line);
      continue;
    }
    start('paragraph', lineStart, line);
  }
  close();

  const out = kept.join('\n');
  for (const b of blocks) {
    b.text = out.slice(b.start, b.end);
    if (b.type !== 'code') {
      // Trailing spaces carry no meaning outside code (hard breaks aside).
      const trimmed = b.text.trimEnd();
      b.end = b.start + trimmed.length;
      b.text = trimmed;
    }
  }
  blocks.sort((a, b) => a.start - b.start);
  return { text: out, blocks: blocks.filter((b) => b.text.trim() !== ''), paged, pages, sections, lines: lineMap };
}

function startsOtherBlock(line: string): boolean {
  return ATX_HEADING.test(line) || FENCE_OPEN.test(line) || QUOTE.test(line) || THEMATIC_BREAK.test(line);
}

function indentedCode(line: string): boolean {
  return /^(?: {4}|\t)/.test(line);
}

/** Binary search: the last entry whose offset is <= at, or -1. */
export function lastAtOrBefore(entries: ReadonlyArray<{ offset: number }>, at: number): number {
  let lo = 0;
  let hi = entries.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].offset <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Page of the character at `at`: null for a document without markers, 1 before the first marker. */
export function pageAt(doc: ParsedMarkdown, at: number): number | null {
  if (!doc.paged) return null;
  const i = lastAtOrBefore(doc.pages, at);
  return i < 0 ? 1 : doc.pages[i].page;
}

/** Heading path in effect at `at`, or null before the first heading. */
export function sectionAt(doc: ParsedMarkdown, at: number): string | null {
  const i = lastAtOrBefore(doc.sections, at);
  if (i < 0) return null;
  return doc.sections[i].path || null;
}

/** The offset in the Markdown as given of offset `at` in the parsed text. */
export function sourceOffset(doc: ParsedMarkdown, at: number): number {
  const i = lastAtOrBefore(doc.lines, at);
  if (i < 0) return at;
  return doc.lines[i].source + (at - doc.lines[i].offset);
}
