import { safeHref } from '@/lib/document/links';
import type { Block, Inline } from '@/lib/document/types';
import type { ExtractedDocument, ExtractInput } from '../types';
import { parsing } from './common';
import { heading, paragraph, text } from './model';
import { canClose, canOpen, Closers, dedent, indentedBlock, indentOf, isBlank, MAX_NESTING, pushItem, readTextFile, scanInlines, textDocument, type ItemMarker } from './markup';
import { gridTable, isGridBorder, isSimpleBorder, simpleTable } from './rst-tables';

/*
 * reStructuredText → the document model. Section titles become headings (levels in the order
 * their adornment styles first appear); bullet and enumerated lists become lists nested by
 * indentation; literal blocks ("::" and the code directives) code blocks; indented blocks quotes
 * (a definition's term in bold before its indented definition); grid and simple tables tables
 * (tables with spanning cells, as written); footnotes footnote blocks; line blocks paragraphs
 * with their line breaks; doctest blocks code. Inline: ``literals`` and `interpreted text` code
 * spans, **strong**, *emphasis*, `links <url>`_ links, [1]_ footnote references. Directive,
 * target, substitution and comment lines are dropped (an admonition's text and a directive's
 * body are kept, an image's alternative text is a picture).
 */

const ADORNMENT = /^([!-/:-@[-`{-~])\1{2,}\s*$/;
const BULLET = /^([-*+•‣⁃])( +|$)/;
const ENUMERATED = /^(?:(\d{1,9}|#)[.)]|\((\d{1,9}|#)\))( +|$)/;
const CODE_DIRECTIVE = /^\.\.\s+(?:code|code-block|sourcecode)::\s*(\S*)/;
const DIRECTIVE = /^\.\.\s+([\w:-]+)::\s*(.*)$/;
const FOOTNOTE = /^\.\.\s+\[(\d{1,9}|[A-Za-z][\w.-]*)\]\s*(.*)$/;
const OPTION = /^\s*:[\w-]+:/;
const ADMONITIONS = new Set(['admonition', 'attention', 'caution', 'danger', 'error', 'hint', 'important', 'note', 'tip', 'warning', 'topic', 'sidebar', 'rubric', 'epigraph', 'highlights', 'pull-quote']);
const CODE_ROLES = new Set(['code', 'literal', 'samp', 'file', 'command', 'kbd', 'program', 'envvar']);
/** Longest inline markup looked for (bounds the scan on text with unmatched delimiters). */
const MAX_INLINE = 1000;

interface Context {
  /** Adornment styles in the order they appeared (their index is the heading level). */
  styles: string[];
  /** Footnote and citation labels the document defines. */
  labels: Set<string>;
}

/** Whether a `delimiter` at `end` may close markup: after a non-space, before the end, a space or punctuation. */
function closes(source: string, delimiter: string, end: number): boolean {
  if (end === 0 || /\s/.test(source[end - 1]) || source[end - 1] === '\\') return false;
  // A reference's "`" may be followed by "_" or "__" before the text goes on.
  let after = end + delimiter.length;
  if (delimiter === '`') while (source[after] === '_' && after < end + 3) after++;
  return canClose(source, after);
}

function inlines(source: string, ctx: Context): Inline[] {
  const closers = new Closers(source, (delimiter, at) => closes(source, delimiter, at));
  return scanInlines(source, /``|\*\*?|`|:[A-Za-z][\w+.-]*:`|\[[\w.-]+\]_|\\/g, (s, at) => {
    if (s[at] === '\\') return { runs: s[at + 1] && !/\s/.test(s[at + 1]) ? [text(s[at + 1])] : [], length: 2 };
    const note = /^\[([\w.-]+)\]_/.exec(s.slice(at, at + 100));
    if (note) return ctx.labels.has(note[1]) ? { runs: [{ type: 'footnote_ref', label: note[1] }], length: note[0].length } : undefined;
    if (!canOpen(s, at)) return undefined;
    const role = /^:([A-Za-z][\w+.-]*):`/.exec(s.slice(at, at + 100));
    const open = role ? role[0].length : s.startsWith('``', at) ? 2 : s.startsWith('**', at) ? 2 : 1;
    const delimiter = role ? '`' : s.slice(at, at + open);
    const from = at + open;
    if (from >= s.length || /\s/.test(s[from])) return undefined;
    const end = closers.next(delimiter, from + 1, MAX_INLINE);
    if (end < 0) return undefined;
    const inner = s.slice(from, end);
    let length = end + delimiter.length - at;
    if (role) {
      const label = inner.replace(/\s*<[^<>]*>$/, '') || inner;
      return { runs: [text(label, CODE_ROLES.has(role[1]) ? { code: true } : {})], length };
    }
    if (delimiter === '``') return { runs: [text(inner, { code: true })], length };
    if (delimiter === '**') return { runs: [text(inner, { bold: true })], length };
    if (delimiter === '*') return { runs: [text(inner, { italic: true })], length };
    // `text <url>`_ is a link, `name`_ a reference, `text` interpreted text (read as code).
    const suffix = /^_{1,2}/.exec(s.slice(end + 1, end + 3))?.[0] ?? '';
    length += suffix.length;
    if (!suffix) return { runs: [text(inner, { code: true })], length };
    const link = /^([\s\S]*?)\s*<([^<>\s]+)>$/.exec(inner);
    if (!link) return { runs: [text(inner)], length };
    const target = link[2];
    const label = link[1] || target;
    return { runs: [text(label, safeHref(target) ? { href: target } : {})], length };
  });
}

function markerOf(line: string): { marker: ItemMarker; width: number } | undefined {
  const bullet = BULLET.exec(line);
  if (bullet) return { marker: { ordered: false }, width: bullet[0].length };
  const number = ENUMERATED.exec(line);
  if (!number) return undefined;
  const value = number[1] ?? number[2];
  return { marker: { ordered: true, number: value === '#' ? undefined : Number(value) }, width: number[0].length };
}

/** The blocks of lines at one indentation (a document, a list item's or a quote's body). */
function parse(lines: string[], ctx: Context, depth: number, inItem = false): Block[] {
  const out: Block[] = [];
  let para: string[] = [];
  // Paragraph lines are kept without their indentation, which Markdown would not keep either.
  const flush = () => {
    if (para.length) out.push(paragraph(inlines(para.join('\n'), ctx)));
    para = [];
  };
  const nested = (body: string[], item = false): Block[] => (depth < MAX_NESTING ? parse(body, ctx, depth + 1, item) : [paragraph(inlines(body.filter(Boolean).join('\n'), ctx))]);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = lines[i + 1] ?? '';
    if (isBlank(line)) {
      flush();
      continue;
    }
    const indent = indentOf(line);
    const trimmed = line.trim();
    if (indent === 0 && !para.length) {
      // Overlined title: ===== / Title / =====
      if (ADORNMENT.test(line) && lines[i + 2] !== undefined && lines[i + 2].trim() === trimmed && next.trim()) {
        out.push(heading(level(ctx, `over${trimmed[0]}`), inlines(next.trim(), ctx)));
        i += 2;
        continue;
      }
      if (ADORNMENT.test(line) && trimmed.length >= 4 && isBlank(next)) {
        out.push({ type: 'rule' });
        continue;
      }
    }
    if (indent === 0 && !ADORNMENT.test(line) && ADORNMENT.test(next) && next.trim().length >= trimmed.length) {
      flush();
      out.push(heading(level(ctx, next.trim()[0]), inlines(trimmed, ctx)));
      i += 1;
      continue;
    }
    if (indent > 0 && !para.length) {
      // An indented block: a quote.
      const { body, next: after } = indentedBlock(lines, i, 0);
      out.push(depth < MAX_NESTING ? { type: 'quote', content: parse(body, ctx, depth + 1) } : paragraph(inlines(body.filter(Boolean).join('\n'), ctx)));
      i = after - 1;
      continue;
    }
    if (indent > 0 && para.length === 1) {
      // A definition list item: the term, then its indented definition.
      const term = para[0];
      para = [];
      out.push(paragraph(inlines(term.trim(), ctx).map((run) => (run.type === 'text' ? { ...run, bold: true } : run))));
      const { body, next: after } = indentedBlock(lines, i, 0);
      out.push(...nested(body));
      i = after - 1;
      continue;
    }
    if (indent > 0) {
      para.push(line.trimStart());
      continue;
    }
    if (/^\.\.(\s|$)/.test(line)) {
      flush();
      const { body, next: after } = indentedBlock(lines, i + 1, 0);
      i = after - 1;
      out.push(...(depth < MAX_NESTING ? explicit(line, body, ctx, depth) : []));
      continue;
    }
    const item = para.length === 0 || inItem ? markerOf(line) : undefined;
    if (item) {
      flush();
      const { body, next: after } = indentedBlock(lines, i + 1, 0);
      pushItem(out, item.marker, nested([line.slice(item.width), ...body], true));
      i = after - 1;
      continue;
    }
    if (/::\s*$/.test(line)) {
      const { body, next: after } = indentedBlock(lines, i + 1, 0);
      const code = trimBlank(body);
      if (code.length) {
        const kept = line.replace(/::\s*$/, /\s::\s*$/.test(line) ? '' : ':');
        if (kept.trim()) para.push(kept);
        flush();
        out.push({ type: 'code', text: code.join('\n') });
        i = after - 1;
        continue;
      }
    }
    if (!para.length && (isGridBorder(line) || isSimpleBorder(line))) {
      let j = i + 1;
      while (j < lines.length && !isBlank(lines[j]) && (!isGridBorder(line) || /^[+|]/.test(lines[j]))) j++;
      const tableLines = lines.slice(i, j);
      const cells = (value: string) => inlines(value, ctx);
      const table = isGridBorder(line) ? gridTable(tableLines, cells) : simpleTable(tableLines, cells);
      out.push(table ?? { type: 'preformatted', text: tableLines.join('\n') });
      i = j - 1;
      continue;
    }
    if (!para.length && /^\|( |$)/.test(line)) {
      // A line block: its lines as written.
      let j = i;
      const kept: string[] = [];
      while (j < lines.length && /^\|( |$)/.test(lines[j])) kept.push(lines[j++].slice(2));
      out.push(paragraph(inlines(kept.join('\n'), ctx)));
      i = j - 1;
      continue;
    }
    if (!para.length && line.startsWith('>>>')) {
      let j = i;
      while (j < lines.length && !isBlank(lines[j])) j++;
      out.push({ type: 'code', text: lines.slice(i, j).join('\n'), language: 'python' });
      i = j - 1;
      continue;
    }
    para.push(line.trimStart());
  }
  flush();
  return out;
}

function level(ctx: Context, style: string): number {
  if (!ctx.styles.includes(style)) ctx.styles.push(style);
  return Math.min(ctx.styles.indexOf(style) + 1, 6);
}

function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && isBlank(lines[start])) start++;
  while (end > start && isBlank(lines[end - 1])) end--;
  return lines.slice(start, end);
}

/** Explicit markup (a line starting ".. ") with its indented body. */
function explicit(line: string, body: string[], ctx: Context, depth: number): Block[] {
  const code = CODE_DIRECTIVE.exec(line);
  if (code) {
    // The directive's options come first, right under it.
    let start = 0;
    while (start < body.length && OPTION.test(body[start])) start++;
    const kept = trimBlank(dedent(body.slice(start)));
    return kept.length ? [{ type: 'code', text: kept.join('\n'), ...(code[1] ? { language: code[1] } : {}) }] : [];
  }
  const footnote = FOOTNOTE.exec(line);
  if (footnote) {
    const content = parse([footnote[2], ...body], ctx, depth + 1);
    return content.length ? [{ type: 'footnote', label: footnote[1], content }] : [];
  }
  const directive = DIRECTIVE.exec(line);
  if (!directive) return []; // a comment, a hyperlink target or a substitution
  const name = directive[1].toLowerCase();
  const options = body.filter((l) => OPTION.test(l));
  const content = body.filter((l) => !OPTION.test(l));
  if (name === 'image' || name === 'figure') {
    const alt = options.map((o) => /^\s*:alt:\s*(.*)$/.exec(o)?.[1]).find(Boolean);
    const caption = parse(dedent(content), ctx, depth + 1).find((b) => b.type === 'paragraph');
    const picture: Block = { type: 'picture' };
    if (alt) picture.alt = alt;
    if (name === 'figure' && caption?.type === 'paragraph') picture.caption = caption.content;
    return picture.alt || picture.caption ? [picture] : [];
  }
  const argument = ADMONITIONS.has(name) && directive[2].trim() ? [directive[2].trim(), ''] : [];
  return parse([...argument, ...dedent(content)], ctx, depth + 1);
}

export async function readRst(input: ExtractInput): Promise<ExtractedDocument> {
  const lines = (await readTextFile(input)).split('\n');
  const labels = new Set<string>();
  for (const line of lines) {
    const footnote = FOOTNOTE.exec(line);
    if (footnote) labels.add(footnote[1]);
  }
  const blocks = await parsing('text', () => parse(lines, { styles: [], labels }, 0));
  return textDocument(input, blocks);
}
