import { safeHref } from '@/lib/document/links';
import type { Block, HeadingLevel, Inline, List, ListItem, Picture, TextMarks } from '@/lib/document/types';
import { CDATA_SECTION_NODE, cleanAltText, ELEMENT_NODE, tagOf, TEXT_NODE } from './html-parse';
import { readTable, type CellReader } from './html-tables';
import { flattenBlocks, hasContent, splitParagraphs, textRun } from './inlines';

/*
 * An HTML DOM (html-parse.ts) → blocks of the document model, for every format that reads
 * through HTML: HTML pages, EPUB chapters, e-mail bodies, DOCX (through mammoth).
 *
 * - h1–h6 → headings, p and the other block elements → paragraphs (two line breaks in a row
 *   start a new one), ul/ol → lists (start, value, nesting, task items), table → tables
 *   (html-tables.ts), pre → code (the language from a "language-…" class), blockquote → quote,
 *   hr → rule, br → a line break, figure → a picture with its caption.
 * - strong/b, em/i, s/del/strike, code, sup, sub and a (http, https and mailto targets only) →
 *   marks; other inline elements give their text.
 * - img → a picture (its alternative text, Word's automatic-description boilerplate removed)
 *   when it stands alone, its alternative text among other text, nothing without one.
 * - Whitespace collapses as a browser shows it. Scripts, styles, templates and form fields are
 *   dropped, and whatever `skip` says; no markup reaches the model, only text.
 */

export interface HtmlTokens {
  /** Text every token contains (a quick test before the pattern runs). */
  marker: string;
  /** Matches every token (global). */
  pattern: RegExp;
  /** What a token stands for: runs in its line, or a block of its own. */
  resolve(token: string): Inline[] | Block | undefined;
}

export interface HtmlReadOptions {
  /** Images among text: their alternative text ('alt'), or an italic "Image: …" ('placeholder'). */
  inlineImages: 'alt' | 'placeholder';
  /** Elements left out with their content (called for every element, in document order). */
  skip?: (el: Element) => boolean;
  /** Placeholder tokens in the text (DOCX equations and heading numbers). */
  tokens?: HtmlTokens;
}

const DROPPED = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'INPUT', 'HEAD', 'TITLE', 'META', 'LINK', 'BASE']);

/** Elements shown on lines of their own: they end the paragraph before them and start a new one. */
const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'AUDIO', 'BODY', 'CANVAS', 'CENTER', 'DD', 'DETAILS', 'DIR', 'DIV', 'DL', 'DT',
  'FIELDSET', 'FIGCAPTION', 'FOOTER', 'FORM', 'FRAMESET', 'HEADER', 'HGROUP', 'HTML', 'ISINDEX', 'LI', 'MAIN', 'MENU',
  'NAV', 'NOFRAMES', 'NOSCRIPT', 'OUTPUT', 'P', 'SECTION', 'SUMMARY', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'CAPTION',
]);

const MARKS: Record<string, TextMarks> = {
  STRONG: { bold: true }, B: { bold: true }, EM: { italic: true }, I: { italic: true },
  S: { strike: true }, DEL: { strike: true }, STRIKE: { strike: true }, CODE: { code: true },
  SUP: { superscript: true }, SUB: { subscript: true },
};

type Pending = Inline | { type: 'image'; alt: string; marks: TextMarks };

interface Context {
  options: HtmlReadOptions;
  imageText: (alt: string, marks: TextMarks) => Inline[];
}

/** Blocks in the making: the finished ones and the runs of the paragraph being read. */
class Flow {
  readonly blocks: Block[] = [];
  private runs: Pending[] = [];

  constructor(private readonly ctx: Context) {}

  inline(run: Pending): void {
    this.runs.push(run);
  }

  block(block: Block): void {
    this.flush();
    this.blocks.push(block);
  }

  flush(): void {
    const runs = this.runs;
    if (runs.length === 0) return;
    this.runs = [];
    // Images alone (not links) are pictures; among text they are text.
    const alone = runs.every((r) => (r.type === 'image' ? !r.marks.href : r.type === 'break' || (r.type === 'text' && !/\S/.test(r.text))));
    if (alone) {
      for (const r of runs) if (r.type === 'image') this.blocks.push({ type: 'picture', alt: r.alt });
      return;
    }
    const inlines = runs.flatMap((r) => (r.type === 'image' ? this.ctx.imageText(r.alt, r.marks) : [r]));
    for (const content of splitParagraphs(inlines)) this.blocks.push({ type: 'paragraph', content });
  }
}

/** The blocks of an element's content (the root from parseHtml, a cell, a list item). */
export function htmlToBlocks(root: Element, options: HtmlReadOptions): Block[] {
  const ctx: Context = {
    options,
    imageText:
      options.inlineImages === 'placeholder'
        ? (alt, marks) => [textRun(`Image: ${alt}`, { ...marks, italic: true })]
        : (alt, marks) => [textRun(alt, marks)],
  };
  return blocksOf(root, {}, ctx);
}

function blocksOf(el: Element, marks: TextMarks, ctx: Context): Block[] {
  const flow = new Flow(ctx);
  walkChildren(el, flow, marks, ctx);
  flow.flush();
  return flow.blocks;
}

/** An element's content as one line of runs (headings, captions, cells). */
function inlinesOf(el: Element, marks: TextMarks, ctx: Context): Inline[] {
  return flatten(blocksOf(el, marks, ctx), ctx);
}

function flatten(blocks: readonly Block[], ctx: Context): Inline[] {
  return flattenBlocks(blocks, (alt) => ctx.imageText(alt, {}));
}

function walkChildren(el: Element, flow: Flow, marks: TextMarks, ctx: Context): void {
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) text((child as CharacterData).data, flow, marks, ctx);
    else if (child.nodeType === ELEMENT_NODE) element(child as Element, flow, marks, ctx);
  }
}

function text(data: string, flow: Flow, marks: TextMarks, ctx: Context): void {
  const tokens = ctx.options.tokens;
  if (!tokens || !data.includes(tokens.marker)) {
    flow.inline(textRun(data, marks));
    return;
  }
  let last = 0;
  for (const m of data.matchAll(tokens.pattern)) {
    if (m.index > last) flow.inline(textRun(data.slice(last, m.index), marks));
    const value = tokens.resolve(m[0]);
    if (Array.isArray(value)) for (const run of value) flow.inline(run);
    else if (value) flow.block(value);
    last = m.index + m[0].length;
  }
  if (last < data.length) flow.inline(textRun(data.slice(last), marks));
}

function element(el: Element, flow: Flow, marks: TextMarks, ctx: Context): void {
  const name = tagOf(el);
  if (ctx.options.skip?.(el) || DROPPED.has(name)) return;
  switch (name) {
    case 'BR':
      flow.inline({ type: 'break' });
      return;
    case 'IMG': {
      const alt = cleanAltText(el.getAttribute('alt') ?? '');
      if (alt) flow.inline({ type: 'image', alt, marks });
      return;
    }
    case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': {
      flow.flush();
      const content = inlinesOf(el, marks, ctx);
      if (hasContent(content)) flow.block({ type: 'heading', level: Number(name[1]) as HeadingLevel, content });
      return;
    }
    case 'UL': case 'OL': {
      const list = readList(el, marks, ctx);
      if (list.items.length) flow.block(list);
      else flow.flush();
      return;
    }
    case 'TABLE': {
      flow.flush();
      const cells: CellReader = {
        keep: (part) => !ctx.options.skip?.(part),
        blocks: (part) => blocksOf(part, marks, ctx),
        flatten: (content) => flatten(content, ctx),
      };
      for (const block of readTable(el, cells)) flow.block(block);
      return;
    }
    case 'PRE': {
      flow.flush();
      const code = codeText(el, ctx);
      const language = (codeLanguage(el) ?? '').match(/language-([\w+#.-]+)/)?.[1];
      if (code.trim()) flow.block(language ? { type: 'code', text: code, language } : { type: 'code', text: code });
      return;
    }
    case 'BLOCKQUOTE': {
      flow.flush();
      const content = blocksOf(el, marks, ctx);
      if (content.length) flow.block({ type: 'quote', content });
      return;
    }
    case 'HR':
      flow.block({ type: 'rule' });
      return;
    case 'FIGURE':
      flow.flush();
      for (const block of readFigure(el, marks, ctx)) flow.block(block);
      return;
  }
  if (BLOCKS.has(name)) {
    flow.flush();
    walkChildren(el, flow, marks, ctx);
    flow.flush();
    return;
  }
  let inner = marks;
  const mark = MARKS[name];
  if (mark) inner = { ...marks, ...mark };
  else if (name === 'A') {
    const href = safeHref(el.getAttribute('href'));
    if (href) inner = { ...marks, href };
  }
  walkChildren(el, flow, inner, ctx);
}

function readList(el: Element, marks: TextMarks, ctx: Context): List {
  const ordered = tagOf(el) === 'OL';
  const list: List = { type: 'list', ordered, items: [] };
  const startAttr = Number.parseInt(el.getAttribute('start') ?? '1', 10);
  const start = ordered && Number.isFinite(startAttr) ? Math.min(Math.max(startAttr, 0), 999_999_999) : 1;
  if (start !== 1) list.start = start;
  let next = start;
  // What a list holds besides its items (a nested list written beside them) joins the item before.
  const stray = new Flow(ctx);
  const strays = () => {
    stray.flush();
    if (stray.blocks.length === 0) return;
    const last = list.items[list.items.length - 1];
    if (last) last.content.push(...stray.blocks);
    else list.items.push({ content: [...stray.blocks] });
    stray.blocks.length = 0;
  };
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE && tagOf(child as Element) === 'LI') {
      const li = child as Element;
      if (ctx.options.skip?.(li)) continue;
      strays();
      const item: ListItem = { content: blocksOf(li, marks, ctx) };
      const value = Number.parseInt(li.getAttribute('value') ?? '', 10);
      if (ordered && Number.isFinite(value)) next = Math.min(Math.max(value, 0), 999_999_999);
      if (ordered && next !== start + list.items.length) item.number = next;
      next++;
      const checked = taskState(li);
      if (checked !== undefined) item.checked = checked;
      list.items.push(item);
    } else if (child.nodeType === ELEMENT_NODE) {
      element(child as Element, stray, marks, ctx);
    } else if (child.nodeType === TEXT_NODE && /\S/.test((child as CharacterData).data)) {
      text((child as CharacterData).data, stray, marks, ctx);
    }
  }
  strays();
  return list;
}

/** A task item's box: a checkbox before any text of the item (GitHub's task lists, Word's check boxes). */
function taskState(el: Element): boolean | undefined {
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE) {
      if (/\S/.test((child as CharacterData).data)) return undefined;
      continue;
    }
    if (child.nodeType !== ELEMENT_NODE) continue;
    const e = child as Element;
    const name = tagOf(e);
    if (name === 'INPUT') return (e.getAttribute('type') ?? '').toLowerCase() === 'checkbox' ? e.hasAttribute('checked') : undefined;
    if (name === 'P' || name === 'SPAN' || name === 'LABEL' || name === 'DIV') return taskState(e);
    return undefined;
  }
  return undefined;
}

/** The text of a <pre>, line breaks kept (tokens as their text). */
function codeText(el: Element, ctx: Context): string {
  let out = '';
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) out += (child as CharacterData).data;
    else if (child.nodeType === ELEMENT_NODE) {
      const e = child as Element;
      const name = tagOf(e);
      if (ctx.options.skip?.(e) || DROPPED.has(name)) continue;
      out += name === 'BR' ? '\n' : codeText(e, ctx);
    }
  }
  const tokens = ctx.options.tokens;
  if (!tokens || !out.includes(tokens.marker)) return out;
  return out.replace(tokens.pattern, (token) => {
    const value = tokens.resolve(token);
    if (!value) return '';
    return Array.isArray(value) ? value.map((r) => (r.type === 'text' ? r.text : r.type === 'math' ? `$${r.latex}$` : '')).join('') : value.type === 'formula' ? `$$${value.latex}$$` : '';
  });
}

/** The class naming a <pre>'s language: its <code>'s, else its own. */
function codeLanguage(pre: Element): string | null {
  for (let child = pre.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE && tagOf(child as Element) === 'CODE') return (child as Element).getAttribute('class') ?? pre.getAttribute('class');
  }
  return pre.getAttribute('class');
}

/** A <figure>: its content, the <figcaption> as the caption of its one picture (else a paragraph where it stands). */
function readFigure(el: Element, marks: TextMarks, ctx: Context): Block[] {
  const flow = new Flow(ctx);
  let caption: { content: Inline[]; at: number } | undefined;
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE && tagOf(child as Element) === 'FIGCAPTION' && !caption) {
      if (ctx.options.skip?.(child as Element)) continue;
      flow.flush();
      const content = inlinesOf(child as Element, marks, ctx);
      if (hasContent(content)) caption = { content, at: flow.blocks.length };
    } else if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) text((child as CharacterData).data, flow, marks, ctx);
    else if (child.nodeType === ELEMENT_NODE) element(child as Element, flow, marks, ctx);
  }
  flow.flush();
  const blocks = flow.blocks;
  if (!caption) return blocks;
  const pictures = blocks.filter((b): b is Picture => b.type === 'picture');
  if (pictures.length === 1) pictures[0].caption = caption.content;
  else blocks.splice(caption.at, 0, { type: 'paragraph', content: caption.content });
  return blocks;
}
