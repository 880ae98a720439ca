import { throwIfAborted, type ExtractInput, type ExtractResult } from '../types';
import { decodeUtf8Text, finishMarkdown, parsing, readInputFile } from './common';
import { escapeCell, escapeText, renderTable } from './markdown';
import { childElements, parseXml, textOf, type XmlElement } from './xml';

/*
 * Plain-text markup and data formats. The aim is text that searches well, with its structure:
 *
 * - reStructuredText / Org: headings become Markdown headings (RST levels in the order their
 *   underline styles first appear, Org by the number of stars), code blocks become fenced blocks,
 *   inline literals become code spans, Org links Markdown links; RST directive, target and
 *   comment lines and Org keyword lines are dropped (a directive's body is kept); everything
 *   else is kept as written. Org's #+TITLE is the title.
 * - XML: text content without tags. Runs of two or more sibling elements of one name whose
 *   children are all text-only ("records": <country><name>…</name><capital>…</capital>…) become a
 *   GFM table with a column per child name; other text-only elements become paragraphs (long
 *   text) or "**name:** value" lines (short values, whose element name says what they are).
 * - JSON: an array of flat objects becomes a table; an object becomes "**key:** value" lines,
 *   nested objects and arrays headings by key; arrays of values lists. Text that is not valid JSON
 *   (JSON Lines, say) is kept as a code block rather than refused.
 */

function textResult(input: ExtractInput, markdown: string, metadata: ExtractResult['metadata'] = {}): ExtractResult {
  input.onProgress(1, 1);
  return { markdown: finishMarkdown(markdown), totalPages: 1, metadata };
}

async function readText(input: ExtractInput): Promise<string> {
  throwIfAborted(input.signal);
  return decodeUtf8Text(await readInputFile(input), 'text');
}

function fence(code: string, language = ''): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${language}\n${code.replace(/\n+$/, '')}\n${marks}`;
}

/** Lines without their common leading whitespace (a loop: a spread of a huge block would overflow). */
function dedent(lines: string[]): string[] {
  let indent = Infinity;
  for (const line of lines) if (line.trim()) indent = Math.min(indent, /^\s*/.exec(line)![0].length);
  return Number.isFinite(indent) ? lines.map((l) => l.slice(indent)) : lines;
}

const RST_ADORNMENT = /^([!-/:-@[-`{-~])\1{2,}\s*$/;

export async function extractRst(input: ExtractInput): Promise<ExtractResult> {
  const lines = (await readText(input)).split('\n');
  const styles: string[] = [];
  const out: string[] = [];
  const level = (style: string) => {
    if (!styles.includes(style)) styles.push(style);
    return Math.min(styles.indexOf(style) + 1, 6);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = lines[i + 1] ?? '';
    const title = line.trim();
    // Overlined title: ===== / Title / =====
    if (RST_ADORNMENT.test(line) && lines[i + 2] !== undefined && lines[i + 2].trim() === line.trim() && next.trim()) {
      out.push(`${'#'.repeat(level(`over${line.trim()[0]}`))} ${next.trim()}`);
      i += 2;
      continue;
    }
    if (title && !/^\s/.test(line) && RST_ADORNMENT.test(next) && next.trim().length >= title.length) {
      out.push(`${'#'.repeat(level(next.trim()[0]))} ${title}`);
      i += 1;
      continue;
    }
    // Other explicit markup (directives, link targets, substitutions, comments): the marker line
    // goes; a directive's indented body (a note, a warning) stays as text, its options do not.
    if (/^\.\.(\s|$)/.test(line) && !/^\.\.\s+(?:code|code-block|sourcecode)::/.test(line)) {
      let j = i + 1;
      const body: string[] = [];
      while (j < lines.length && (lines[j].trim() === '' || /^\s/.test(lines[j]))) body.push(lines[j++]);
      if (/^\.\.\s+[\w:-]+::/.test(line)) out.push(...body.filter((l) => !/^\s*:[\w-]+:/.test(l)).map((l) => l.trim()));
      i = j - 1;
      continue;
    }
    // ".. code:: lang" or a paragraph ending in "::": the indented block that follows is code.
    const directive = /^\.\.\s+(?:code|code-block|sourcecode)::\s*(\S*)/.exec(line);
    if (directive || (/::\s*$/.test(line) && !/^\.\./.test(line))) {
      if (!directive) out.push(line.replace(/::\s*$/, /\s::\s*$/.test(line) ? '' : ':'));
      const block: string[] = [];
      let j = i + 1;
      while (j < lines.length && (lines[j].trim() === '' || /^\s/.test(lines[j]))) block.push(lines[j++]);
      while (block.length && block[block.length - 1].trim() === '') block.pop();
      const body = block.filter((l, k) => k > 0 || l.trim() !== '');
      if (body.length) {
        out.push('', fence(dedent(body).join('\n'), directive?.[1] ?? ''), '');
        i = j - 1;
        continue;
      }
    }
    out.push(line.replace(/``([^`]+)``/g, '`$1`'));
  }
  return textResult(input, out.join('\n'));
}

export async function extractOrg(input: ExtractInput): Promise<ExtractResult> {
  const lines = (await readText(input)).split('\n');
  const out: string[] = [];
  let title: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heading = /^(\*+)\s+(.*)$/.exec(line);
    if (heading) {
      out.push(`${'#'.repeat(Math.min(heading[1].length, 6))} ${heading[2].replace(/\s+:[\w@#%:]+:\s*$/, '').trim()}`);
      continue;
    }
    const begin = /^\s*#\+begin_(src|example)\b\s*(\S*)/i.exec(line);
    if (begin) {
      const block: string[] = [];
      let j = i + 1;
      while (j < lines.length && !/^\s*#\+end_(src|example)\b/i.test(lines[j])) block.push(lines[j++]);
      const dedented = dedent(block).join('\n').replace(/^\n+/, '');
      out.push(fence(dedented, begin[1].toLowerCase() === 'src' ? begin[2] : ''));
      i = j;
      continue;
    }
    const keyword = /^\s*#\+(\w+):\s*(.*)$/.exec(line);
    if (keyword) {
      if (keyword[1].toLowerCase() === 'title') title ??= keyword[2].trim();
      continue;
    }
    if (/^\s*#\+(begin|end)_\w+/i.test(line) || /^\s*#(\s|$)/.test(line)) continue;
    out.push(
      line
        .replace(/(^|[\s(])[~=]([^\s~=][^~=]*?)[~=](?=[\s.,;:!?)]|$)/g, '$1`$2`')
        .replace(/\[\[([^\]]+)\]\[([^\]]+)\]\]/g, '[$2]($1)')
        .replace(/\[\[([^\]]+)\]\]/g, '$1'),
    );
  }
  return textResult(input, (title ? `# ${title}\n\n` : '') + out.join('\n'), title ? { title } : {});
}

// --- XML -------------------------------------------------------------------------------------

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function isLeaf(el: XmlElement): boolean {
  return childElements(el).length === 0;
}

function isRecord(el: XmlElement): boolean {
  const children = childElements(el);
  return children.length > 0 && children.every(isLeaf) && el.children.every((c) => typeof c !== 'string' || !c.trim());
}

function renderRecords(records: XmlElement[]): string {
  const columns: string[] = [];
  for (const record of records) {
    for (const name of Object.keys(record.attrs)) if (!columns.includes(`@${name}`)) columns.push(`@${name}`);
    for (const child of childElements(record)) if (!columns.includes(child.name)) columns.push(child.name);
  }
  const rows = records.map((record) =>
    columns.map((column) => {
      if (column.startsWith('@')) return escapeCell(record.attrs[column.slice(1)] ?? '');
      return escapeCell(childElements(record, column).map(textOf).join('; '));
    }),
  );
  return renderTable([columns.map(escapeCell), ...rows]);
}

function renderXmlElement(el: XmlElement, out: string[]): void {
  const hasText = el.children.some((c) => typeof c === 'string' && c.trim());
  if (isLeaf(el) || hasText) {
    // Mixed content (<p>text <b>bold</b> more</p>) is read as one paragraph.
    const text = collapse(textOf(el));
    const mixed = hasText && !isLeaf(el);
    if (text) out.push(mixed || text.length > 80 ? escapeText(text) : `**${escapeText(el.name)}:** ${escapeText(text)}`);
    return;
  }
  const children = childElements(el);
  for (let i = 0; i < children.length; ) {
    let j = i + 1;
    while (j < children.length && children[j].name === children[i].name) j++;
    const run = children.slice(i, j);
    if (run.length >= 2 && run.every(isRecord)) out.push(renderRecords(run));
    else for (const child of run) renderXmlElement(child, out);
    i = j;
  }
}

export async function extractXml(input: ExtractInput): Promise<ExtractResult> {
  // A DOCTYPE may declare entities (the vehicle of expansion bombs): it is dropped, and any
  // entity it declared stays as written.
  const xml = (await readText(input)).replace(/<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>/gi, '');
  const root = await parsing('XML', () => parseXml(xml, 'XML', 'document'));
  const out: string[] = [];
  await parsing('XML', () => renderXmlElement(root, out));
  return textResult(input, out.join('\n\n'));
}

// --- JSON ------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isPrimitive = (value: Json): value is null | boolean | number | string => value === null || typeof value !== 'object';
const scalar = (value: null | boolean | number | string) => (value === null ? 'null' : String(value));

function isFlatObject(value: Json): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(isPrimitive);
}

function renderJson(value: Json, depth: number, out: string[]): void {
  if (isPrimitive(value)) {
    out.push(escapeText(scalar(value)));
    return;
  }
  const heading = (key: string) => out.push(`${'#'.repeat(Math.min(depth + 1, 6))} ${escapeText(key)}`);
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isFlatObject)) {
      const columns = [...new Set(value.flatMap((row) => Object.keys(row)))];
      const rows = value.map((row) => columns.map((c) => escapeCell(row[c] === undefined ? '' : scalar(row[c] as null | string))));
      out.push(renderTable([columns.map(escapeCell), ...rows]));
    } else if (value.every(isPrimitive)) {
      out.push(value.map((v) => `- ${escapeText(scalar(v))}`).join('\n'));
    } else {
      value.forEach((item) => renderJson(item, depth, out));
    }
    return;
  }
  const lines: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (isPrimitive(item)) {
      lines.push(`**${escapeText(key)}:** ${escapeText(scalar(item))}`);
      continue;
    }
    if (lines.length) out.push(lines.splice(0).join('  \n'));
    heading(key);
    renderJson(item, depth + 1, out);
  }
  if (lines.length) out.push(lines.join('  \n'));
}

export async function extractJson(input: ExtractInput): Promise<ExtractResult> {
  const text = await readText(input);
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return textResult(input, fence(text, 'json'));
  }
  const out: string[] = [];
  await parsing('JSON', () => renderJson(value, 0, out));
  return textResult(input, out.join('\n\n'));
}
