/**
 * Markdown (GitHub-flavoured, with `$…$` and `$$…$$` math) → the document model: how Markdown
 * files, and the extractors that still write Markdown, get a model.
 *
 * - Blocks map one to one (heading, paragraph, list with task items, table with one header row,
 *   code, quote, formula, rule, footnote); marks, links (http, https and mailto only: escape.ts's
 *   safeHref), breaks, inline math and footnote references map to inline runs. An image alone in
 *   its paragraph, or Quarry's own "*Image: …*" line, is a picture; elsewhere its alternative
 *   text is text. Reference links are resolved through their definitions, which are dropped.
 * - Raw HTML is kept as literal text, never read; comments are dropped, except the page markers
 *   (`<!-- page N -->` at the top level), each of which starts a page section holding the blocks
 *   up to the next one.
 * - Any input parses, in time about linear in its size and without deep recursion: the text is
 *   parsed in pieces (markdown-pieces.ts) whose seams are joined here, and should the parser fail
 *   all the same the document is its text as plain paragraphs.
 */
import { fromMarkdown, type Options } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mathFromMarkdown } from 'mdast-util-math';
import { gfm } from 'micromark-extension-gfm';
import { math } from 'micromark-extension-math';
import { plainTextBlocks } from './from-text';
import { LineStarts } from './line-starts';
import { markdownPieces, type MarkdownPiece } from './markdown-pieces';
import { collectDefinitions, rootItemsOf, type RootItem } from './mdast-blocks';
import { resolvePending, type ConvertContext } from './mdast-inlines';
import { DOCUMENT_VERSION, type Block, type DocumentMetadata, type Inline, type Paragraph, type QuarryDocument, type Section, type Span } from './types';

const OPTIONS: Options = {
  extensions: [gfm(), math()],
  mdastExtensions: [gfmFromMarkdown(), mathFromMarkdown()],
};

/**
 * `spans`: every block at the top level or in a page section (and every item of such a list)
 * carries its span in `markdown` (`prov.span`), whole lines from its first non-blank character
 * to its last. A Markdown file's Markdown is its own text, and chunking reads it by these spans.
 */
export function documentFromMarkdown(markdown: string, metadata: DocumentMetadata = {}, { spans = false }: { spans?: boolean } = {}): QuarryDocument {
  const lines = spans ? new LineStarts(markdown) : undefined;
  let blocks: Block[];
  try {
    blocks = parseBlocks(markdown, lines);
  } catch {
    blocks = plainTextBlocks(markdown, { trim: true, lines, firstLine: 0 });
  }
  return { version: DOCUMENT_VERSION, metadata, blocks };
}

function parseBlocks(markdown: string, lines: LineStarts | undefined): Block[] {
  const pieces = markdownPieces(markdown);
  const stubs = pieces.length > 1 ? referenceStubs(pieces) : [''];
  const ctx: ConvertContext = { source: '', cutoff: 0, definitions: new Map(), pending: [] };
  const items: RootItem[] = [];
  pieces.forEach((piece, i) => {
    let next: RootItem[];
    if (piece.literal) {
      next = plainTextBlocks(piece.text, { trim: true, lines, firstLine: piece.firstLine });
    } else {
      ctx.source = stubs[i] ? `${piece.text}\n\n${stubs[i]}` : piece.text;
      ctx.cutoff = piece.text.length;
      ctx.spanOf = lines && ((node) => {
        // Lines of the piece → lines of the Markdown (the carried lines are the previous piece's).
        const at = (line: number) => piece.firstLine + Math.max(0, line - 1 - piece.carriedLines);
        const start = node.position?.start.line ?? 1;
        let end = node.position?.end.line ?? start;
        if (end > start && node.position?.end.column === 1) end--;
        return lines.span(at(start), at(end));
      });
      const tree = fromMarkdown(ctx.source, OPTIONS);
      collectDefinitions(tree.children, ctx);
      next = rootItemsOf(tree.children, ctx);
    }
    if (piece.seam) joinSeam(items, next, piece.carried);
    else append(items, next);
  });
  resolvePending(ctx);
  return sectionsOf(items);
}

/** Extends the span of `a` to the end of `b`'s. */
function extendSpan(a: { prov?: { span?: Span } }, b: { prov?: { span?: Span } }): void {
  const end = b.prov?.span?.[1];
  const own = a.prov?.span;
  if (own && end !== undefined && end > own[1]) a.prov = { ...a.prov, span: [own[0], end] };
}

function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

const DEFINITION = /^[ \t>]*\[((?:[^\\[\]]|\\.){1,999})\]:/;
const REFERENCE = /\[((?:[^\\[\]\n]|\\.){1,999})\]/g;

function labelKey(label: string): string {
  return label.replace(/[\t\n\r ]+/g, ' ').trim().toLowerCase().toUpperCase();
}

/**
 * For each piece, stub definitions of the labels it uses that another piece defines, so the
 * parser reads `[text][label]` and `[^label]` there as references (the links are resolved
 * through the real definitions, the stubs are dropped).
 */
function referenceStubs(pieces: MarkdownPiece[]): string[] {
  const defined = pieces.map((piece) => {
    const labels = new Set<string>();
    if (piece.literal) return labels;
    for (const line of piece.text.split('\n')) {
      const m = DEFINITION.exec(line);
      if (m) labels.add(labelKey(m[1]));
    }
    return labels;
  });
  const anywhere = new Set<string>();
  for (const labels of defined) for (const label of labels) anywhere.add(label);
  return pieces.map((piece, i) => {
    if (piece.literal || piece.openAtEnd || anywhere.size === 0) return '';
    const stubs = new Map<string, string>();
    for (const m of piece.text.matchAll(REFERENCE)) {
      const key = labelKey(m[1]);
      if (anywhere.has(key) && !defined[i].has(key) && !stubs.has(key)) stubs.set(key, `[${m[1]}]: x`);
    }
    return [...stubs.values()].join('\n');
  });
}

/** The blocks of a piece that starts inside the previous piece's last block, joined to it. */
function joinSeam(items: RootItem[], next: RootItem[], carried: MarkdownPiece['carried']): void {
  const last = items[items.length - 1];
  const first = next[0];
  if (carried === 'table' && first?.type === 'table') {
    // The piece repeats the table's header rows in front of its rows.
    const rows = first.rows.slice(1);
    if (last?.type === 'table') {
      append(last.rows, rows);
      extendSpan(last, first);
    } else if (rows.length) items.push({ ...first, rows, header_rows: 0 });
    append(items, next.slice(1));
    return;
  }
  if (carried === 'fence' && first?.type === 'code' && last?.type === 'code') {
    last.text = last.text ? `${last.text}\n${first.text}` : first.text;
    extendSpan(last, first);
    append(items, next.slice(1));
    return;
  }
  if (last && first && joinBlocks(last, first)) {
    if (last.type !== 'page_mark' && first.type !== 'page_mark') extendSpan(last, first);
    append(items, next.slice(1));
  } else append(items, next);
}

/** Joins `b` into `a` when `b` is what follows `a`'s last line in the same block. */
function joinBlocks(a: RootItem, b: RootItem): boolean {
  if (a.type === 'list' && b.type === 'list' && a.ordered === b.ordered) {
    append(a.items, b.items);
    return true;
  }
  if (a.type === 'quote' && b.type === 'quote') {
    const [head, ...rest] = b.content;
    const tail = a.content[a.content.length - 1];
    append(a.content, tail && head && joinBlocks(tail, head) ? rest : b.content);
    return true;
  }
  if (b.type !== 'paragraph') return false;
  // A line at the start of a piece that continues a paragraph (lazily, in a list or quote).
  const target = lastParagraph(a);
  if (!target) return false;
  joinParagraphs(target, b);
  return true;
}

function lastParagraph(block: RootItem): Paragraph | null {
  let at: RootItem | undefined = block;
  for (;;) {
    if (!at) return null;
    if (at.type === 'paragraph') return at;
    if (at.type === 'list') at = at.items[at.items.length - 1]?.content.at(-1);
    else if (at.type === 'quote' || at.type === 'footnote') at = at.content.at(-1);
    else return null;
  }
}

function isPlain(run: Inline | undefined): run is Extract<Inline, { type: 'text' }> {
  return run?.type === 'text' && !run.bold && !run.italic && !run.strike && !run.code && !run.superscript && !run.subscript && !run.href;
}

/** `b`'s lines after `a`'s, as one paragraph (a soft line break between them). */
function joinParagraphs(a: Paragraph, b: Paragraph): void {
  const last = a.content[a.content.length - 1];
  if (isPlain(last)) last.text += '\n';
  else a.content.push({ type: 'text', text: '\n' });
  const joined = a.content[a.content.length - 1] as Extract<Inline, { type: 'text' }>;
  const [first, ...rest] = b.content;
  if (isPlain(first)) {
    joined.text += first.text;
    append(a.content, rest);
  } else append(a.content, b.content);
}

/** Page marks → page sections holding the blocks up to the next mark. */
function sectionsOf(items: RootItem[]): Block[] {
  const out: Block[] = [];
  let section: Section | null = null;
  for (const item of items) {
    if (item.type === 'page_mark') {
      section = { type: 'section', kind: 'page', page: item.page, content: [] };
      if (item.span) section.prov = { span: item.span };
      out.push(section);
    } else if (section) {
      section.content.push(item);
      extendSpan(section, item);
    } else out.push(item);
  }
  return out;
}
