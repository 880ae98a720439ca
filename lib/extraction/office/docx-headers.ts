import { namespacePrefix, wordPrefix } from './docx-rewrite';
import { readRelationships } from './xml';
import { relsPathOf, resolvePartPath, type OfficeZip } from './zip';

/*
 * Headers and footers of a DOCX, gathered into one synthetic main document that mammoth converts
 * like the body. Word repeats them on every page; here each distinct one appears once, in a final
 * "Headers and footers" section of the document, so that their text (a running title, a document
 * number, a classification, an address) can be searched and cited without repeating on every page.
 *
 * - Parts come from the w:headerReference / w:footerReference of every section (headers first,
 *   then footers, in document order); first-page, even-page and default variants with the same
 *   text appear once, and empty ones not at all.
 * - Page-number fields (PAGE, NUMPAGES, SECTIONPAGES, SECTION) mean nothing outside a page and
 *   are dropped, and a part left with only "Page … of …" is dropped too, as are paragraphs
 *   without a letter or digit (underscore rules).
 * - Relationship ids are renamed per part (each part has its own relationships) and merged into
 *   one relationships part for the synthetic document.
 */

const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PAGE_FIELDS = new Set(['PAGE', 'NUMPAGES', 'SECTIONPAGES', 'SECTION']);
const PAGE_ONLY = /^\s*(?:page|pg\.?|p\.|seite|página|pagina|страница)?\s*(?:of|von|de|di|из|\/)?\s*$/i;

export interface HeaderFooterPart {
  /** Inner XML of the w:hdr / w:ftr root. */
  content: string;
  /** xmlns declarations of the part's root. */
  declarations: Map<string, string>;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** Blanks the results of page-number fields (simple and complex fields, nested ones too). */
export function dropPageFields(xml: string, w: string): string {
  // Simple fields: found and skipped one by one (linear, also on unclosed hostile markup).
  const simple = new RegExp(`<${w}fldSimple\\s[^>]*?${w}instr="\\s*([A-Za-z]*)[^"]*"[^>]*?(/?)>`, 'g');
  const parts: string[] = [];
  let last = 0;
  for (let m = simple.exec(xml); m; m = simple.exec(xml)) {
    const closeTag = `</${w}fldSimple>`;
    const close = m[2] ? simple.lastIndex : xml.indexOf(closeTag, simple.lastIndex);
    if (close < 0) break;
    const end = m[2] ? close : close + closeTag.length;
    if (PAGE_FIELDS.has(m[1].toUpperCase())) {
      parts.push(xml.slice(last, m.index));
      last = end;
    }
    simple.lastIndex = end;
  }
  parts.push(xml.slice(last));
  const withoutSimple = parts.join('');
  const tokens = new RegExp(
    `<${w}fldChar\\s[^>]*?${w}fldCharType="(begin|separate|end)"[^>]*>|<${w}instrText(?:\\s[^>]*)?>([^<]*)</${w}instrText>|<${w}t(?:\\s[^>]*)?>[^<]*</${w}t>`,
    'g',
  );
  const stack: { instr: string; result: boolean }[] = [];
  return withoutSimple.replace(tokens, (token, type: string | undefined, instr: string | undefined) => {
    if (type === 'begin') stack.push({ instr: '', result: false });
    else if (type === 'separate') {
      if (stack.length) stack[stack.length - 1].result = true;
    } else if (type === 'end') stack.pop();
    else if (instr !== undefined) {
      if (stack.length) stack[stack.length - 1].instr += instr;
    } else if (stack.some((f) => f.result && PAGE_FIELDS.has(f.instr.trim().split(/\s+/)[0]?.toUpperCase() ?? ''))) {
      return '';
    }
    return token;
  });
}

/**
 * Drops paragraphs without a letter or digit (rules of underscores, separators): drawn lines of
 * a running header, not text. Paragraphs holding a drawing, a field or a text box are kept.
 */
function dropRules(xml: string, w: string): string {
  // Each paragraph end closes the innermost paragraph opened before it: one pass, linear.
  const open = new RegExp(`<${w}p(?=[\\s>])`, 'g');
  const closeTag = `</${w}p>`;
  const out: string[] = [];
  let last = 0;
  let scanned = 0;
  for (let close = xml.indexOf(closeTag); close >= 0; close = xml.indexOf(closeTag, close + 1)) {
    let start = -1;
    open.lastIndex = scanned;
    for (let m = open.exec(xml); m && m.index < close; m = open.exec(xml)) start = m.index;
    const end = close + closeTag.length;
    scanned = end;
    // An outer paragraph (one holding a text box) opened before the last end: kept as it is.
    if (start < 0) continue;
    const p = xml.slice(start, end);
    const keep = /<[\w.-]*:?(?:drawing|pict|object|txbxContent|fldChar|fldSimple)\b/.test(p) || /[\p{L}\p{N}]/u.test(plainText(p, w));
    if (!keep) {
      out.push(xml.slice(last, start));
      last = end;
    }
  }
  out.push(xml.slice(last));
  return out.join('');
}

function plainText(xml: string, w: string): string {
  const re = new RegExp(`<${w}t(?:\\s[^>]*)?>([^<]*)</${w}t>|</${w}p>`, 'g');
  let text = '';
  for (let m = re.exec(xml); m; m = re.exec(xml)) text += m[1] ?? ' ';
  return text.replace(/\s+/g, ' ').trim();
}

function declarationsOf(openTag: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of openTag.matchAll(/\sxmlns(:[\w.-]+)?="([^"]*)"/g)) map.set(m[1] ?? '', m[2]);
  return map;
}

/** Header and footer part names of the main document, headers first, each once. */
function referencedParts(zip: OfficeZip, main: string, mainXml: string): string[] {
  const rels = readRelationships(zip, relsPathOf(main));
  const w = wordPrefix(mainXml);
  const headers: string[] = [];
  const footers: string[] = [];
  const re = new RegExp(`<${w}(headerReference|footerReference)\\s[^>]*>`, 'g');
  for (const m of mainXml.matchAll(re)) {
    const id = m[0].match(/\s[\w.-]+:id="([^"]*)"/)?.[1];
    const rel = id === undefined ? undefined : rels.get(id);
    if (!rel || rel.external) continue;
    const part = resolvePartPath(main, rel.target);
    const list = m[1] === 'headerReference' ? headers : footers;
    if (!list.includes(part)) list.push(part);
  }
  return [...headers, ...footers];
}

/**
 * The distinct, non-empty headers and footers, as a synthetic main document and its
 * relationships; undefined when the document has none with text. `rewrite` prepares the content
 * of each part (text boxes, headings) as the body is prepared.
 */
export function headerFooterDocument(
  zip: OfficeZip,
  main: string,
  mainXml: string,
  rewrite: (partXml: string, content: string) => string,
): { document: string; relationships: string } | undefined {
  const seen = new Set<string>();
  const bodies: string[] = [];
  const declarations = declarationsOf(mainXml.match(/<[\w.-]*:?document\b[^>]*>/)?.[0] ?? '');
  const relationships: string[] = [];
  for (const [type, target] of [...readRelationships(zip, relsPathOf(main)).values()]
    .filter((r) => !r.external && /\/(styles|numbering)$/.test(r.type))
    .map((r) => [r.type, `/${resolvePartPath(main, r.target)}`])) {
    relationships.push(`<Relationship Id="q${relationships.length}" Type="${escapeXml(type)}" Target="${escapeXml(target)}"/>`);
  }
  for (const [i, part] of referencedParts(zip, main, mainXml).entries()) {
    const xml = zip.text(part);
    if (!xml) continue;
    const root = xml.match(/<([\w.-]+:)?(hdr|ftr)\b[^>]*?(\/?)>/);
    if (!root || root[3]) continue;
    const start = root.index! + root[0].length;
    const end = xml.lastIndexOf('</');
    if (end <= start) continue;
    const w = wordPrefix(xml);
    const content = rewrite(xml, dropRules(dropPageFields(xml.slice(start, end), w), w));
    const text = plainText(content, w);
    if (!text || PAGE_ONLY.test(text) || seen.has(text)) continue;
    seen.add(text);
    for (const [prefix, uri] of declarationsOf(root[0])) if (!declarations.has(prefix)) declarations.set(prefix, uri);
    // Each part's relationship ids are renamed into one namespace of ids.
    const r = (namespacePrefix(xml, REL_NS) ?? 'r').replace(/[.-]/g, '\\$&');
    bodies.push(content.replace(new RegExp(`\\b${r}:(id|embed|link|pict|href)="([^"]*)"`, 'g'), `${r}:$1="h${i}_$2"`));
    for (const [id, rel] of readRelationships(zip, relsPathOf(part))) {
      const target = rel.external ? rel.target : `/${resolvePartPath(part, rel.target)}`;
      relationships.push(
        `<Relationship Id="h${i}_${escapeXml(id)}" Type="${escapeXml(rel.type)}" Target="${escapeXml(target)}"${rel.external ? ' TargetMode="External"' : ''}/>`,
      );
    }
  }
  if (bodies.length === 0) return undefined;
  const w = wordPrefix(mainXml);
  const xmlns = [...declarations].map(([prefix, uri]) => ` xmlns${prefix}="${escapeXml(uri)}"`).join('');
  return {
    document: `<?xml version="1.0" encoding="UTF-8"?><${w}document${xmlns}><${w}body>${bodies.join('')}</${w}body></${w}document>`,
    relationships: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships.join('')}</Relationships>`,
  };
}
