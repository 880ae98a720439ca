/**
 * mdast (what mdast-util-from-markdown parses, with GFM and math) → the document model's blocks,
 * for from-markdown.ts. Inline content is walked with a stack of its own and containers nest at
 * most MAX_DEPTH deep (deeper ones are flattened into their parent), so no input overflows the
 * call stack here.
 */
import type { Paragraph as MdParagraph, PhrasingContent, RootContent, Table as MdTable } from 'mdast';
import type {} from 'mdast-util-gfm';
import type {} from 'mdast-util-math';
import { inlinesOf, mathDelimiters, sameMarks, startOf, type ConvertContext } from './mdast-inlines';
import type { Block, HeadingLevel, Inline, ListItem, Span, TableCell } from './types';

export const MAX_DEPTH = 40;

/** A page marker line (`<!-- page N -->`) at the top level: sections are made from these. */
export interface PageMark {
  type: 'page_mark';
  page: number;
  /** The marker's line in the Markdown. */
  span?: Span;
}

export type RootItem = Block | PageMark;

const PAGE_MARKER = /^<!--[ \t]*page[ \t]+(\d{1,9})[ \t]*-->$/;
const COMMENT = /<!--[\s\S]*?-->/g;
const CONTAINERS = new Set(['blockquote', 'list', 'listItem', 'footnoteDefinition']);

/** Content for one line (a heading, a table cell): breaks and runs of whitespace become one space. */
function oneLine(content: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const run of content) {
    const flat: Inline = run.type === 'break' ? { type: 'text', text: ' ' } : run.type === 'text' ? { ...run, text: run.text.replace(/\s+/g, ' ') } : run;
    const last = out[out.length - 1];
    if (flat.type === 'text' && last?.type === 'text' && sameMarks(last, flat)) last.text += flat.text;
    else out.push(flat);
  }
  const first = out[0];
  if (first?.type === 'text') first.text = first.text.replace(/^ /, '');
  const last = out[out.length - 1];
  if (last?.type === 'text') last.text = last.text.replace(/ $/, '');
  return out.filter((run) => run.type !== 'text' || run.text);
}

function hasText(content: readonly Inline[]): boolean {
  return content.some((run) => run.type !== 'text' || /\S/.test(run.text));
}

/** A paragraph that is an image alone, or Quarry's own "*Image: …*" line, is a picture. */
function pictureOf(node: MdParagraph): Block | null {
  const children = node.children.filter((c) => !(c.type === 'text' && !/\S/.test(c.value)));
  if (children.length !== 1) return null;
  const only = children[0];
  if (only.type === 'image' || only.type === 'imageReference') return only.alt ? { type: 'picture', alt: only.alt } : { type: 'picture' };
  if (only.type === 'emphasis' && only.children.length === 1 && only.children[0].type === 'text') {
    const m = /^Image: (\S[\s\S]*)$/.exec(only.children[0].value);
    if (m) return { type: 'picture', alt: m[1] };
  }
  return null;
}

function tableOf(node: MdTable, ctx: ConvertContext): Block {
  const width = node.children[0]?.children.length ?? 0;
  const rows = node.children.map((row) => {
    const cells: TableCell[] = row.children.slice(0, width).map((cell) => ({ content: oneLine(inlinesOf(cell.children, ctx)) }));
    while (cells.length < width) cells.push({ content: [] });
    return cells;
  });
  return { type: 'table', rows, header_rows: rows.length ? 1 : 0 };
}

/** HTML as literal text (comments dropped); at the top level a page marker comment is a PageMark. */
function htmlItems(value: string, root: boolean): RootItem[] {
  const out: RootItem[] = [];
  let last = 0;
  const addText = (text: string) => {
    if (/\S/.test(text)) out.push({ type: 'paragraph', content: [{ type: 'text', text: text.trim() }] });
  };
  for (const m of value.matchAll(COMMENT)) {
    addText(value.slice(last, m.index));
    last = m.index + m[0].length;
    const page = PAGE_MARKER.exec(m[0]);
    if (root && page && Number(page[1]) >= 1) out.push({ type: 'page_mark', page: Number(page[1]) });
  }
  addText(value.slice(last));
  return out;
}

/** A container's leaf blocks in order, found without recursion (for containers past MAX_DEPTH). */
function leavesOf(node: RootContent): RootContent[] {
  const out: RootContent[] = [];
  const stack: RootContent[] = [node];
  while (stack.length) {
    const next = stack.pop()!;
    if (CONTAINERS.has(next.type) && 'children' in next) {
      for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i] as RootContent);
    } else out.push(next);
  }
  return out;
}

/** Leaf blocks (no nested blocks): heading, paragraph, table, code, math, rule, HTML. */
function leafItems(node: RootContent, root: boolean, ctx: ConvertContext): RootItem[] {
  switch (node.type) {
    case 'heading': {
      const content = oneLine(inlinesOf(node.children, ctx));
      return hasText(content) ? [{ type: 'heading', level: node.depth as HeadingLevel, content }] : [];
    }
    case 'paragraph': {
      const picture = pictureOf(node);
      if (picture) return [picture];
      const only = node.children.length === 1 ? node.children[0] : null;
      if (only?.type === 'inlineMath' && mathDelimiters(only, ctx).dollars >= 2 && only.value.trim()) return [{ type: 'formula', latex: only.value }];
      const content = inlinesOf(node.children, ctx);
      return hasText(content) ? [{ type: 'paragraph', content }] : [];
    }
    case 'table':
      return [tableOf(node, ctx)];
    case 'code':
      return [node.lang ? { type: 'code', text: node.value, language: node.lang } : { type: 'code', text: node.value }];
    case 'math':
      return node.value.trim() ? [{ type: 'formula', latex: node.value }] : [];
    case 'thematicBreak':
      return [{ type: 'rule' }];
    case 'html':
      return htmlItems(node.value, root);
    case 'definition':
      return [];
    default: {
      // Phrasing content met at block level (not produced by the parser): as a paragraph.
      const content = inlinesOf([node as PhrasingContent], ctx);
      return hasText(content) ? [{ type: 'paragraph', content }] : [];
    }
  }
}

function listItemOf(node: Extract<RootContent, { type: 'listItem' }>, depth: number, ctx: ConvertContext): ListItem {
  const item: ListItem = { content: blocksOf(node.children, depth + 1, ctx) };
  if (typeof node.checked === 'boolean') item.checked = node.checked;
  return item;
}

/** Sets the span of the items a top-level node gave (a list's items their own). */
function placeItems(items: RootItem[], node: RootContent, ctx: ConvertContext): void {
  const spanOf = ctx.spanOf;
  if (!spanOf) return;
  const span = spanOf(node);
  for (const item of items) {
    if (item.type === 'page_mark') item.span = span;
    else item.prov = { ...item.prov, span };
  }
  if (node.type === 'list' && items.length === 1 && items[0].type === 'list') {
    items[0].items.forEach((item, i) => {
      const child = node.children[i];
      if (child) item.prov = { ...item.prov, span: spanOf(child) };
    });
  }
}

function itemsOf(nodes: readonly RootContent[], depth: number, ctx: ConvertContext, root: boolean): RootItem[] {
  const out: RootItem[] = [];
  let from = 0;
  let last: RootContent | null = null;
  const place = () => {
    if (root && last && out.length > from) placeItems(out.slice(from), last, ctx);
    from = out.length;
  };
  for (const node of nodes) {
    place();
    last = node;
    if (root && startOf(node) >= ctx.cutoff) continue;
    if (depth >= MAX_DEPTH && CONTAINERS.has(node.type)) {
      for (const leaf of leavesOf(node)) out.push(...leafItems(leaf, false, ctx));
      continue;
    }
    switch (node.type) {
      case 'blockquote': {
        const content = blocksOf(node.children, depth + 1, ctx);
        if (content.length) out.push({ type: 'quote', content });
        break;
      }
      case 'list': {
        const list: Block = { type: 'list', ordered: Boolean(node.ordered), items: node.children.map((item) => listItemOf(item, depth, ctx)) };
        if (node.ordered && typeof node.start === 'number' && node.start !== 1) list.start = node.start;
        out.push(list);
        break;
      }
      case 'listItem':
        out.push(...blocksOf(node.children, depth + 1, ctx));
        break;
      case 'footnoteDefinition': {
        const content = blocksOf(node.children, depth + 1, ctx);
        if (content.length) out.push({ type: 'footnote', label: node.label ?? node.identifier, content });
        break;
      }
      default:
        out.push(...leafItems(node, root, ctx));
    }
  }
  place();
  return out;
}

/** Blocks inside a container (page markers there are ordinary comments). */
export function blocksOf(nodes: readonly RootContent[], depth: number, ctx: ConvertContext): Block[] {
  return itemsOf(nodes, depth, ctx, false) as Block[];
}

/** The top level of a parsed piece: blocks and page marks. */
export function rootItemsOf(nodes: readonly RootContent[], ctx: ConvertContext): RootItem[] {
  return itemsOf(nodes, 0, ctx, true);
}

/** Records the piece's link definitions (without recursion); earlier ones win. */
export function collectDefinitions(nodes: readonly RootContent[], ctx: ConvertContext): void {
  const stack: RootContent[] = [...nodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'definition') {
      if (startOf(node) < ctx.cutoff && !ctx.definitions.has(node.identifier)) ctx.definitions.set(node.identifier, node.url);
    } else if (CONTAINERS.has(node.type) && 'children' in node) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as RootContent);
    }
  }
}

