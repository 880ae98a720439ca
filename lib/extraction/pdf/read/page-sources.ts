/**
 * What the layout needs of a page, read by PDFium (pdfium.ts) or, for the pages PDFium hands back
 * and without it, by pdf.js: the text items, their styles and font flags, the viewport, and the
 * ruling lines and images when they can matter.
 */
import type { ExtractInput } from '@/lib/extraction/types';
import { analyzeOperatorList, type PageGraphics } from './graphics';
import { abortable, type PdfPage, type Pdfjs } from './pdfjs';
import type { PdfiumDocument } from './pdfium';
import type { Probe } from './probe';
import { ligatureRepairs, repairLigatureWords } from './rtl-ligatures';
import { fontFlagsFromName, type FontFlags, type FontStyleLike, type TextItemLike } from './runs';
import { TABLE_CUE_GAP } from '../settings';

export interface LoadedPage {
  page: PdfPage;
  content: Awaited<ReturnType<PdfPage['getTextContent']>>;
}

/** What the layout needs of a page, read by either PDFium or pdf.js. */
export interface PageSource {
  items: readonly unknown[];
  styles: Record<string, FontStyleLike>;
  vp: { transform: number[]; width: number; height: number };
  fontFlags: (id: string) => FontFlags | null;
  graphics: PageGraphics | null;
}

/** Page `n` through PDFium, or null when pdf.js must read it (see pdfium.ts). */
export function pdfiumSource(pdfium: PdfiumDocument, n: number, input: ExtractInput): PageSource | null {
  let read;
  try {
    read = pdfium.readPage(n, (items, vp) => input.options.extract_tables && hasSeparatedPieces(items, vp.transform));
  } catch {
    return null;
  }
  if (read.unsupported !== null) return null;
  return { items: read.items, styles: read.styles, vp: read.viewport, fontFlags: (id) => pdfium.fontFlags(id), graphics: read.graphics };
}

/**
 * The images of a page PDFium reads (its image objects, in forms too), or pdf.js's probe when
 * PDFium cannot tell. Only asked for pages with little text in normal mode.
 */
export async function pdfiumImages(pdfium: PdfiumDocument, n: number, probe: Probe | null): Promise<PageGraphics | null> {
  if (!probe) return null;
  try {
    return pdfium.pageGraphics(n);
  } catch {
    return probe.images(n);
  }
}

export async function pdfjsSource(pdfjs: Pdfjs, page: PdfPage, content: LoadedPage['content'], input: ExtractInput, fonts: Map<string, FontFlags | null>): Promise<PageSource> {
  const { signal, options } = input;
  const viewport = page.getViewport({ scale: 1 });
  const vp = { transform: viewport.transform, width: viewport.width, height: viewport.height };
  // The operator list costs about half as much again as the text: it is fetched only when it
  // can matter, i.e. for ruling lines when pieces of text sit side by side on a line (table
  // cells), and for the names (bold, monospace) of fonts not seen on earlier pages.
  const unknownFont = content.items.some((it) => 'fontName' in it && !fonts.has(it.fontName) && /\S/.test(it.str));
  const tableCue = options.extract_tables && hasSeparatedPieces(content.items, vp.transform);
  // Right-to-left text needs the glyphs to put ligatures in logical order (rtl-ligatures.ts).
  const rtlText = content.items.some((it) => 'dir' in it && it.dir === 'rtl' && /[\u0600-\u06ff]/.test(it.str));
  let graphics: PageGraphics | null = null;
  if (unknownFont || tableCue || rtlText) {
    const opList = await abortable(page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE }), signal);
    for (const id of Object.keys(content.styles)) if (!fonts.has(id)) fonts.set(id, fontFlagsFromName(fontName(page, id)));
    if (options.extract_tables) graphics = analyzeOperatorList(opList, pdfjs.OPS as unknown as Record<string, number>, vp);
    if (rtlText) {
      const repairs = ligatureRepairs(opList.fnArray, opList.argsArray, pdfjs.OPS.showText);
      for (const it of content.items) if ('dir' in it && it.dir === 'rtl') it.str = repairLigatureWords(it.str, repairs);
    }
  }
  return { items: content.items, styles: content.styles as Record<string, FontStyleLike>, vp, fontFlags: (id) => fonts.get(id) ?? null, graphics };
}

/**
 * Whether two pieces of upright text share a baseline with a gap of half an em or more between
 * them: the mark of table cells (and of columns, tab stops). Without it a page cannot hold a
 * table of two or more text columns. Upright as shown: on a page turned by /Rotate the text
 * that reads upright is turned in the content stream, so each item is seen through the viewport.
 */
function hasSeparatedPieces(items: readonly unknown[], view: readonly number[]): boolean {
  const rows = new Map<number, { x0: number; x1: number; size: number }[]>();
  const [va, vb, vc, vd, ve, vf] = view;
  for (const raw of items) {
    const it = raw as TextItemLike;
    if (typeof it.str !== 'string' || !/\S/.test(it.str) || !Array.isArray(it.transform) || it.dir === 'ttb') continue;
    const [ta, tb, tc, td, te, tf] = it.transform;
    // The item's matrix on the shown page (whose y runs down: d is turned to stay positive).
    const a = va * ta + vc * tb;
    const b = vb * ta + vd * tb;
    const c = va * tc + vc * td;
    const d = -(vb * tc + vd * td);
    const e = va * te + vc * tf + ve;
    const f = vb * te + vd * tf + vf;
    if (Math.abs(b) > 1e-6 || Math.abs(c) > 1e-6 || a <= 0) continue;
    const key = Math.round(f);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = []));
    row.push({ x0: e, x1: e + (it.width || 0), size: Math.abs(d) || a });
  }
  for (const row of rows.values()) {
    if (row.length < 2) continue;
    row.sort((p, q) => p.x0 - q.x0);
    for (let i = 1; i < row.length; i++) if (row[i].x0 - row[i - 1].x1 > TABLE_CUE_GAP * Math.min(row[i].size, row[i - 1].size)) return true;
  }
  return false;
}

function fontName(page: PdfPage, id: string): string | null {
  try {
    if (!page.commonObjs.has(id)) return null;
    const font = page.commonObjs.get(id) as { name?: unknown } | null;
    return typeof font?.name === 'string' ? font.name : null;
  } catch {
    return null;
  }
}

/** The page's text items joined in content-stream order, a line break after items that end a line: its text when the layout fails. */
export function plainText(items: readonly unknown[]): string {
  let out = '';
  for (const raw of items) {
    const item = raw as { str?: unknown; hasEOL?: unknown };
    if (typeof item.str !== 'string') continue;
    out += item.str;
    if (item.hasEOL) out += '\n';
  }
  return out;
}
