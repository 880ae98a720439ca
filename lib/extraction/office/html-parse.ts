import domino from '@mixmark-io/domino';

/*
 * HTML text → a DOM (domino, the parser turndown used, so pages parse into the same tree as
 * before), and the checks made before parsing.
 */

/** Deepest element nesting accepted (the converter recurses per level; the HTML parser is quadratic). */
export const MAX_HTML_DEPTH = 1000;

const VOID_OR_AUTO_CLOSED = new Set([
  // void elements
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'basefont', 'bgsound', 'frame', 'keygen',
  // elements whose end tag may be omitted (closed by a sibling), so unclosed ones do not nest
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'rb', 'rt', 'rp', 'rtc',
  'colgroup', 'caption', 'html', 'head', 'body',
]);

/**
 * An upper estimate of the element nesting of an HTML text, from its tags alone (script, style
 * and comments skipped). Computed before parsing: the parser's time grows with the square of the
 * depth, so a page of 100,000 nested <div>s would otherwise take minutes before failing.
 */
export function htmlNestingDepth(html: string): number {
  // Every pattern here ends at the first closing delimiter or at the end of the text, so the
  // scan stays linear even on hostile input (no quadratic backtracking).
  const text = html.replace(/<!--[\s\S]*?(?:-->|$)|<(script|style|textarea|title)\b[^>]*(?:>|$)[\s\S]*?(?:<\/\1\s*>|$)/gi, '');
  let depth = 0;
  let max = 0;
  for (const segment of text.split('<')) {
    const tag = /^(\/?)([a-zA-Z][\w:-]*)/.exec(segment);
    if (!tag || VOID_OR_AUTO_CLOSED.has(tag[2].toLowerCase())) continue;
    const end = segment.indexOf('>');
    if (end > 0 && segment[end - 1] === '/') continue; // <path/>: self-closing (foreign content)
    if (tag[1] === '/') depth = Math.max(0, depth - 1);
    else max = Math.max(max, ++depth);
  }
  return max;
}

const ROOT_ID = 'quarry-html-root';

/**
 * The parsed content of an HTML text (a whole page or a fragment) under one element. The text is
 * parsed inside a wrapper element, so that what a page puts in its <head> (<title>, <meta>) stays
 * in document order with the body, under the same root.
 */
export function parseHtml(html: string): Element {
  const doc = domino.createDocument(`<x-quarry id="${ROOT_ID}">${html}</x-quarry>`);
  return doc.getElementById(ROOT_ID) ?? doc.body;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const CDATA_SECTION_NODE = 4;

/** Upper-case tag name (HTML elements already are; foreign ones, svg and math, are as written). */
export function tagOf(el: Element): string {
  return el.nodeName.toUpperCase();
}

/** Alternative text without Word's automatic-description boilerplate. */
export function cleanAltText(alt: string): string {
  return alt
    .replace(/\s+/g, ' ')
    .replace(/\s*(Description automatically generated.*|AI-generated content may be incorrect\.?)$/i, '')
    .trim();
}
