import { DOCUMENT_VERSION, type Block } from '@/lib/document/types';
import { throwIfAborted, type DocumentMetadata, type ExtractedDocument, type ExtractInput } from '../types';
import { compactMetadata, corrupt, decodeUtf8Text, parsing, readInputFile } from './common';
import { htmlToBlocks } from './html-document';
import { htmlNestingDepth, MAX_HTML_DEPTH, parseHtml } from './html-parse';

/*
 * HTML → the document model (html-document.ts).
 *
 * Removed with their content: script, style, noscript, template, iframe, frame, object, embed,
 * svg, canvas, audio, video, forms and their controls, nav (and role="navigation"), header /
 * footer elements that hold navigation or are the page banner / content info, and anything
 * hidden (hidden attribute, aria-hidden="true", inline display:none).
 * Kept: headings, paragraphs, lists, emphasis, code, quotes, tables (with their spans and
 * captions), links with http(s)/mailto targets (other targets keep only their text), images as
 * pictures with their alternative text (among other text, the alternative text alone).
 * Only text reaches the model; the renderer escapes whatever in it looks like markup ("\<script>").
 * Metadata: <title> (or og:title), <meta name="author">, <meta name="description">.
 */

const DROPPED = new Set([
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'IFRAME', 'FRAME', 'FRAMESET', 'OBJECT', 'EMBED', 'SVG', 'CANVAS',
  'AUDIO', 'VIDEO', 'FORM', 'INPUT', 'BUTTON', 'SELECT', 'TEXTAREA', 'OPTION', 'NAV', 'LINK', 'BASE', 'HEAD',
  'DIALOG', 'MAP', 'APPLET',
]);

function isDropped(node: Element): boolean {
  // nodeName is upper case for HTML elements, as written for foreign ones (svg, math).
  const name = node.nodeName.toUpperCase();
  if (DROPPED.has(name)) return true;
  if (node.getAttribute('hidden') !== null) return true;
  if ((node.getAttribute('aria-hidden') ?? '').toLowerCase() === 'true') return true;
  if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test(node.getAttribute('style') ?? '')) return true;
  const role = (node.getAttribute('role') ?? '').toLowerCase();
  if (role === 'navigation') return true;
  if (name === 'HEADER' || name === 'FOOTER') {
    if (role === 'banner' || role === 'contentinfo') return true;
    if (node.getElementsByTagName('nav').length > 0) return true;
  }
  return false;
}

export async function readHtml(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const html = decodeUtf8Text(await readInputFile(input), 'HTML');
  const { blocks, metadata } = await htmlDocument(html);
  input.onProgress(1, 1);
  return { document: { version: DOCUMENT_VERSION, metadata, blocks }, totalPages: 1 };
}

/**
 * HTML text → the page's blocks and metadata; also the path for formats that carry HTML (e-mail
 * bodies, EPUB chapters).
 */
export async function htmlDocument(html: string): Promise<{ blocks: Block[]; metadata: DocumentMetadata }> {
  if (htmlNestingDepth(html) > MAX_HTML_DEPTH) {
    throw corrupt(`The HTML file is nested too deeply (more than ${MAX_HTML_DEPTH} levels of elements)`);
  }
  const found: { title?: string; ogTitle?: string; author?: string; description?: string } = {};
  const skip = (el: Element): boolean => {
    if (isDropped(el)) return true;
    const name = el.nodeName.toUpperCase();
    if (name === 'TITLE') {
      found.title ??= (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      return true;
    }
    if (name === 'META') {
      const key = (el.getAttribute('name') ?? el.getAttribute('property') ?? '').toLowerCase();
      const value = (el.getAttribute('content') ?? '').replace(/\s+/g, ' ').trim();
      if (key === 'author') found.author ??= value;
      else if (key === 'description') found.description ??= value;
      else if (key === 'og:title') found.ogTitle ??= value;
      return true;
    }
    return false;
  };
  const blocks = await parsing('HTML', () => htmlToBlocks(parseHtml(html), { inlineImages: 'alt', skip }));
  return {
    blocks,
    metadata: compactMetadata({
      title: found.title || found.ogTitle,
      author: found.author,
      description: found.description,
    }),
  };
}
