/**
 * The text layer read with PDFium (the WebAssembly build of `@embedpdf/pdfium`): characters with
 * their positions, sizes and fonts, and the page's paths and images, shaped like pdf.js's text
 * items and operator-list analysis so that the layout, tables and Markdown stages are the same
 * for both. PDFium reads a text layer in about twice `pdftotext`'s time, several times faster
 * than pdf.js's `getTextContent`. Its memory is outside the JavaScript heap but counts towards the
 * worker's resident memory, which the pool watches (RESOURCE_LIMIT_EXCEEDED).
 *
 * PDFium is the first reader; pdf.js stays the reference. A page PDFium cannot render faithfully
 * in this shape is handed back (`unsupported`) and read by pdf.js: right-to-left or vertical
 * writing (pdf.js reorders and turns them itself), characters without a Unicode mapping (pdf.js
 * recovers more of them from glyph names), and pages PDFium fails to parse.
 */
import type { PageGraphics } from './graphics';
import { readPdfiumGraphics } from './pdfium-graphics';
import { ItemWriter, type FontEntry, type TextObjectInfo } from './pdfium-items';
import { discardPdfium, loadPdfium, type Exports } from './pdfium-module';
import { decimal, farSide, pdfjsViewport, type Viewport } from './pdfium-numbers';
import { fontFlagsFromName, type FontFlags, type FontStyleLike, type TextItemLike } from './runs';

/** The FixedPitch flag of a font descriptor. */
const FIXED_PITCH = 1;
/** pdf.js's spacing thresholds, in ems of the glyph before (see readText). */
const NEGATIVE_SPACE = -0.2;
const NOT_A_SPACE = 0.03;
const TRACKING_SPACE = 0.102;
const SPACE_IN_FLOW_MAX = 0.6;
const VERTICAL_SHIFT = 0.25;

/** Scripts written right to left (Hebrew to N'Ko, presentation forms): pdf.js reorders them into logical order, PDFium does not. */
function isRtlCode(u: number): boolean {
  return (u >= 0x0590 && u <= 0x08ff) || (u >= 0xfb1d && u <= 0xfdff) || (u >= 0xfe70 && u <= 0xfefc);
}

export interface PdfiumPage {
  /** Text items shaped like pdf.js's (`str`, `transform`, `width`, `height`, `fontName`, `dir`). */
  items: TextItemLike[];
  styles: Record<string, FontStyleLike>;
  viewport: Viewport;
  /** Why pdf.js must read this page instead, or null. */
  unsupported: string | null;
}

/** A document opened in PDFium. Not thread-safe: one per thread. */
export class PdfiumDocument {
  private readonly fonts = new Map<number, FontEntry>();
  private readonly flagsById = new Map<string, FontFlags | null>();
  private readonly scratch: number;
  private closed = false;
  private failed = false;

  private constructor(
    private readonly x: Exports,
    private readonly doc: number,
    private readonly data: number,
    readonly numPages: number,
  ) {
    this.scratch = x.malloc(256);
  }

  /** Opens `bytes`, or returns null when PDFium cannot (PDF.js then reports why). */
  static async open(bytes: Uint8Array): Promise<PdfiumDocument | null> {
    const x = await loadPdfium();
    const data = x.malloc(bytes.byteLength);
    if (!data) return null;
    new Uint8Array(x.memory.buffer, data, bytes.byteLength).set(bytes);
    const doc = x.FPDF_LoadMemDocument(data, bytes.byteLength, 0);
    if (!doc) {
      x.free(data);
      return null;
    }
    return new PdfiumDocument(x, doc, data, x.FPDF_GetPageCount(doc));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.x.FPDF_CloseDocument(this.doc);
    this.x.free(this.data);
    this.x.free(this.scratch);
  }

  private views: { f64: Float64Array; f32: Float32Array } | null = null;

  /** Views of the module's memory, made again when it has grown (the old buffer is then detached). */
  private heap(): { f64: Float64Array; f32: Float32Array } {
    const v = this.views;
    if (v && v.f64.length !== 0) return v;
    const buffer = this.x.memory.buffer;
    this.views = { f64: new Float64Array(buffer), f32: new Float32Array(buffer) };
    return this.views;
  }

  private f32(ptr: number, n: number): Float32Array {
    return new Float32Array(this.x.memory.buffer, ptr, n);
  }

  private font(textObject: number): FontEntry {
    const x = this.x;
    const handle = textObject ? x.FPDFTextObj_GetFont(textObject) : 0;
    let entry = this.fonts.get(handle);
    if (entry) return entry;
    let name = '';
    let mono = false;
    if (handle) {
      const len = x.FPDFFont_GetBaseFontName(handle, 0, 0);
      if (len > 1) {
        const buf = x.malloc(len);
        x.FPDFFont_GetBaseFontName(handle, buf, len);
        name = Buffer.from(new Uint8Array(x.memory.buffer, buf, len - 1)).toString('latin1');
        x.free(buf);
      }
      const flags = x.FPDFFont_GetFlags(handle);
      mono = flags >= 0 && (flags & FIXED_PITCH) !== 0;
    }
    entry = { handle, id: `pdfium_${handle}`, flags: fontFlagsFromName(name), mono };
    this.fonts.set(handle, entry);
    this.flagsById.set(entry.id, entry.flags);
    return entry;
  }

  /** Bold and monospace of a font id of this document's items. */
  fontFlags(id: string): FontFlags | null {
    return this.flagsById.get(id) ?? null;
  }

  /**
   * Page `n` (1-based): its text as pdf.js-shaped items, and its graphics when `wantGraphics`
   * (asked with the items and the page's viewport). Throws when PDFium cannot load the page.
   */
  readPage(n: number, wantGraphics: (items: TextItemLike[], viewport: Viewport) => boolean): PdfiumPage & { graphics: PageGraphics | null } {
    if (this.failed) throw new Error('PDFium stopped on an earlier page of this document');
    const x = this.x;
    try {
      const page = x.FPDF_LoadPage(this.doc, n - 1);
      if (!page) throw new Error(`PDFium could not load page ${n} (error ${x.FPDF_GetLastError()})`);
      try {
        const { viewport, view } = this.viewport(page);
        const text = this.readText(page, view);
        const graphics = text.unsupported === null && wantGraphics(text.items, viewport) ? readPdfiumGraphics(x, this.scratch, page, viewport) : null;
        return { ...text, viewport, graphics };
      } finally {
        x.FPDF_ClosePage(page);
      }
    } catch (err) {
      if (err instanceof WebAssembly.RuntimeError || /abort/i.test((err as Error)?.message ?? '')) {
        // A trap leaves the module's state unknown: pdf.js reads the rest of this document, and
        // the next document gets a fresh instance.
        this.failed = true;
        this.closed = true;
        discardPdfium();
      }
      throw err;
    }
  }

  /** Ruling lines and images of page `n` (1-based), read on their own. */
  pageGraphics(n: number): PageGraphics {
    if (this.failed) throw new Error('PDFium stopped on an earlier page of this document');
    const page = this.x.FPDF_LoadPage(this.doc, n - 1);
    if (!page) throw new Error(`PDFium could not load page ${n}`);
    try {
      return readPdfiumGraphics(this.x, this.scratch, page, this.viewport(page).viewport);
    } finally {
      this.x.FPDF_ClosePage(page);
    }
  }

  private box(page: number, crop: boolean): [number, number, number, number] | null {
    const s = this.scratch;
    const ok = crop ? this.x.FPDFPage_GetCropBox(page, s, s + 4, s + 8, s + 12) : this.x.FPDFPage_GetMediaBox(page, s, s + 4, s + 8, s + 12);
    if (!ok) return null;
    const [l, b, r, t] = this.f32(s, 4);
    return [Math.min(l, r), Math.min(b, t), Math.max(l, r), Math.max(b, t)];
  }

  /** The view box pdf.js uses (the crop box within the media box) and its viewport at scale 1. */
  private viewport(page: number): { viewport: Viewport; view: readonly number[] } {
    const media = this.box(page, false) ?? [0, 0, 612, 792];
    const crop = this.box(page, true);
    let view = media;
    if (crop) {
      const v: [number, number, number, number] = [Math.max(crop[0], media[0]), Math.max(crop[1], media[1]), Math.min(crop[2], media[2]), Math.min(crop[3], media[3])];
      if (v[2] > v[0] && v[3] > v[1]) view = v;
    }
    const rotate = ((this.x.FPDFPage_GetRotation(page) % 4) + 4) % 4;
    return { viewport: pdfjsViewport(view, rotate * 90), view };
  }

  /**
   * The page's characters as pdf.js would group them into text items: pdf.js's rules, applied to
   * PDFium's characters (see pdf.js's `compareWithLastPosition`). A character starts a new item
   * after a change of font or size, a jump back or to another line; a gap of 0.102–0.6 em inside
   * an item becomes a space in it, a wider one a whitespace item of its own; a space glyph is
   * never kept as a character, only as the gap it leaves. PDFium's own generated spaces and line
   * breaks are ignored. Characters outside the view box are dropped, as pdf.js drops them.
   */
  private readText(page: number, view: readonly number[]): Omit<PdfiumPage, 'viewport'> {
    const x = this.x;
    const s = this.scratch;
    const out = new ItemWriter();
    const styles: Record<string, FontStyleLike> = {};
    const tp = x.FPDFText_LoadPage(page);
    if (!tp) return { items: out.items, styles, unsupported: 'PDFium could not read the text' };
    // The loop's state lives in locals no closure captures, so that the optimised loop keeps its
    // numbers unboxed (a captured variable is a heap slot, and every number written to one is a
    // new heap object: several per character).
    try {
      const count = x.FPDFText_CountChars(tp);
      let unsupported: string | null = null;
      let itemFont = 0;
      let itemSize = 0;
      // The text object of the character being read.
      let obj: TextObjectInfo | null = null;
      // The glyph before: its text object, its origin and where its advance ends.
      let prev: TextObjectInfo | null = null;
      let prevOx = 0;
      let prevOy = 0;
      let prevEndX = 0;
      let prevEndY = 0;
      /** The glyph before ended where its ink did (see below). */
      let inkEnd = false;
      // pdf.js's two last characters (a space glyph seen since the last glyph counts as a space):
      // whether each is a space.
      let olderSpace = true;
      let newerSpace = true;
      for (let i = 0; i < count; i++) {
        if (x.FPDFText_IsGenerated(tp, i)) continue;
        let u = x.FPDFText_GetUnicode(tp, i);
        // PDFium reports a hyphen that ends a line as U+0002.
        if (u === 0x02) u = 0x2d;
        if (u === 0 || u === 0xfeff || u === 0x200b || u === 0x200e || u === 0x200f) continue;
        x.FPDFText_GetCharOrigin(tp, i, s, s + 8);
        const h = this.heap();
        const ox = h.f64[s >> 3];
        const oy = h.f64[(s + 8) >> 3];
        const textObject = x.FPDFText_GetTextObject(tp, i);
        // PDFium gives each letter of a ligature glyph ("ffi", "Th" from a ToUnicode map, U+FB01
        // decomposed) an index of its own, all at the glyph's origin: the letters after the first
        // belong to the glyph, whose advance and ink they leave as they are.
        const sameGlyph = out.start !== null && prev !== null && ox === prevOx && oy === prevOy && textObject === prev.handle;
        if (!sameGlyph) {
          if (inkEnd && prev !== null && textObject === prev.handle) {
            // The glyph before ended where its ink did, which may reach past its advance (an
            // italic f, an "ff" ligature): the advance ends no later than where the next
            // character of its text object starts.
            const along = (ox - prevOx) * prev.dirX + (oy - prevOy) * prev.dirY;
            const reach = (prevEndX - prevOx) * prev.dirX + (prevEndY - prevOy) * prev.dirY;
            if (along >= 0 && along < reach) {
              prevEndX = prevOx + along * prev.dirX;
              prevEndY = prevOy + along * prev.dirY;
            }
          }
          inkEnd = false;
        }
        if (u === 0x20 || u === 0x09 || u === 0xa0 || u === 0x0a || u === 0x0d || u === 0x3000) {
          olderSpace = newerSpace;
          newerSpace = true;
          continue;
        }
        if (ox < view[0] || ox > view[2] || oy < view[1] || oy > view[3]) continue;
        if (x.FPDFText_HasUnicodeMapError(tp, i) === 1) unsupported ??= 'characters without a Unicode mapping';
        if (isRtlCode(u)) unsupported ??= 'right-to-left text';
        if (sameGlyph) {
          out.char(u);
          continue;
        }
        // Font, size and matrix belong to the text object: read once per object.
        if (obj === null || textObject !== obj.handle) obj = this.textObject(tp, i, textObject);
        const { font, fontSize, dirX, dirY } = obj;
        if (out.start !== null && (font.handle !== itemFont || fontSize !== itemSize)) out.flush(false);
        if (prev !== null) {
          const dx = ox - prevEndX;
          const dy = oy - prevEndY;
          const adv = (dx * dirX + dy * dirY) / (prev.em || 1);
          const advY = Math.abs(-dx * dirY + dy * dirX);
          if (adv < NEGATIVE_SPACE) {
            olderSpace = newerSpace = true;
            out.flush(advY > 0.5 * prev.height);
          } else if (advY > prev.height) {
            olderSpace = newerSpace = true;
            out.flush(true);
          } else {
            if (adv <= NOT_A_SPACE) olderSpace = newerSpace = true;
            if (adv <= TRACKING_SPACE) {
              if (!olderSpace && newerSpace) {
                olderSpace = newerSpace = true;
                out.flush(false);
                out.whitespace(prev, adv * prev.em, prevEndX, prevEndY);
              }
            } else if (adv <= SPACE_IN_FLOW_MAX) {
              if (out.start !== null) {
                olderSpace = newerSpace = true;
                out.char(0x20);
              }
            } else {
              out.flush(false);
              olderSpace = newerSpace = true;
              out.whitespace(prev, adv * prev.em, prevEndX, prevEndY);
            }
            if (advY > VERTICAL_SHIFT * prev.height) out.flush(false);
          }
          // Vertical writing: glyphs that follow each other across the baseline, not along it.
          if (textObject === prev.handle) {
            const ax = ox - prevOx;
            const ay = oy - prevOy;
            if (Math.abs(ax * dirX + ay * dirY) < 0.05 * prev.em && Math.abs(-ax * dirY + ay * dirX) > 0.5 * prev.height) unsupported ??= 'vertical writing';
          }
        }
        if (out.start === null) {
          out.begin(obj, decimal(ox), decimal(oy));
          itemFont = font.handle;
          itemSize = fontSize;
          if (!styles[font.id]) styles[font.id] = { fontFamily: font.mono ? 'monospace' : 'sans-serif', vertical: false };
        }
        // pdf.js writes a space where a glyph follows a single space glyph after another glyph.
        const spaced = !olderSpace && newerSpace;
        olderSpace = newerSpace;
        newerSpace = false;
        if (spaced) out.char(0x20);
        out.char(u);
        // Where this glyph's advance ends: the far side of its loose box along the baseline (the
        // advance, or the ink where that reaches further).
        let reach = 0;
        if (x.FPDFText_GetLooseCharBox(tp, i, s + 32)) {
          let hp = this.heap();
          const q = (s + 32) >> 2;
          reach = Math.max(0, farSide(hp.f32[q], hp.f32[q + 3], hp.f32[q + 2], hp.f32[q + 1], ox, oy, dirX, dirY));
          if (x.FPDFText_GetCharBox(tp, i, s + 48, s + 56, s + 64, s + 72)) {
            hp = this.heap();
            const k = (s + 48) >> 3;
            inkEnd = farSide(hp.f64[k], hp.f64[k + 2], hp.f64[k + 1], hp.f64[k + 3], ox, oy, dirX, dirY) >= reach - 0.01;
          }
        }
        prev = obj;
        prevOx = ox;
        prevOy = oy;
        prevEndX = ox + reach * dirX;
        prevEndY = oy + reach * dirY;
        out.reach(prevEndX, prevEndY, dirX, dirY);
      }
      out.flush(false);
      return { items: out.items, styles, unsupported };
    } finally {
      x.FPDFText_ClosePage(tp);
    }
  }

  /** What the characters of the text object of character `i` share: font, size and direction. */
  private textObject(tp: number, i: number, handle: number): TextObjectInfo {
    const x = this.x;
    const s = this.scratch;
    const fontSize = x.FPDFText_GetFontSize(tp, i);
    x.FPDFText_GetMatrix(tp, i, s + 16);
    const h = this.heap();
    const a = h.f32[(s + 16) >> 2];
    const b = h.f32[(s + 20) >> 2];
    const c = h.f32[(s + 24) >> 2];
    const d = h.f32[(s + 28) >> 2];
    const alongLen = Math.hypot(a, b) || 1;
    return {
      handle,
      font: this.font(handle),
      fontSize,
      dirX: a / alongLen,
      dirY: b / alongLen,
      em: fontSize * alongLen,
      height: fontSize * Math.hypot(c, d),
      scale: [decimal(a * fontSize), decimal(b * fontSize), decimal(c * fontSize), decimal(d * fontSize)],
    };
  }
}

/**
 * Which reader takes a PDF's text layer first: `pdfium` (the default) or `pdfjs`
 * (`QUARRY_PDF_TEXT`). pdf.js reads every page PDFium hands back either way.
 */
export function pdfTextReader(): 'pdfium' | 'pdfjs' {
  return process.env.QUARRY_PDF_TEXT === 'pdfjs' ? 'pdfjs' : 'pdfium';
}

/**
 * The PDF's bytes opened in PDFium (which copies them) when it reads text layers first, else (or
 * when it cannot) null.
 */
export async function openPdfium(bytes: Uint8Array): Promise<PdfiumDocument | null> {
  if (pdfTextReader() !== 'pdfium') return null;
  try {
    return await PdfiumDocument.open(bytes);
  } catch {
    return null;
  }
}
