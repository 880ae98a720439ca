import type TurndownService from 'turndown';
import { throwIfAborted, type ExtractInput, type ExtractResult } from '../types';
import { compactMetadata, corrupt, decodeUtf8Text, finishMarkdown, parsing, readInputFile } from './common';
import { createTurndown, htmlNestingDepth, MAX_HTML_DEPTH } from './markdown';

/*
 * HTML → Markdown with turndown (GFM tables, strikethrough, task lists).
 *
 * Removed with their content: script, style, noscript, template, iframe, frame, object, embed,
 * svg, canvas, audio, video, forms and their controls, nav (and role="navigation"), header /
 * footer elements that hold navigation or are the page banner / content info, and anything
 * hidden (hidden attribute, aria-hidden="true", inline display:none).
 * Kept: headings, paragraphs, lists, emphasis, code, quotes, tables (as GFM tables, captions as
 * a line above), links with http(s)/mailto targets (other targets keep only their text), images
 * as their alternative text only.
 * The output never contains raw HTML: text that looks like markup is escaped ("\<script>").
 * Metadata: <title> (or og:title), <meta name="author">, <meta name="description">.
 */

const DROPPED = new Set([
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'IFRAME', 'FRAME', 'FRAMESET', 'OBJECT', 'EMBED', 'SVG', 'CANVAS',
  'AUDIO', 'VIDEO', 'FORM', 'INPUT', 'BUTTON', 'SELECT', 'TEXTAREA', 'OPTION', 'NAV', 'LINK', 'BASE', 'HEAD',
  'DIALOG', 'MAP', 'APPLET',
]);

interface Element {
  nodeName: string;
  getAttribute(name: string): string | null;
  getElementsByTagName?(name: string): { length: number };
  textContent: string | null;
}

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
    if ((node.getElementsByTagName?.('nav').length ?? 0) > 0) return true;
  }
  return false;
}

export async function extractHtml(input: ExtractInput): Promise<ExtractResult> {
  throwIfAborted(input.signal);
  const html = decodeUtf8Text(await readInputFile(input), 'HTML');
  const { markdown, metadata } = await convertHtml(html);
  input.onProgress(1, 1);
  return { markdown, totalPages: 1, metadata };
}

/**
 * HTML text → cleaned Markdown and the page's metadata; also the path for formats that carry
 * HTML (RTF after conversion, email bodies, EPUB chapters).
 */
export async function convertHtml(html: string): Promise<{ markdown: string; metadata: ExtractResult['metadata'] }> {
  if (htmlNestingDepth(html) > MAX_HTML_DEPTH) {
    throw corrupt(`The HTML file is nested too deeply (more than ${MAX_HTML_DEPTH} levels of elements)`);
  }

  const found: { title?: string; ogTitle?: string; author?: string; description?: string } = {};
  const turndown = createTurndown({ images: 'alt', captions: true });
  turndown.addRule('documentTitle', {
    filter: 'title',
    replacement: (_content, node) => {
      found.title ??= (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      return '';
    },
  });
  turndown.addRule('documentMeta', {
    filter: 'meta',
    replacement: (_content, node) => {
      const name = (node.getAttribute('name') ?? node.getAttribute('property') ?? '').toLowerCase();
      const value = (node.getAttribute('content') ?? '').replace(/\s+/g, ' ').trim();
      if (name === 'author') found.author ??= value;
      else if (name === 'description') found.description ??= value;
      else if (name === 'og:title') found.ogTitle ??= value;
      return '';
    },
  });
  // Added last so that it wins over every other rule (turndown tries the newest rule first).
  turndown.addRule('dropped', {
    filter: (node) => isDropped(node as unknown as Element),
    replacement: () => '',
  } satisfies TurndownService.Rule);

  const markdown = await parsing('HTML', () => turndown.turndown(html));
  return {
    markdown: finishMarkdown(markdown),
    metadata: compactMetadata({
      title: found.title || found.ogTitle,
      author: found.author,
      description: found.description,
    }),
  };
}
