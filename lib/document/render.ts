/**
 * The one renderer: a document (types.ts) → the GitHub-flavoured Markdown Quarry serves, and the
 * layout record (layout.ts) of where that Markdown's text sits on the pages.
 *
 * Rules:
 * - Blocks are separated by a blank line; the Markdown ends with one newline (empty when the
 *   document has no text). A section that starts a paged unit opens with `<!-- page N -->`.
 * - Text is escaped by escape.ts only; marks become `**`, `*`, `~~`, code spans and links, with
 *   the spaces at a run's edges kept outside the marks.
 * - Lists: "-" or "N." markers; an item's further lines are indented to its text (CommonMark's
 *   rule), nested lists follow their item's text directly.
 * - Tables are GFM tables: the first row is the header row; a cell spanning rows or columns is
 *   written once, in its first row and column, and the positions it covers are left empty, so no
 *   text is ever repeated. A caption is a paragraph above the table. Tables wider or larger than
 *   the limits (settings.ts) are cut, with a note line saying how many rows were kept.
 */
import { LayoutBuilder, unionBox, type ExtractionLayout } from './layout';
import { codeFence, codeSpan, escapeCellText, escapeInline, escapeLineStart } from './escape';
import { safeHref } from './links';
import { TABLE_LIMITS } from './settings';
import { tableGrid } from './table-grid';
import type { Block, Inline, List, ListItem, QuarryDocument, SourceLine, Span, Table, TextMarks } from './types';

/** A written piece of the Markdown that came from known lines of a page. */
interface Placed {
  page: number;
  start: number;
  end: number;
  lines: SourceLine[];
  /** Table rows as written (the delimiter row aside), each placed on its own line when counts match. */
  rows?: { start: number; end: number }[];
  /** Each written table row's page, when the table's rows say (row_prov). */
  rowPages?: number[];
}

interface Rendered {
  text: string;
  placed: Placed[];
  /** A list's items: where each starts and ends in `text`. */
  items?: Span[];
}

const NONE: Rendered = { text: '', placed: [] };

function markKey(run: TextMarks): string {
  return `${run.bold ? 'b' : ''}${run.italic ? 'i' : ''}${run.strike ? 's' : ''}${run.code ? 'c' : ''}${run.superscript ? '^' : ''}${run.subscript ? '_' : ''}|${run.href ?? ''}`;
}

/** Neighbouring text runs with the same marks become one (so "**a** **b**" is "**a b**"). */
function mergeRuns(content: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const run of content) {
    const last = out[out.length - 1];
    if (run.type === 'text' && last?.type === 'text' && markKey(last) === markKey(run)) out[out.length - 1] = { ...last, text: last.text + run.text };
    else if (run.type !== 'text' || run.text) out.push(run);
  }
  return out;
}

function firstChar(run: Inline | undefined): string {
  if (!run) return '';
  if (run.type === 'text') return run.text.charAt(0);
  if (run.type === 'footnote_ref') return '[';
  return run.type === 'math' ? '$' : '\n';
}

function wrapMarks(run: Extract<Inline, { type: 'text' }>, body: string): string {
  // Superscript and subscript stay plain text: the Markdown carries no HTML.
  let out = run.code ? codeSpan(run.text) : body;
  if (run.strike) out = `~~${out}~~`;
  if (run.italic) out = `*${out}*`;
  if (run.bold) out = `**${out}**`;
  const href = safeHref(run.href);
  return href ? `[${out}](${href})` : out;
}

/** Inline runs → one Markdown line (or lines joined by hard breaks when `breaks`). */
export function renderInlines(content: readonly Inline[], options: { breaks: boolean } = { breaks: true }): string {
  // One plain run with nothing to escape (most table cells) is its own Markdown.
  if (content.length === 1) {
    const run = content[0];
    if (run.type === 'text' && !run.bold && !run.italic && !run.strike && !run.code && !run.href && !/[\\`*_~$\]<&]/.test(run.text)) return run.text;
  }
  const runs = mergeRuns(content);
  let out = '';
  runs.forEach((run, i) => {
    const next = firstChar(runs[i + 1]);
    switch (run.type) {
      case 'text': {
        const plain = !run.bold && !run.italic && !run.strike && !run.code && !safeHref(run.href);
        if (plain) {
          out += escapeInline(run.text, next, out.slice(-1));
          break;
        }
        // Spaces at the edges stay outside the marks ("** a**" would not be bold).
        const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(run.text)!;
        if (!m[2]) out += run.text;
        else out += `${m[1]}${wrapMarks({ ...run, text: m[2] }, escapeInline(m[2], m[3] ? ' ' : next))}${m[3]}`;
        break;
      }
      case 'break':
        out += options.breaks ? '  \n' : ' ';
        break;
      case 'math':
        out += `$${run.latex.replace(/\s+/g, ' ').trim()}$`;
        break;
      case 'footnote_ref':
        out += `[^${run.label}]`;
        break;
    }
  });
  return out;
}

/** A paragraph's Markdown: its lines trimmed and kept from starting a block. */
function paragraphText(content: readonly Inline[]): string {
  return renderInlines(content)
    .split('\n')
    .map((line, i, lines) => {
      const trimmed = line.replace(/^\s+/, '');
      const kept = i < lines.length - 1 ? trimmed : trimmed.trimEnd();
      return escapeLineStart(kept);
    })
    .join('\n')
    .trim();
}

/** One line of text: whitespace collapsed (headings, cells, captions). */
function lineText(content: readonly Inline[]): string {
  return renderInlines(content, { breaks: false }).replace(/\s+/g, ' ').trim();
}

function placedFor(block: { prov?: { page?: number; lines?: SourceLine[] } }, page: number | undefined, start: number, end: number): Placed[] {
  const p = block.prov?.page ?? page;
  const lines = block.prov?.lines;
  if (p === undefined || !lines?.length || end <= start) return [];
  return [{ page: p, start, end, lines }];
}

function shift(placed: Placed[], by: number): Placed[] {
  if (by === 0) return placed;
  return placed.map((p) => ({ ...p, start: p.start + by, end: p.end + by, rows: p.rows?.map((r) => ({ start: r.start + by, end: r.end + by })) }));
}

/**
 * Prefixes every line of `r` after the first with `rest` (and the first with `first`); the
 * positions inside move with their lines.
 */
function indent(r: Rendered, first: string, rest: string, blank = ''): Rendered {
  const lines = r.text.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  // How far each line moves: its own prefix and those of the lines before it (a blank line gets `blank`).
  const shifts: number[] = [];
  let shifted = first.length;
  lines.forEach((line, i) => {
    if (i > 0) shifted += line ? rest.length : blank.length;
    shifts.push(shifted);
  });
  const move = (offset: number): number => {
    // Lines starting at or before the offset (a line's end belongs to it).
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return offset + shifts[lo];
  };
  const text = lines.map((line, i) => (i === 0 ? first + line : line ? rest + line : blank)).join('\n');
  const placed = r.placed.map((p) => ({
    ...p,
    start: move(p.start),
    end: move(p.end),
    rows: p.rows?.map((row) => ({ start: move(row.start), end: move(row.end) })),
  }));
  return { text, placed };
}

/** Joins rendered blocks with `separator`, skipping empty ones. */
function join(parts: Rendered[], separator = '\n\n'): Rendered {
  let text = '';
  const placed: Placed[] = [];
  for (const part of parts) {
    if (!part.text) continue;
    if (text) text += separator;
    placed.push(...shift(part.placed, text.length));
    text += part.text;
  }
  return { text, placed };
}

function renderList(list: List, page: number | undefined): Rendered {
  const start = list.start ?? 1;
  const items = list.items.map((item, i): Rendered => {
    let marker = list.ordered ? `${item.number ?? start + i}.` : '-';
    if (item.checked !== undefined) marker += item.checked ? ' [x]' : ' [ ]';
    const label = item.label ? `${escapeInline(item.label)} ` : '';
    const [head, ...rest] = item.content;
    let lead: Rendered = NONE;
    let body = rest;
    if (head?.type === 'paragraph') {
      const text = label + paragraphText(head.content);
      lead = { text, placed: placedFor(item.prov?.lines ? item : head, page, 0, text.length) };
    } else {
      body = item.content;
      if (label) lead = { text: label.trimEnd(), placed: [] };
    }
    // Nested lists follow the item's text directly; other blocks after a blank line.
    const tail = body.map((b) => renderBlock(b, page));
    let content = lead;
    for (let k = 0; k < tail.length; k++) {
      content = join([content, tail[k]], body[k].type === 'list' && (k === 0 || body[k - 1].type === 'list') ? '\n' : '\n\n');
    }
    const width = marker.replace(/ \[.\]$/, '').length + 1;
    const written = indent(content, `${marker}${content.text ? ' ' : ''}`, ' '.repeat(width));
    // The item's own text is placed from its marker on.
    if (lead.placed.length) written.placed[0] = { ...written.placed[0], start: 0 };
    return written;
  });
  const joined = join(items, '\n');
  // Every item's text holds at least its marker, so join keeps them all.
  let at = 0;
  joined.items = items.map((item) => {
    const span: Span = [at, at + item.text.length];
    at += item.text.length + 1;
    return span;
  });
  return joined;
}

function renderTable(table: Table, page: number | undefined): Rendered {
  const grid = tableGrid(table, TABLE_LIMITS);
  if (grid.rows.length === 0 || grid.width === 0) return NONE;
  const line = (cells: (string | null)[]) => `| ${cells.map((c) => c ?? '').join(' | ')} |`;
  const texts = grid.rows.map((row) => line(row.map((cell) => (cell ? escapeCellText(lineText(cell.content)) : null))));
  const caption = table.caption?.length ? escapeLineStart(lineText(table.caption)) : '';
  let text = caption ? `${caption}\n\n` : '';
  const rows: { start: number; end: number }[] = [];
  texts.forEach((t, i) => {
    if (i === 1) text += `|${' --- |'.repeat(grid.width)}\n`;
    rows.push({ start: text.length, end: text.length + t.length });
    text += i < texts.length - 1 ? `${t}\n` : t;
  });
  if (texts.length === 1) text += `\n|${' --- |'.repeat(grid.width)}`;
  const tableStart = rows[0].start;
  const rowPages = table.row_prov?.slice(0, rows.length).map((r) => r.page);
  const placed = placedFor(table, page, tableStart, text.length).map((p) => ({ ...p, rows, ...(rowPages ? { rowPages } : {}) }));
  if (grid.keptRows < grid.totalRows) {
    text += `\n\n*The table is truncated: only its first ${grid.keptRows.toLocaleString('en-US')} of ${grid.totalRows.toLocaleString('en-US')} rows were extracted.*`;
  }
  return { text, placed };
}

function renderBlock(block: Block, page: number | undefined): Rendered {
  switch (block.type) {
    case 'heading': {
      const title = lineText(block.content);
      if (!title) return NONE;
      const text = `${'#'.repeat(block.level)} ${title}`;
      return { text, placed: placedFor(block, page, 0, text.length) };
    }
    case 'paragraph': {
      const text = paragraphText(block.content);
      return { text, placed: placedFor(block, page, 0, text.length) };
    }
    case 'list':
      return renderList(block, page);
    case 'table':
      return renderTable(block, page);
    case 'picture': {
      const alt = block.alt?.replace(/\s+/g, ' ').trim();
      const parts: Rendered[] = [];
      if (alt) {
        const text = `*Image: ${escapeInline(alt)}*`;
        parts.push({ text, placed: placedFor(block, page, 0, text.length) });
      }
      if (block.caption?.length) parts.push({ text: paragraphText(block.caption), placed: [] });
      return join(parts);
    }
    case 'code': {
      const fence = codeFence(block.text);
      const text = `${fence}${block.language ?? ''}\n${block.text.replace(/\n$/, '')}\n${fence}`;
      return { text, placed: placedFor(block, page, 0, text.length) };
    }
    case 'quote': {
      const inner = join(block.content.map((b) => renderBlock(b, page)));
      if (!inner.text) return NONE;
      return indent(inner, '> ', '> ', '>');
    }
    case 'formula': {
      const latex = block.latex.trim();
      if (!latex) return NONE;
      const text = `$$\n${latex}\n$$`;
      return { text, placed: placedFor(block, page, 0, text.length) };
    }
    case 'footnote': {
      const inner = join(block.content.map((b) => renderBlock(b, page)));
      if (!inner.text) return NONE;
      return indent(inner, `[^${block.label}]: `, '    ');
    }
    case 'rule':
      return { text: '---', placed: [] };
    case 'preformatted': {
      const text = escapeHtmlOpeners(block.text.replace(/\s+$/, ''));
      if (!text.trim()) return NONE;
      return { text, placed: placedFor(block, page, 0, text.length) };
    }
    case 'section': {
      const inner = join(block.content.map((b) => renderBlock(b, block.page ?? page)));
      if (block.page === undefined) return inner;
      return join([{ text: `<!-- page ${block.page} -->`, placed: [] }, inner]);
    }
  }
}

/** Text kept as set: only what would open raw HTML is escaped. */
function escapeHtmlOpeners(text: string): string {
  return text.replace(/<(?=[A-Za-z!/?])/g, '\\<');
}

export interface RenderedDocument {
  markdown: string;
  layout: ExtractionLayout;
  /**
   * Where each block at the top level or in a section (and each item of such a list) is in the
   * Markdown; a section's span runs from its page marker (or first block) to its last block.
   * Blocks that write nothing have none.
   */
  spans: Map<Block | ListItem, Span>;
}

/** The blocks at the top level and in sections, rendered one by one: what the Markdown is joined from. */
interface TopPart {
  block: Block;
  rendered: Rendered;
}

function topParts(blocks: readonly Block[], page: number | undefined, out: TopPart[], sections: Array<{ section: Block; from: number; to: number }>): void {
  for (const block of blocks) {
    if (block.type !== 'section') {
      out.push({ block, rendered: renderBlock(block, page) });
      continue;
    }
    const from = out.length;
    if (block.page !== undefined) out.push({ block, rendered: { text: `<!-- page ${block.page} -->`, placed: [] } });
    topParts(block.content, block.page ?? page, out, sections);
    sections.push({ section: block, from, to: out.length });
  }
}

/** The document's Markdown, layout record and block spans. */
export function renderDocument(doc: QuarryDocument): RenderedDocument {
  // Joining the blocks of sections with the blocks around them gives what joining each
  // section's own blocks first would: empty parts are skipped, every other one is separated by
  // a blank line.
  const parts: TopPart[] = [];
  const sections: Array<{ section: Block; from: number; to: number }> = [];
  topParts(doc.blocks, undefined, parts, sections);
  const starts: number[] = [];
  let text = '';
  const placed: Placed[] = [];
  for (const { rendered } of parts) {
    if (!rendered.text) {
      starts.push(-1);
      continue;
    }
    if (text) text += '\n\n';
    starts.push(text.length);
    placed.push(...shift(rendered.placed, text.length));
    text += rendered.text;
  }
  const markdown = text ? `${text}\n` : '';
  const spans = new Map<Block | ListItem, Span>();
  parts.forEach(({ block, rendered }, i) => {
    const start = starts[i];
    if (start < 0 || block.type === 'section') return;
    spans.set(block, [start, start + rendered.text.length]);
    if (block.type === 'list' && rendered.items) {
      block.items.forEach((item, k) => {
        const span = rendered.items![k];
        if (span) spans.set(item, [start + span[0], start + span[1]]);
      });
    }
  });
  for (const { section, from, to } of sections) {
    let first = -1;
    let last = -1;
    for (let i = from; i < to; i++) {
      if (starts[i] < 0) continue;
      if (first < 0) first = i;
      last = i;
    }
    if (first >= 0) spans.set(section, [starts[first], starts[last] + parts[last].rendered.text.length]);
  }
  const layout = new LayoutBuilder();
  for (const p of placed) {
    if (p.rows) placeTable(layout, p, markdown);
    else layout.add(p.page, markdown, p.start, p.end, p.lines);
  }
  return { markdown, layout: layout.build(), spans };
}

/** The document's Markdown alone. */
export function renderMarkdown(doc: QuarryDocument): string {
  return renderDocument(doc).markdown;
}

/**
 * A table's rows are placed on their source lines one by one when there is a line per row;
 * otherwise (cells over several lines, a ruled table) the table is one region.
 */
function placeTable(layout: LayoutBuilder, p: Placed, markdown: string): void {
  const rows = p.rows!.filter((r) => r.end <= markdown.length);
  // A table continued over pages has lines (and rows) on each of its pages: one region per page.
  const pageOf = (line: SourceLine) => line.page ?? p.page;
  const pages = [...new Set(p.lines.map(pageOf))];
  if (rows.length === p.lines.length) {
    for (const pg of pages) layout.addExact(pg, rows.flatMap((r, i) => (pageOf(p.lines[i]) === pg ? [{ ...r, box: p.lines[i].box }] : [])));
    return;
  }
  if (pages.length === 1 || !p.rowPages) {
    layout.addExact(p.page, [{ start: p.start, end: p.end, box: unionBox(p.lines.filter((g) => pageOf(g) === p.page).map((g) => g.box)) }]);
    return;
  }
  for (const pg of pages) {
    const on = rows.map((_, i) => i).filter((i) => (p.rowPages![i] ?? p.page) === pg);
    if (!on.length) continue;
    const start = pg === p.page ? p.start : rows[on[0]].start;
    const end = on[on.length - 1] === rows.length - 1 ? p.end : rows[on[on.length - 1]].end;
    layout.addExact(pg, [{ start, end, box: unionBox(p.lines.filter((g) => pageOf(g) === pg).map((g) => g.box)) }]);
  }
}
