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
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGraphicsCollector, type PageGraphics } from './graphics';
import { multiplyMatrix, type Matrix } from './matrix';
import { fontFlagsFromName, type FontFlags, type FontStyleLike, type TextItemLike } from './runs';

/** The raw exports of the WebAssembly module that this reader calls. */
interface Exports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(ptr: number): void;
  FPDF_LoadMemDocument(data: number, size: number, password: number): number;
  FPDF_CloseDocument(doc: number): void;
  FPDF_GetLastError(): number;
  FPDF_GetPageCount(doc: number): number;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDFPage_GetRotation(page: number): number;
  FPDFPage_GetMediaBox(page: number, l: number, b: number, r: number, t: number): number;
  FPDFPage_GetCropBox(page: number, l: number, b: number, r: number, t: number): number;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFPageObj_GetType(obj: number): number;
  FPDFPageObj_GetMatrix(obj: number, matrix: number): number;
  FPDFPageObj_GetStrokeWidth(obj: number, width: number): number;
  FPDFPageObj_GetFillColor(obj: number, r: number, g: number, b: number, a: number): number;
  FPDFPageObj_GetStrokeColor(obj: number, r: number, g: number, b: number, a: number): number;
  FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): number;
  FPDFPath_CountSegments(path: number): number;
  FPDFPath_GetPathSegment(path: number, index: number): number;
  FPDFPathSegment_GetPoint(segment: number, x: number, y: number): number;
  FPDFPathSegment_GetType(segment: number): number;
  FPDFPathSegment_GetClose(segment: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, index: number): number;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(textPage: number): void;
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_IsGenerated(textPage: number, index: number): number;
  FPDFText_HasUnicodeMapError(textPage: number, index: number): number;
  FPDFText_GetTextObject(textPage: number, index: number): number;
  FPDFText_GetFontSize(textPage: number, index: number): number;
  FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number;
  FPDFText_GetMatrix(textPage: number, index: number, matrix: number): number;
  FPDFText_GetLooseCharBox(textPage: number, index: number, rect: number): number;
  FPDFText_GetCharBox(textPage: number, index: number, left: number, right: number, bottom: number, top: number): number;
  FPDFTextObj_GetFont(textObject: number): number;
  FPDFFont_GetBaseFontName(font: number, buffer: number, length: number): number;
  FPDFFont_GetFlags(font: number): number;
}

interface PdfiumModule {
  pdfium: { wasmExports: Exports };
  PDFiumExt_Init(): void;
}

let loaded: Promise<Exports> | null = null;

/** Loads and starts PDFium once per thread. */
export function loadPdfium(): Promise<Exports> {
  loaded ??= (async () => {
    const require = createRequire(pathToFileURL(path.join(process.cwd(), 'package.json')).href);
    const wasmPath = require.resolve('@embedpdf/pdfium/pdfium.wasm');
    const wasmBinary = await fs.promises.readFile(wasmPath);
    const { init } = (await import('@embedpdf/pdfium')) as unknown as { init(o: { wasmBinary: ArrayBuffer }): Promise<PdfiumModule> };
    const mod = await init({ wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer });
    mod.PDFiumExt_Init();
    return mod.pdfium.wasmExports;
  })();
  loaded.catch(() => {
    loaded = null;
  });
  return loaded;
}

/** Object types of FPDFPageObj_GetType. */
const OBJ_TEXT = 1;
const OBJ_PATH = 2;
const OBJ_IMAGE = 3;
const OBJ_FORM = 5;
/** Segment types of FPDFPathSegment_GetType. */
const SEG_LINETO = 0;
const SEG_BEZIERTO = 1;
const SEG_MOVETO = 2;
/** The FixedPitch flag of a font descriptor. */
const FIXED_PITCH = 1;
/** pdf.js's spacing thresholds, in ems of the glyph before (see readText). */
const NEGATIVE_SPACE = -0.2;
const NOT_A_SPACE = 0.03;
const TRACKING_SPACE = 0.102;
const SPACE_IN_FLOW_MAX = 0.6;
const VERTICAL_SHIFT = 0.25;

/** Scripts written right to left: pdf.js reorders them into logical order, PDFium does not. */
const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

export interface PdfiumPage {
  /** Text items shaped like pdf.js's (`str`, `transform`, `width`, `height`, `fontName`, `dir`). */
  items: TextItemLike[];
  styles: Record<string, FontStyleLike>;
  /** pdf.js's viewport at scale 1 for the page (crop box, /Rotate applied). */
  viewport: { transform: number[]; width: number; height: number };
  /** Why pdf.js must read this page instead, or null. */
  unsupported: string | null;
}

/** What the characters of one text object share. */
interface TextObjectInfo {
  handle: number;
  font: FontEntry | null;
  fontSize: number;
  dirX: number;
  dirY: number;
  em: number;
  height: number;
  scale: readonly number[];
}

interface FontEntry {
  handle: number;
  id: string;
  flags: FontFlags | null;
  mono: boolean;
}

/** A document opened in PDFium. Not thread-safe: one per thread. */
export class PdfiumDocument {
  private readonly fonts = new Map<number, FontEntry>();
  private readonly flagsById = new Map<string, FontFlags | null>();
  private readonly scratch: number;
  private closed = false;
  private failed = false;
  /** The text object of the last character read (vertical writing shows within one object). */
  private lastObject = 0;

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
   * Page `n` (1-based): its text as pdf.js-shaped items, and its graphics when `wantGraphics`.
   * Throws when PDFium cannot load the page.
   */
  readPage(n: number, wantGraphics: (items: TextItemLike[]) => boolean): PdfiumPage & { graphics: PageGraphics | null } {
    if (this.failed) throw new Error('PDFium stopped on an earlier page of this document');
    this.lastObject = 0;
    const x = this.x;
    try {
      const page = x.FPDF_LoadPage(this.doc, n - 1);
      if (!page) throw new Error(`PDFium could not load page ${n} (error ${x.FPDF_GetLastError()})`);
      try {
        const { viewport, view } = this.viewport(page);
        const text = this.readText(page, view);
        const graphics = text.unsupported === null && wantGraphics(text.items) ? this.readGraphics(page, viewport) : null;
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
        loaded = null;
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
      return this.readGraphics(page, this.viewport(page).viewport);
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
  private viewport(page: number): { viewport: PdfiumPage['viewport']; view: readonly number[] } {
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
    const items: TextItemLike[] = [];
    const styles: Record<string, FontStyleLike> = {};
    const tp = x.FPDFText_LoadPage(page);
    if (!tp) return { items, styles, unsupported: 'PDFium could not read the text' };
    try {
      const count = x.FPDFText_CountChars(tp);
      let unsupported: string | null = null;
      // The item being built.
      let str = '';
      let start: Matrix | null = null;
      let fontId = '';
      let itemFont = 0;
      let itemSize = 0;
      // The glyph before: where its advance ends, its em along the baseline and its height.
      let prevEndX = 0;
      let prevEndY = 0;
      let havePrev = false;
      let prevOx = 0;
      let prevOy = 0;
      let prevDirX = 1;
      let prevDirY = 0;
      /** The glyph before ended where its ink did (see below). */
      let inkEnd = false;
      let prevEm = 0;
      let prevFontSize = 1;
      let prevScale: readonly number[] = [1, 0, 0, 1];
      let obj: TextObjectInfo = { handle: -1, font: null, fontSize: 0, dirX: 1, dirY: 0, em: 0, height: 0, scale: [1, 0, 0, 1] };
      let prevHeight = 0;
      let lastItem: (TextItemLike & { hasEOL?: boolean }) | null = null;
      // pdf.js's two last characters (a space glyph seen since the last glyph counts as ' ').
      let older = ' ';
      let newer = ' ';
      const resetLast = () => {
        older = newer = ' ';
      };
      const saveLast = (ch: string): boolean => {
        const ret = older !== ' ' && newer === ' ';
        older = newer;
        newer = ch;
        return ret;
      };
      const flush = (eol = false) => {
        if (start && str) {
          lastItem = { str, transform: start, width: Math.max(0, itemEnd), height: Math.hypot(start[2], start[3]), fontName: fontId, dir: 'ltr', hasEOL: eol };
          items.push(lastItem);
        } else if (eol && lastItem) {
          lastItem.hasEOL = true;
        }
        str = '';
        start = null;
      };
      // pdf.js's whitespace item: at the end of the glyph before, as wide as the gap in units of
      // the text matrix (not scaled by the font size).
      const whitespace = (gap: number) => {
        const [a, b, c, d] = prevScale;
        items.push({ str: ' ', transform: [a, b, c, d, decimal(prevEndX), decimal(prevEndY)], width: Math.abs(gap) / (prevEm / prevFontSize || 1), height: 0, fontName: fontId, dir: 'ltr' });
      };
      let itemEnd = 0;
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
        if (inkEnd && textObject === this.lastObject) {
          // The glyph before ended where its ink did, which may reach past its advance (an
          // italic f): the advance ends no later than where the next character of its text
          // object starts.
          const along = (ox - prevOx) * prevDirX + (oy - prevOy) * prevDirY;
          const reach = (prevEndX - prevOx) * prevDirX + (prevEndY - prevOy) * prevDirY;
          if (along >= 0 && along < reach) {
            prevEndX = prevOx + along * prevDirX;
            prevEndY = prevOy + along * prevDirY;
          }
        }
        inkEnd = false;
        if (u === 0x20 || u === 0x09 || u === 0xa0 || u === 0x0a || u === 0x0d || u === 0x3000) {
          saveLast(' ');
          continue;
        }
        if (ox < view[0] || ox > view[2] || oy < view[1] || oy > view[3]) continue;
        if (x.FPDFText_HasUnicodeMapError(tp, i) === 1) unsupported ??= 'characters without a Unicode mapping';
        const ch = u > 0xffff ? String.fromCodePoint(u) : String.fromCharCode(u);
        if (RTL_CHAR.test(ch)) unsupported ??= 'right-to-left text';
        // Characters of one glyph (a ligature PDFium splits into its letters) share its origin.
        if (start && havePrev && ox === prevOx && oy === prevOy && textObject === this.lastObject) {
          str += ch;
          continue;
        }
        // Font, size and matrix belong to the text object: read once per object.
        if (textObject !== obj.handle || !obj.font) {
          const fontSize = x.FPDFText_GetFontSize(tp, i);
          x.FPDFText_GetMatrix(tp, i, s + 16);
          const h = this.heap();
          const a = h.f32[(s + 16) >> 2];
          const b = h.f32[(s + 20) >> 2];
          const c = h.f32[(s + 24) >> 2];
          const d = h.f32[(s + 28) >> 2];
          const alongLen = Math.hypot(a, b) || 1;
          obj = {
            handle: textObject,
            font: this.font(textObject),
            fontSize,
            dirX: a / alongLen,
            dirY: b / alongLen,
            em: fontSize * alongLen,
            height: fontSize * Math.hypot(c, d),
            scale: [decimal(a * fontSize), decimal(b * fontSize), decimal(c * fontSize), decimal(d * fontSize)],
          };
        }
        const { fontSize, dirX, dirY, em, height } = obj;
        const font = obj.font as FontEntry;
        if (start && (font.handle !== itemFont || fontSize !== itemSize)) flush();
        if (havePrev) {
          const dx = ox - prevEndX;
          const dy = oy - prevEndY;
          const adv = (dx * dirX + dy * dirY) / (prevEm || 1);
          const advY = Math.abs(-dx * dirY + dy * dirX);
          if (adv < NEGATIVE_SPACE) {
            resetLast();
            flush(advY > 0.5 * prevHeight);
          } else if (advY > prevHeight) {
            resetLast();
            flush(true);
          } else {
            if (adv <= NOT_A_SPACE) resetLast();
            if (adv <= TRACKING_SPACE) {
              if (older !== ' ' && newer === ' ') {
                resetLast();
                flush();
                whitespace(adv * prevEm);
              }
            } else if (adv <= SPACE_IN_FLOW_MAX) {
              if (start) {
                resetLast();
                str += ' ';
              }
            } else {
              flush();
              resetLast();
              whitespace(adv * prevEm);
            }
            if (advY > VERTICAL_SHIFT * prevHeight) flush();
          }
          // Vertical writing: glyphs that follow each other across the baseline, not along it.
          if (textObject === this.lastObject) {
            const ax = ox - prevOx;
            const ay = oy - prevOy;
            if (Math.abs(ax * dirX + ay * dirY) < 0.05 * prevEm && Math.abs(-ax * dirY + ay * dirX) > 0.5 * prevHeight) unsupported ??= 'vertical writing';
          }
        }
        if (!start) {
          start = [obj.scale[0], obj.scale[1], obj.scale[2], obj.scale[3], decimal(ox), decimal(oy)];
          itemEnd = 0;
          itemFont = font.handle;
          itemSize = fontSize;
          fontId = font.id;
          if (!styles[fontId]) styles[fontId] = { fontFamily: font.mono ? 'monospace' : 'sans-serif', vertical: false };
        }
        if (saveLast(ch)) str += ' ';
        str += ch;
        this.lastObject = textObject;
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
        prevDirX = dirX;
        prevDirY = dirY;
        prevFontSize = fontSize;
        prevScale = obj.scale;
        prevOx = ox;
        prevOy = oy;
        prevEndX = ox + reach * dirX;
        prevEndY = oy + reach * dirY;
        prevEm = em;
        prevHeight = height;
        havePrev = true;
        const s0 = start as Matrix;
        itemEnd = Math.max(itemEnd, (prevEndX - s0[4]) * dirX + (prevEndY - s0[5]) * dirY);
      }
      flush();
      return { items, styles, unsupported };
    } finally {
      x.FPDFText_ClosePage(tp);
    }
  }

  private readGraphics(page: number, viewport: PdfiumPage['viewport']): PageGraphics {
    const x = this.x;
    const s = this.scratch;
    const collector = createGraphicsCollector(viewport);
    const color = (fn: 'FPDFPageObj_GetFillColor' | 'FPDFPageObj_GetStrokeColor', obj: number) => {
      if (!x[fn](obj, s + 64, s + 68, s + 72, s + 76)) return { white: false, clear: false };
      const [r, g, b, a] = new Uint32Array(x.memory.buffer, s + 64, 4);
      return { white: r === 255 && g === 255 && b === 255, clear: a === 0 };
    };
    const visit = (obj: number, outer: readonly number[]) => {
      const type = x.FPDFPageObj_GetType(obj);
      if (type !== OBJ_PATH && type !== OBJ_IMAGE && type !== OBJ_FORM) return;
      if (!x.FPDFPageObj_GetMatrix(obj, s + 96)) return;
      const m = Array.from(this.f32(s + 96, 6));
      const ctm = multiplyMatrix(outer, m);
      if (type === OBJ_IMAGE) {
        collector.image(ctm);
      } else if (type === OBJ_FORM) {
        const n = x.FPDFFormObj_CountObjects(obj);
        for (let i = 0; i < n; i++) visit(x.FPDFFormObj_GetObject(obj, i), ctm);
      } else {
        if (!x.FPDFPath_GetDrawMode(obj, s + 128, s + 132)) return;
        const [fillMode, strokeOn] = new Int32Array(x.memory.buffer, s + 128, 2);
        const fill = color('FPDFPageObj_GetFillColor', obj);
        const stroke = color('FPDFPageObj_GetStrokeColor', obj);
        const lineWidth = x.FPDFPageObj_GetStrokeWidth(obj, s + 136) ? this.f32(s + 136, 1)[0] : 1;
        const data: number[] = [];
        const n = x.FPDFPath_CountSegments(obj);
        for (let i = 0; i < n; i++) {
          const seg = x.FPDFPath_GetPathSegment(obj, i);
          if (!seg || !x.FPDFPathSegment_GetPoint(seg, s + 144, s + 148)) continue;
          const [px, py] = this.f32(s + 144, 2);
          const kind = x.FPDFPathSegment_GetType(seg);
          if (kind === SEG_MOVETO) data.push(0, px, py);
          else if (kind === SEG_LINETO) data.push(1, px, py);
          else if (kind === SEG_BEZIERTO) {
            // Three points per curve; only the last (the end point) is a vertex.
            if (i + 2 < n) {
              const endSeg = x.FPDFPath_GetPathSegment(obj, i + 2);
              if (endSeg && x.FPDFPathSegment_GetPoint(endSeg, s + 144, s + 148)) {
                const [ex, ey] = this.f32(s + 144, 2);
                data.push(3, 0, 0, ex, ey);
                if (x.FPDFPathSegment_GetClose(endSeg)) data.push(4);
              }
              i += 2;
              continue;
            }
          }
          if (x.FPDFPathSegment_GetClose(seg)) data.push(4);
        }
        collector.path(ctm, lineWidth, {
          stroke: strokeOn !== 0,
          fill: fillMode !== 0,
          strokeWhite: stroke.white || stroke.clear,
          fillWhite: fill.white || fill.clear,
        }, data);
      }
    };
    const n = x.FPDFPage_CountObjects(page);
    for (let i = 0; i < n; i++) {
      const obj = x.FPDFPage_GetObject(page, i);
      if (obj && x.FPDFPageObj_GetType(obj) !== OBJ_TEXT) visit(obj, viewport.transform);
    }
    return collector.result();
  }
}

/**
 * Which reader takes a PDF's text layer first: `pdfium` (the default) or `pdfjs`
 * (`QUARRY_PDF_TEXT`). pdf.js reads every page PDFium hands back either way.
 */
export function pdfTextReader(): 'pdfium' | 'pdfjs' {
  return process.env.QUARRY_PDF_TEXT === 'pdfjs' ? 'pdfjs' : 'pdfium';
}

/** The file opened in PDFium when it reads text layers first, else (or when it cannot) null. */
export async function openPdfium(file: string): Promise<PdfiumDocument | null> {
  if (pdfTextReader() !== 'pdfium') return null;
  try {
    return await PdfiumDocument.open(new Uint8Array(await fs.promises.readFile(file)));
  } catch {
    return null;
  }
}

/** How far along (dirX, dirY) from (ox, oy) the rectangle [l, r] × [b, t] reaches. */
function farSide(l: number, b: number, r: number, t: number, ox: number, oy: number, dirX: number, dirY: number): number {
  return Math.max((l - ox) * dirX, (r - ox) * dirX) + Math.max((b - oy) * dirY, (t - oy) * dirY);
}

/**
 * PDFium computes in 32-bit floats: 13.9691 comes out as 13.969099998474121, and sizes or
 * positions that pdf.js (64-bit) sees as equal would differ. The shortest decimal that is the same
 * 32-bit float is the number the document wrote.
 */
export function decimal(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  const f = Math.fround(v);
  // Whole numbers and up to six decimals (positions and sizes in points), without strings.
  for (let k = 0, scale = 1; k <= 6; k++, scale *= 10) {
    const d = Math.round(v * scale) / scale;
    if (Math.fround(d) === f) return d;
  }
  for (let digits = 8; digits <= 9; digits++) {
    const d = Number(v.toPrecision(digits));
    if (Math.fround(d) === f) return d;
  }
  return v;
}

/** pdf.js's PageViewport transform at scale 1 for a view box and rotation (degrees). */
export function pdfjsViewport(view: readonly number[], rotation: number): PdfiumPage['viewport'] {
  const [x0, y0, x1, y1] = view;
  const centerX = (x1 + x0) / 2;
  const centerY = (y1 + y0) / 2;
  let a: number, b: number, c: number, d: number;
  switch (((rotation % 360) + 360) % 360) {
    case 90:
      [a, b, c, d] = [0, 1, 1, 0];
      break;
    case 180:
      [a, b, c, d] = [-1, 0, 0, 1];
      break;
    case 270:
      [a, b, c, d] = [0, -1, -1, 0];
      break;
    default:
      [a, b, c, d] = [1, 0, 0, -1];
  }
  let offsetX: number, offsetY: number, width: number, height: number;
  if (a === 0) {
    offsetX = Math.abs(centerY - y0);
    offsetY = Math.abs(centerX - x0);
    width = Math.abs(y1 - y0);
    height = Math.abs(x1 - x0);
  } else {
    offsetX = Math.abs(centerX - x0);
    offsetY = Math.abs(centerY - y0);
    width = Math.abs(x1 - x0);
    height = Math.abs(y1 - y0);
  }
  return { transform: [a, b, c, d, offsetX - a * centerX - c * centerY, offsetY - b * centerX - d * centerY], width, height };
}
