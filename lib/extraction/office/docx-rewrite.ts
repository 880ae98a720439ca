import { corrupt } from './common';
import type { DocxStyles, NumberingRef } from './docx-styles';

/*
 * Rewrites a WordprocessingML part (document.xml, a header or footer) before mammoth reads it,
 * for what mammoth does not do by itself:
 *
 * - mc:AlternateContent: exactly one branch is kept, the first mc:Choice whose requirements are
 *   namespaces we read (DrawingML shapes, groups, canvases, Word 2010+ markup), else mc:Fallback,
 *   so the text of a shape never appears twice (its DrawingML and its VML copy).
 * - Text boxes (w:txbxContent in wps:txbx, VML v:textbox) are taken out of their drawing: the
 *   text of an inline one joins the line it sits in; a floating one (or one holding a table)
 *   becomes paragraphs right after the paragraph it is anchored to. Mammoth reads text boxes
 *   only in VML and only for some shape types, and never inside DrawingML.
 * - Headings: a paragraph whose outline level (its own w:outlineLvl 0–8, else its style's,
 *   following w:basedOn, else a "heading N" style) is 1–9 gets the style id QuarryHeadingN,
 *   which the style map turns into <hN> (levels past 6 become h6). Its displayed number ("2.1")
 *   is put in front of its text as a token the caller swaps back for the number's text when it
 *   reads mammoth's HTML.
 * - Tracked deletions (w:del, w:moveFrom) are left alone: mammoth skips them, text boxes included.
 *
 * The part is scanned as text, not parsed into a tree: document.xml of a long document is many
 * megabytes, and only paragraph properties, drawings and alternate content are looked at.
 */

export const HEADING_STYLE_PREFIX = 'QuarryHeading';

/** Text boxes and alternate content nested deeper than this are dropped (hostile nesting). */
const MAX_DEPTH = 16;

/** Markup-compatibility requirements we can read in an mc:Choice. */
const SUPPORTED_REQUIREMENTS = new Set([
  'wps', 'wpg', 'wpc', 'wp14', 'w14', 'w15', 'w16', 'w16se', 'w16cid', 'w16cex', 'w16sdtdh', 'w16du', 'a14',
]);

const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const MC_NS = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/** `s` as a literal inside a regular expression. */
export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The prefix a part declares for a namespace URI, when it declares one. */
export function namespacePrefix(xml: string, uri: string): string | undefined {
  const match = xml.match(new RegExp(`xmlns:([A-Za-z_][\\w.-]*)="${escapeRe(uri)}"`));
  return match?.[1];
}

/** "w:" for the WordprocessingML namespace of a part ("" when it is the default namespace). */
export function wordPrefix(xml: string): string {
  const prefix = namespacePrefix(xml, WORD_NS);
  return prefix ? `${prefix}:` : xml.includes(`xmlns="${WORD_NS}"`) ? '' : 'w:';
}

const TAG_END = /(?:[^>"']|"[^"]*"|'[^']*')*>/y;

/** Index just past the ">" of the tag opening at `start` (quoted ">" in attributes skipped). */
function tagEnd(xml: string, start: number): number {
  TAG_END.lastIndex = start;
  return TAG_END.test(xml) ? TAG_END.lastIndex : xml.length;
}

/**
 * Index just past the element whose open tag is at `start` (nested elements of the same name
 * counted). An element that never closes makes the part malformed: refused here rather than
 * rescanned for every later element.
 */
const tagPatterns = new Map<string, RegExp>();

function elementEnd(xml: string, start: number, qname: string): number {
  const openEnd = tagEnd(xml, start);
  if (xml.charCodeAt(openEnd - 2) === 47 /* / */) return openEnd;
  let re = tagPatterns.get(qname);
  if (!re) {
    re = new RegExp(`<(/?)${escapeRe(qname)}(?=[\\s/>])`, 'g');
    if (tagPatterns.size < 64) tagPatterns.set(qname, re);
  }
  re.lastIndex = openEnd;
  let depth = 1;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    const end = tagEnd(xml, m.index);
    if (m[1]) {
      if (--depth === 0) return end;
    } else if (xml.charCodeAt(end - 2) !== 47) depth++;
  }
  throw corrupt(`The DOCX file is damaged: a <${qname}> element is never closed`);
}

/** Inner text of an element spanning [start, end) (empty for a self-closing one). */
function innerOf(xml: string, start: number, end: number): string {
  const openEnd = tagEnd(xml, start);
  if (xml.charCodeAt(openEnd - 2) === 47) return '';
  return xml.slice(openEnd, xml.lastIndexOf('<', end - 1));
}

export interface RewriteContext {
  styles: DocxStyles;
  /** Registers a heading number; the returned token stands for it in the text (docx.ts swaps it back). */
  register: (number: string) => string;
  /**
   * Levels added to every heading: 1 when the document has a Title paragraph (it is the one #),
   * so that "Heading 1" sections sit under it as ##, as Word's navigation pane shows them.
   */
  headingShift?: number;
}

export class PartRewriter {
  private readonly w: string;
  private readonly mc: string;
  private readonly tags: RegExp;
  private readonly alternates: RegExp;
  private readonly patterns: Record<'style' | 'styleElement' | 'outline' | 'numId' | 'ilvl', RegExp>;
  /** Block content waiting for the end of each open paragraph (floating text boxes). */
  private readonly queued: string[][] = [];

  constructor(
    xml: string,
    private readonly ctx: RewriteContext,
  ) {
    this.w = wordPrefix(xml);
    const mc = namespacePrefix(xml, MC_NS) ?? 'mc';
    this.mc = `${mc}:`;
    const names = ['p', 'pPr', 'drawing', 'pict', 'object', 'del', 'moveFrom'].map((n) => escapeRe(this.w + n));
    names.push(escapeRe(`${this.mc}AlternateContent`));
    this.tags = new RegExp(`<(/?)(${names.join('|')})(?=[\\s/>])`, 'g');
    this.alternates = new RegExp(`<${escapeRe(this.mc)}(AlternateContent|Choice|Fallback)(?=[\\s/>])`, 'g');
    const w = escapeRe(this.w);
    const val = (local: string, value = '[^"]*') => new RegExp(`<${w}${local}\\s[^>]*?${w}val="(${value})"`);
    this.patterns = {
      style: val('pStyle'),
      styleElement: new RegExp(`<${w}pStyle\\s[^>]*?(?:/>|>\\s*</${w}pStyle>)`),
      outline: val('outlineLvl', '-?\\d+'),
      numId: val('numId'),
      ilvl: val('ilvl', '\\d+'),
    };
  }

  rewrite(xml: string, depth = 0): string {
    const re = new RegExp(this.tags.source, 'g');
    const out: string[] = [];
    const openParagraphs = this.queued.length;
    let last = 0;
    for (let m = re.exec(xml); m; m = re.exec(xml)) {
      const start = m.index;
      const name = m[2];
      const local = name.slice(name.indexOf(':') + 1);
      if (local === 'p') {
        const end = tagEnd(xml, start);
        re.lastIndex = end;
        if (m[1]) {
          if (this.queued.length <= openParagraphs) continue;
          const waiting = this.queued.pop()!;
          out.push(xml.slice(last, end), ...waiting);
          last = end;
        } else if (xml.charCodeAt(end - 2) !== 47) this.queued.push([]);
        continue;
      }
      if (m[1]) continue;
      const end = elementEnd(xml, start, name);
      re.lastIndex = end;
      // Deleted and moved-away revisions are not shown, and mammoth skips them: left as they are,
      // so their text boxes do not come back as text.
      if (local === 'del' || local === 'moveFrom') continue;
      if (local === 'pPr') {
        out.push(xml.slice(last, start), this.rewriteProperties(xml.slice(start, end)));
        last = end;
      } else if (local === 'AlternateContent') {
        const branch = depth < MAX_DEPTH ? this.chooseBranch(xml, start, end) : undefined;
        out.push(xml.slice(last, start), branch ? this.rewrite(branch, depth + 1) : '');
        last = end;
      } else {
        const element = xml.slice(start, end);
        if (!element.includes(`${this.w}txbxContent`)) continue;
        out.push(xml.slice(last, start), ...this.takeTextBoxes(element, local, depth));
        last = end;
      }
    }
    // Paragraphs a damaged fragment left open do not swallow the rest of the document.
    while (this.queued.length > openParagraphs) out.push(...this.queued.pop()!);
    out.push(xml.slice(last));
    return out.join('');
  }

  /** Inner XML of the alternate-content branch to keep (see the file comment). */
  private chooseBranch(xml: string, start: number, end: number): string | undefined {
    const re = new RegExp(this.alternates.source, 'g');
    re.lastIndex = tagEnd(xml, start);
    let fallback: string | undefined;
    for (let m = re.exec(xml); m && m.index < end; m = re.exec(xml)) {
      const childEnd = elementEnd(xml, m.index, `${this.mc}${m[1]}`);
      re.lastIndex = childEnd;
      if (m[1] === 'Choice') {
        const requires = xml.slice(m.index, tagEnd(xml, m.index)).match(/\bRequires="([^"]*)"/)?.[1] ?? '';
        const names = requires.split(/\s+/).filter(Boolean);
        if (names.length > 0 && names.every((n) => SUPPORTED_REQUIREMENTS.has(n))) return innerOf(xml, m.index, childEnd);
      } else if (m[1] === 'Fallback') fallback ??= innerOf(xml, m.index, childEnd);
    }
    return fallback;
  }

  /** A drawing's markup with one branch of each alternate content it holds. */
  private resolveAlternates(xml: string, depth: number): string {
    const re = new RegExp(`<${escapeRe(this.mc)}AlternateContent(?=[\\s/>])`, 'g');
    const out: string[] = [];
    let last = 0;
    for (let m = re.exec(xml); m; m = re.exec(xml)) {
      const end = elementEnd(xml, m.index, `${this.mc}AlternateContent`);
      const branch = depth < MAX_DEPTH ? this.chooseBranch(xml, m.index, end) : undefined;
      out.push(xml.slice(last, m.index), branch ? this.resolveAlternates(branch, depth + 1) : '');
      last = re.lastIndex = end;
    }
    out.push(xml.slice(last));
    return out.join('');
  }

  /**
   * A drawing (w:drawing, w:pict, w:object) without its text boxes, followed by the inline text
   * of an inline box; a floating box's content waits for the end of the paragraph.
   */
  private takeTextBoxes(drawing: string, kind: string, depth: number): string[] {
    const element = this.resolveAlternates(drawing, depth);
    const qname = `${this.w}txbxContent`;
    const re = new RegExp(`<${escapeRe(qname)}(?=[\\s/>])`, 'g');
    const boxes: string[] = [];
    const stripped: string[] = [];
    let last = 0;
    for (let m = re.exec(element); m; m = re.exec(element)) {
      const end = elementEnd(element, m.index, qname);
      if (depth < MAX_DEPTH) boxes.push(this.rewrite(innerOf(element, m.index, end), depth + 1));
      stripped.push(element.slice(last, m.index));
      last = re.lastIndex = end;
    }
    stripped.push(element.slice(last));
    const content = boxes.join('');
    const inline = kind === 'drawing' ? /<([\w.-]+:)?inline[\s>]/.test(element) : !/position:\s*absolute/i.test(element);
    if (inline && !content.includes(`<${this.w}tbl`)) {
      const text = this.plainText(content);
      if (text) stripped.push(`<${this.w}t xml:space="preserve"> ${text} </${this.w}t>`);
    } else if (this.queued.length > 0) {
      this.queued[this.queued.length - 1].push(content);
    } else {
      stripped.push(content);
    }
    return stripped;
  }

  /** The (still XML-escaped) text of paragraphs, one line. */
  private plainText(xml: string): string {
    const w = escapeRe(this.w);
    const re = new RegExp(`<${w}t(?:\\s[^>]*)?>([^<]*)</${w}t>|<${w}(?:tab|br|cr)(?=[\\s/>])|</${w}p>`, 'g');
    let text = '';
    for (let m = re.exec(xml); m; m = re.exec(xml)) text += m[1] ?? ' ';
    return text.replace(/\s+/g, ' ').trim();
  }

  private rewriteProperties(pPr: string): string {
    const p = this.patterns;
    // Properties recorded before a tracked change (w:pPrChange) are not the paragraph's.
    // It is the last child of w:pPr, so the paragraph's own properties are all before it.
    const change = pPr.indexOf(`<${this.w}pPrChange`);
    const own = change < 0 ? pPr : pPr.slice(0, change);
    const styles = this.ctx.styles;
    const styleId = own.match(p.style)?.[1];
    const style = styleId ?? styles.defaultStyle;
    const outline = own.match(p.outline)?.[1];
    const outlineLevel = outline === undefined ? undefined : Number(outline);
    // A direct "body text" level (9) does not demote a heading style: Word does not let one
    // change the outline level of its heading styles, and mammoth's name rules would not either.
    const direct = outlineLevel !== undefined && outlineLevel >= 0 && outlineLevel <= 8;
    const ownLevel = direct ? outlineLevel + 1 : styles.headingLevel(style);
    const number = this.numberOf(own, style);
    if (ownLevel === 0) return pPr;
    const level = ownLevel + (this.ctx.headingShift ?? 0);
    const w = this.w;
    const id = `${HEADING_STYLE_PREFIX}${Math.min(level, 6)}`;
    // pStyle is the first child of w:pPr, so the first match is the paragraph's own (not one
    // inside w:pPrChange) whenever the paragraph has one.
    let rewritten =
      styleId !== undefined
        ? pPr.replace(p.styleElement, `<${w}pStyle ${w}val="${id}"/>`)
        : pPr.replace(/^<[^>]*?(\/?)>/, (open, slash: string) =>
            slash ? `${open.slice(0, -2)}><${w}pStyle ${w}val="${id}"/></${w}pPr>` : `${open}<${w}pStyle ${w}val="${id}"/>`,
          );
    if (number) rewritten += `<${w}r><${w}t xml:space="preserve">${this.ctx.register(number)} </${w}t></${w}r>`;
    return rewritten;
  }

  /** Counts the paragraph in its list and returns the number it displays, if any. */
  private numberOf(pPr: string, style: string | undefined): string | undefined {
    const p = this.patterns;
    const styles = this.ctx.styles;
    const fromStyle = styles.styleNumbering(style);
    const open = pPr.indexOf(`<${this.w}numPr`);
    const close = open < 0 ? -1 : pPr.indexOf(`</${this.w}numPr>`, open);
    const numPr = close < 0 ? undefined : pPr.slice(open, close);
    let ref: NumberingRef | undefined = fromStyle;
    if (numPr !== undefined) {
      const numId = numPr.match(p.numId)?.[1] ?? fromStyle?.numId;
      const ilvl = numPr.match(p.ilvl)?.[1];
      ref = numId === undefined ? undefined : { numId, ilvl: ilvl === undefined ? fromStyle?.ilvl : Number(ilvl) };
    }
    return ref ? styles.advance(ref, style) : undefined;
  }
}
