import type { Block, Inline, TableCell } from '@/lib/document/types';
import type { ExtractedDocument, ExtractInput } from '../types';
import { parsing } from './common';
import { heading, paragraph, text } from './model';
import { readTextFile, textDocument } from './markup';
import { childElements, parseXml, textOf, type XmlElement } from './xml';

/*
 * Data formats read into the document model, as text that searches well with its structure
 * (reStructuredText and Org are read in rst.ts and org.ts):
 *
 * - XML: text content without tags. Runs of two or more sibling elements of one name whose
 *   children are all text-only ("records": <country><name>…</name><capital>…</capital>…) become a
 *   table with a column per child name; other text-only elements become paragraphs (long text)
 *   or "**name:** value" lines (short values, whose element name says what they are).
 * - JSON: an array of flat objects becomes a table; an object becomes "**key:** value" lines,
 *   nested objects and arrays headings by key; arrays of values lists. Text that is not valid JSON
 *   (JSON Lines, say) is kept as a code block rather than refused.
 */

const cell = (value: string): TableCell => ({ content: value ? [text(value)] : [] });

/** A "**label:** value" line. */
function labelled(label: string, value: string): Inline[] {
  return [text(`${label}:`, { bold: true }), text(` ${value}`)];
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

function recordsTable(records: XmlElement[]): Block {
  const columns: string[] = [];
  for (const record of records) {
    for (const name of Object.keys(record.attrs)) if (!columns.includes(`@${name}`)) columns.push(`@${name}`);
    for (const child of childElements(record)) if (!columns.includes(child.name)) columns.push(child.name);
  }
  const rows = records.map((record) =>
    columns.map((column) => {
      if (column.startsWith('@')) return cell(collapse(record.attrs[column.slice(1)] ?? ''));
      return cell(collapse(childElements(record, column).map(textOf).join('; ')));
    }),
  );
  return { type: 'table', rows: [columns.map(cell), ...rows], header_rows: 1 };
}

function readXmlElement(el: XmlElement, out: Block[]): void {
  const hasText = el.children.some((c) => typeof c === 'string' && c.trim());
  if (isLeaf(el) || hasText) {
    // Mixed content (<p>text <b>bold</b> more</p>) is read as one paragraph.
    const value = collapse(textOf(el));
    const mixed = hasText && !isLeaf(el);
    if (value) out.push(paragraph(mixed || value.length > 80 ? value : labelled(el.name, value)));
    return;
  }
  const children = childElements(el);
  for (let i = 0; i < children.length; ) {
    let j = i + 1;
    while (j < children.length && children[j].name === children[i].name) j++;
    const run = children.slice(i, j);
    if (run.length >= 2 && run.every(isRecord)) out.push(recordsTable(run));
    else for (const child of run) readXmlElement(child, out);
    i = j;
  }
}

export async function readXml(input: ExtractInput): Promise<ExtractedDocument> {
  // A DOCTYPE may declare entities (the vehicle of expansion bombs): it is dropped, and any
  // entity it declared stays as written.
  const xml = (await readTextFile(input)).replace(/<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>/gi, '');
  const root = await parsing('XML', () => parseXml(xml, 'XML', 'document'));
  const out: Block[] = [];
  await parsing('XML', () => readXmlElement(root, out));
  return textDocument(input, out);
}

// --- JSON ------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isPrimitive = (value: Json): value is null | boolean | number | string => value === null || typeof value !== 'object';
const scalar = (value: null | boolean | number | string) => (value === null ? 'null' : String(value));

function isFlatObject(value: Json): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(isPrimitive);
}

function readJsonValue(value: Json, depth: number, out: Block[]): void {
  if (isPrimitive(value)) {
    out.push(paragraph(scalar(value)));
    return;
  }
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isFlatObject)) {
      const columns = [...new Set(value.flatMap((row) => Object.keys(row)))];
      const rows = value.map((row) => columns.map((c) => cell(row[c] === undefined ? '' : scalar(row[c] as null | string))));
      out.push({ type: 'table', rows: [columns.map(cell), ...rows], header_rows: 1 });
    } else if (value.every(isPrimitive)) {
      if (value.length) out.push({ type: 'list', ordered: false, items: value.map((v) => ({ content: [paragraph(scalar(v))] })) });
    } else {
      value.forEach((item) => readJsonValue(item, depth, out));
    }
    return;
  }
  // Neighbouring "key: value" lines are one paragraph, a line each.
  let lines: Inline[] = [];
  const flush = () => {
    if (lines.length) out.push(paragraph(lines));
    lines = [];
  };
  for (const [key, item] of Object.entries(value)) {
    if (isPrimitive(item)) {
      if (lines.length) lines.push({ type: 'break' });
      lines.push(...labelled(key, scalar(item)));
      continue;
    }
    flush();
    out.push(heading(depth + 1, key));
    readJsonValue(item, depth + 1, out);
  }
  flush();
}

export async function readJson(input: ExtractInput): Promise<ExtractedDocument> {
  const source = await readTextFile(input);
  let value: Json;
  try {
    value = JSON.parse(source) as Json;
  } catch {
    return textDocument(input, [{ type: 'code', text: source.replace(/\n+$/, ''), language: 'json' }]);
  }
  const out: Block[] = [];
  await parsing('JSON', () => readJsonValue(value, 0, out));
  return textDocument(input, out);
}
