import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { compactMetadata, corrupt, isoDate, type OfficeFormat } from './common';
import type { DocumentMetadata } from '../types';
import type { OfficeZip } from './zip';

/**
 * An XML element, children in document order. Element names lose their namespace prefix
 * ("a:t" → "t"). Attributes keep their qualified name ("r:id") and are also reachable by local
 * name ("val" for "m:val") unless an unprefixed attribute already has that name (sldId has both
 * "id" and "r:id").
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Office XML never declares entities; a DTD is refused before parsing anyway.
  processEntities: true,
  htmlEntities: false,
  maxNestedTags: 512,
});

type Ordered = Record<string, unknown>;

function convert(items: Ordered[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const item of items) {
    for (const key of Object.keys(item)) {
      if (key === ':@') continue;
      const value = item[key];
      if (key === '#text') {
        out.push(String(value));
        continue;
      }
      if (key.startsWith('?') || key.startsWith('!')) continue;
      const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
      const raw = item[':@'] as Record<string, unknown> | undefined;
      if (raw) {
        const entries = Object.entries(raw).filter(([name]) => name !== 'xmlns' && !name.startsWith('xmlns:'));
        for (const [name, v] of entries) attrs[name] = String(v);
        for (const [name, v] of entries) {
          const local = name.slice(name.indexOf(':') + 1);
          if (local !== name && !(local in attrs)) attrs[local] = String(v);
        }
      }
      const name = key.slice(key.indexOf(':') + 1);
      out.push({ name, attrs, children: Array.isArray(value) ? convert(value as Ordered[]) : [] });
    }
  }
  return out;
}

/**
 * Parses one XML part: validated first (fast-xml-parser alone is lenient with broken XML), DTDs
 * refused (Office parts never have one; it is the vehicle of entity-expansion bombs).
 */
export function parseXml(xml: string, format: OfficeFormat, part: string): XmlElement {
  if (xml.includes('<!DOCTYPE') || xml.includes('<!ENTITY')) {
    throw corrupt(`The ${format} file is not valid: the part ${part} declares a DTD`);
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw corrupt(`The ${format} file is damaged: the part ${part} is not well-formed XML (${valid.err.msg}, line ${valid.err.line})`);
  }
  let nodes: XmlNode[];
  try {
    nodes = convert(parser.parse(xml) as Ordered[]);
  } catch (err) {
    throw corrupt(`The ${format} file is damaged: the part ${part} could not be parsed (${err instanceof Error ? err.message : 'error'})`);
  }
  const root = nodes.find((n): n is XmlElement => typeof n !== 'string');
  if (!root) throw corrupt(`The ${format} file is damaged: the part ${part} has no XML root element`);
  return root;
}

/** Reads and parses a part; undefined when the archive does not have it. */
export function readXmlPart(zip: OfficeZip, part: string): XmlElement | undefined {
  const text = zip.text(part);
  return text === undefined ? undefined : parseXml(text, zip.format, part);
}

export function childElements(el: XmlElement, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of el.children) if (typeof child !== 'string' && (name === undefined || child.name === name)) out.push(child);
  return out;
}

export function firstChild(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const child of el.children) if (typeof child !== 'string' && child.name === name) return child;
  return undefined;
}

/** Follows a path of child names: path(sp, 'nvSpPr', 'nvPr', 'ph'). */
export function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let current = el;
  for (const name of names) current = firstChild(current, name);
  return current;
}

/** Every descendant element named `name` (depth-first, document order), not descending into matches. */
export function findAll(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const child of el.children) {
    if (typeof child === 'string') continue;
    if (child.name === name) out.push(child);
    else findAll(child, name, out);
  }
  return out;
}

/** Concatenated text content. */
export function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  let out = '';
  for (const child of el.children) out += typeof child === 'string' ? child : textOf(child);
  return out;
}

/** Relationship id → target for a .rels part. */
export function readRelationships(zip: OfficeZip, relsPart: string): Map<string, { target: string; type: string; external: boolean }> {
  const map = new Map<string, { target: string; type: string; external: boolean }>();
  const root = readXmlPart(zip, relsPart);
  if (!root) return map;
  for (const rel of childElements(root, 'Relationship')) {
    if (!rel.attrs.Id || !rel.attrs.Target) continue;
    map.set(rel.attrs.Id, { target: rel.attrs.Target, type: rel.attrs.Type ?? '', external: rel.attrs.TargetMode === 'External' });
  }
  return map;
}

/** title / author / created_date from docProps/core.xml (Dublin Core), when present. */
export function readCoreProperties(zip: OfficeZip): DocumentMetadata {
  const root = readXmlPart(zip, 'docProps/core.xml');
  if (!root) return {};
  const text = (name: string) => {
    const el = firstChild(root, name);
    return el ? textOf(el).trim() : undefined;
  };
  return compactMetadata({
    title: text('title'),
    author: text('creator'),
    created_date: isoDate(text('created')),
    subject: text('subject'),
    keywords: text('keywords'),
    last_modified_by: text('lastModifiedBy'),
    modified_date: isoDate(text('modified')),
  });
}

/** An integer from docProps/app.xml (Pages, Slides…), when present and sane. */
export function readAppCount(zip: OfficeZip, name: string): number | undefined {
  const root = readXmlPart(zip, 'docProps/app.xml');
  const value = Number(textOf(firstChild(root, name)).trim());
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
