import { safeHref } from '@/lib/document/links';
import type { Block, Inline, Table, TableCell, TextMarks } from '@/lib/document/types';
import type { ExtractedDocument, ExtractInput } from '../types';
import { parsing } from './common';
import { heading, paragraph, text } from './model';
import { canClose, canOpen, Closers, dedent, indentedBlock, indentOf, isBlank, MAX_NESTING, pushItem, readTextFile, scanInlines, textDocument, type ItemMarker } from './markup';

/*
 * Org → the document model. Headlines become headings by their number of stars (tags dropped);
 * plain lists ("-", "+", indented "*", "1." / "1)", checkboxes) lists nested by indentation;
 * #+BEGIN_SRC / #+BEGIN_EXAMPLE blocks and ": " lines code blocks; #+BEGIN_QUOTE quotes; tables
 * (rows before the first rule are the header) tables; "-----" a rule. Inline: *bold*, /italic/,
 * +strike+, =verbatim= and ~code~ code spans, [[target][description]] and [[target]] links.
 * Keyword lines (#+TITLE: …, the first of which is the title) and comment lines are dropped, and
 * so are the begin / end lines of other blocks (their text is kept).
 */

const HEADLINE = /^(\*+)\s+(.*)$/;
const ITEM = /^([-+]|\s+\*|\d{1,9}[.)])(\s+|$)/;
/** Inside a list item (dedented) a "*" at the start is a bullet, not a headline. */
const NESTED_ITEM = /^([-+*]|\d{1,9}[.)])(\s+|$)/;
const KEYWORD = /^\s*#\+(\w+):\s*(.*)$/;
const BLOCK_BEGIN = /^\s*#\+begin_(\w+)\b\s*(\S*)/i;
const TABLE_RULE = /^\s*\|[-+]+\|?\s*$/;
/** Org's emphasis borders: what may stand before an opening marker and after a closing one. */
const PRE = /[\s\-('"{]/;
const POST = /[\s\-.,:!?;'")}\[]/;
/** Longest emphasis looked for (bounds the scan on text with unmatched markers). */
const MAX_INLINE = 1000;

const MARKS: Record<string, TextMarks> = { '*': { bold: true }, '/': { italic: true }, '+': { strike: true }, '=': { code: true }, '~': { code: true }, _: {} };

function link(target: string, description: string | undefined): Inline {
  const label = description ?? target;
  return text(label, safeHref(target) ? { href: target } : {});
}

function inlines(source: string): Inline[] {
  // A closing marker follows a non-space and comes before the end, a space or punctuation.
  const closers = new Closers(source, (_marker, at) => at > 0 && !/\s/.test(source[at - 1]) && canClose(source, at + 1, POST));
  return scanInlines(source, /\[\[|[*/+=~_]/g, (s, at) => {
    if (s.startsWith('[[', at)) {
      const m = /^\[\[([^\][]{1,2000})\](?:\[([^\][]{1,2000})\])?\]/.exec(s.slice(at, at + 4010));
      return m ? { runs: [link(m[1], m[2])], length: m[0].length } : undefined;
    }
    const marker = s[at];
    if (!canOpen(s, at, PRE) || !s[at + 1] || /\s/.test(s[at + 1])) return undefined;
    const end = closers.next(marker, at + 2, MAX_INLINE);
    return end < 0 ? undefined : { runs: [text(s.slice(at + 1, end), MARKS[marker])], length: end + 1 - at };
  });
}

function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split('|').map((c) => c.trim());
}

function table(lines: string[]): Table | undefined {
  const rows: TableCell[][] = [];
  let headerRows = 0;
  for (const line of lines) {
    if (TABLE_RULE.test(line)) {
      if (!headerRows && rows.length) headerRows = rows.length;
      continue;
    }
    rows.push(splitRow(line).map((cell) => ({ content: cell ? inlines(cell) : [] })));
  }
  // A rule under the last row only is no header.
  if (headerRows === rows.length) headerRows = 0;
  return rows.length ? { type: 'table', rows, header_rows: headerRows } : undefined;
}

interface Context {
  title?: string;
}

function markerOf(line: string, nested: boolean): { marker: ItemMarker; rest: string } | undefined {
  const m = (nested ? NESTED_ITEM : ITEM).exec(line);
  if (!m) return undefined;
  const bullet = m[1].trim();
  let rest = line.slice(m[0].length);
  const marker: ItemMarker = /^\d/.test(bullet) ? { ordered: true, number: Number.parseInt(bullet, 10) } : { ordered: false };
  const box = /^\[([ xX-])\]\s+/.exec(rest);
  if (box) {
    marker.checked = box[1] !== ' ';
    rest = rest.slice(box[0].length);
  }
  return { marker, rest };
}

function parse(lines: string[], ctx: Context, depth: number): Block[] {
  const out: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(paragraph(inlines(para.join('\n'))));
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line)) {
      flush();
      continue;
    }
    const headline = depth === 0 ? HEADLINE.exec(line) : null;
    if (headline) {
      flush();
      out.push(heading(headline[1].length, inlines(headline[2].replace(/\s+:[\w@#%:]+:\s*$/, '').trim())));
      continue;
    }
    const begin = BLOCK_BEGIN.exec(line);
    if (begin) {
      flush();
      const kind = begin[1].toLowerCase();
      const end = new RegExp(`^\\s*#\\+end_${kind}\\b`, 'i');
      let j = i + 1;
      while (j < lines.length && !end.test(lines[j])) j++;
      const body = lines.slice(i + 1, j);
      i = j;
      if (kind === 'src' || kind === 'example') {
        const code = dedent(body).join('\n').replace(/^\n+/, '').replace(/\n+$/, '');
        out.push({ type: 'code', text: code, ...(kind === 'src' && begin[2] ? { language: begin[2] } : {}) });
      } else if (kind === 'quote' && depth < MAX_NESTING) out.push({ type: 'quote', content: parse(dedent(body), ctx, depth + 1) });
      else out.push(...parse(dedent(body), ctx, Math.min(depth + 1, MAX_NESTING)));
      continue;
    }
    const keyword = KEYWORD.exec(line);
    if (keyword) {
      flush();
      if (keyword[1].toLowerCase() === 'title') ctx.title ??= keyword[2].trim();
      continue;
    }
    if (/^\s*#\+(begin|end)_\w+/i.test(line) || /^\s*#(\s|$)/.test(line)) {
      flush();
      continue;
    }
    const item = markerOf(line, depth > 0);
    if (item) {
      flush();
      const indent = indentOf(line);
      const { body, next } = indentedBlock(lines, i + 1, indent);
      const content = depth < MAX_NESTING ? parse([item.rest, ...body], ctx, depth + 1) : [paragraph(inlines([item.rest, ...body].join('\n')))];
      pushItem(out, item.marker, content);
      i = next - 1;
      continue;
    }
    if (/^\s*\|/.test(line)) {
      flush();
      let j = i;
      while (j < lines.length && /^\s*\|/.test(lines[j])) j++;
      const found = table(lines.slice(i, j));
      if (found) out.push(found);
      i = j - 1;
      continue;
    }
    if (/^\s*:( |$)/.test(line)) {
      flush();
      let j = i;
      while (j < lines.length && /^\s*:( |$)/.test(lines[j])) j++;
      out.push({ type: 'code', text: lines.slice(i, j).map((l) => l.replace(/^\s*: ?/, '')).join('\n') });
      i = j - 1;
      continue;
    }
    if (/^\s*-{5,}\s*$/.test(line)) {
      flush();
      out.push({ type: 'rule' });
      continue;
    }
    para.push(line.trimStart());
  }
  flush();
  return out;
}

export async function readOrg(input: ExtractInput): Promise<ExtractedDocument> {
  const lines = (await readTextFile(input)).split('\n');
  const ctx: Context = {};
  const blocks = await parsing('text', () => parse(lines, ctx, 0));
  if (ctx.title) blocks.unshift(heading(1, ctx.title));
  return textDocument(input, blocks, ctx.title ? { title: ctx.title } : {});
}
