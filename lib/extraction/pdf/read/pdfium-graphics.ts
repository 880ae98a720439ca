/**
 * Ruling lines and images of a page read from PDFium's path, image and form objects, collected as
 * pdf.js's operator-list analysis collects them (graphics.ts).
 */
import { createGraphicsCollector, type PageGraphics } from './graphics';
import { multiplyMatrix } from './matrix';
import type { Exports } from './pdfium-module';
import type { Viewport } from './pdfium-numbers';

/** Object types of FPDFPageObj_GetType. */
const OBJ_TEXT = 1;
const OBJ_PATH = 2;
const OBJ_IMAGE = 3;
const OBJ_FORM = 5;
/** Segment types of FPDFPathSegment_GetType. */
const SEG_LINETO = 0;
const SEG_BEZIERTO = 1;
const SEG_MOVETO = 2;

/** The page's ruling lines and images; `s` points to at least 160 bytes of scratch memory in the module. */
export function readPdfiumGraphics(x: Exports, s: number, page: number, viewport: Viewport): PageGraphics {
  const f32 = (ptr: number, n: number) => new Float32Array(x.memory.buffer, ptr, n);
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
    const m = Array.from(f32(s + 96, 6));
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
      const lineWidth = x.FPDFPageObj_GetStrokeWidth(obj, s + 136) ? f32(s + 136, 1)[0] : 1;
      const data: number[] = [];
      const n = x.FPDFPath_CountSegments(obj);
      for (let i = 0; i < n; i++) {
        const seg = x.FPDFPath_GetPathSegment(obj, i);
        if (!seg || !x.FPDFPathSegment_GetPoint(seg, s + 144, s + 148)) continue;
        const [px, py] = f32(s + 144, 2);
        const kind = x.FPDFPathSegment_GetType(seg);
        if (kind === SEG_MOVETO) data.push(0, px, py);
        else if (kind === SEG_LINETO) data.push(1, px, py);
        else if (kind === SEG_BEZIERTO) {
          // Three points per curve; only the last (the end point) is a vertex.
          if (i + 2 < n) {
            const endSeg = x.FPDFPath_GetPathSegment(obj, i + 2);
            if (endSeg && x.FPDFPathSegment_GetPoint(endSeg, s + 144, s + 148)) {
              const [ex, ey] = f32(s + 144, 2);
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
