/**
 * What the extractor needs from a page's operator list: ruling lines (for bordered tables) and
 * how much of the page images cover (for deciding whether a page is a scan). Coordinates are in
 * viewport space (y grows downwards, page rotation applied), like the upright text frame.
 */
import { multiplyMatrix } from './matrix';
import { BOX_MAX_PAGE_SHARE, RULE_MAX_FILL_WIDTH, RULE_MAX_SLANT, RULE_MAX_STROKE, RULE_MIN_LENGTH } from '../settings';

export interface HLine {
  y: number;
  x0: number;
  x1: number;
}

export interface VLine {
  x: number;
  y0: number;
  y1: number;
}

export interface PageGraphics {
  hLines: HLine[];
  vLines: VLine[];
  /** Number of images painted. */
  images: number;
  /** Fraction of the page area covered by the largest image (0–1). */
  largestImage: number;
}

export interface OperatorListLike {
  fnArray: ArrayLike<number>;
  argsArray: ArrayLike<unknown>;
}

type Ops = Record<string, number>;

interface State {
  ctm: number[];
  lineWidth: number;
  fillWhite: boolean;
  strokeWhite: boolean;
}

function isWhite(color: unknown): boolean {
  return typeof color === 'string' && /^#?f{6}$/i.test(color.trim());
}

/** Paint of a path: which of stroke and fill it uses, and whether each is invisible (white). */
export interface PathPaint {
  stroke: boolean;
  fill: boolean;
  strokeWhite: boolean;
  fillWhite: boolean;
}

/**
 * Collects ruling lines and image coverage from paths and images in device space. Shared by the
 * pdf.js operator-list reader below and the PDFium reader (pdfium.ts). Path data uses pdf.js's
 * encoding: 0 moveTo x y, 1 lineTo x y, 2 curveTo x1 y1 x2 y2 x y, 3 curveTo2 x2 y2 x y,
 * 4 closePath.
 */
export function createGraphicsCollector(viewport: { transform: number[]; width: number; height: number }) {
  const hLines: HLine[] = [];
  const vLines: VLine[] = [];
  let images = 0;
  let largestImage = 0;
  const pageArea = Math.max(1, viewport.width * viewport.height);
  const addSegment = (ax: number, ay: number, bx: number, by: number, thickness: number) => {
    if (thickness > RULE_MAX_STROKE) return;
    const dx = Math.abs(bx - ax);
    const dy = Math.abs(by - ay);
    if (dy <= RULE_MAX_SLANT && dx >= RULE_MIN_LENGTH) hLines.push({ y: (ay + by) / 2, x0: Math.min(ax, bx), x1: Math.max(ax, bx) });
    else if (dx <= RULE_MAX_SLANT && dy >= RULE_MIN_LENGTH) vLines.push({ x: (ax + bx) / 2, y0: Math.min(ay, by), y1: Math.max(ay, by) });
  };

  const path = (c: readonly number[], lineWidth: number, paint: PathPaint, data: ArrayLike<number>) => {
    if (!paint.stroke && !paint.fill) return;
    const useStroke = paint.stroke && !paint.strokeWhite;
    const useFill = paint.fill && !paint.fillWhite;
    if (!useStroke && !useFill) return;
    const scale = Math.sqrt(Math.abs(c[0] * c[3] - c[1] * c[2])) || 1;
    const thickness = lineWidth * scale;
    // Points of the current subpath (device space); `straight` turns false on curves.
    let pts: number[] = [];
    let straight = true;
    const flush = (closed: boolean) => {
      if (pts.length >= 4) {
        if (useStroke) {
          for (let i = 0; i + 3 < pts.length; i += 2) addSegment(pts[i], pts[i + 1], pts[i + 2], pts[i + 3], thickness);
          if (closed) addSegment(pts[pts.length - 2], pts[pts.length - 1], pts[0], pts[1], thickness);
        }
        if (useFill && straight) addFilledPolygon(pts);
      }
      pts = [];
      straight = true;
    };
    const addFilledPolygon = (p: number[]) => {
      // Only axis-aligned rectangles (4 corners, optionally repeated first point).
      let n = p.length / 2;
      if (n === 5 && Math.abs(p[0] - p[8]) < 0.5 && Math.abs(p[1] - p[9]) < 0.5) n = 4;
      if (n !== 4) return;
      let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
      for (let i = 0; i < 8; i += 2) {
        minX = Math.min(minX, p[i]);
        maxX = Math.max(maxX, p[i]);
        minY = Math.min(minY, p[i + 1]);
        maxY = Math.max(maxY, p[i + 1]);
      }
      for (let i = 0; i < 8; i += 2) {
        const onX = Math.abs(p[i] - minX) < 0.5 || Math.abs(p[i] - maxX) < 0.5;
        const onY = Math.abs(p[i + 1] - minY) < 0.5 || Math.abs(p[i + 1] - maxY) < 0.5;
        if (!onX || !onY) return;
      }
      const w = maxX - minX;
      const h = maxY - minY;
      if (h <= RULE_MAX_FILL_WIDTH && w >= RULE_MIN_LENGTH) hLines.push({ y: (minY + maxY) / 2, x0: minX, x1: maxX });
      else if (w <= RULE_MAX_FILL_WIDTH && h >= RULE_MIN_LENGTH) vLines.push({ x: (minX + maxX) / 2, y0: minY, y1: maxY });
      else if (w > RULE_MAX_FILL_WIDTH && h > RULE_MAX_FILL_WIDTH && w * h < pageArea * BOX_MAX_PAGE_SHARE) {
        hLines.push({ y: minY, x0: minX, x1: maxX }, { y: maxY, x0: minX, x1: maxX });
        vLines.push({ x: minX, y0: minY, y1: maxY }, { x: maxX, y0: minY, y1: maxY });
      }
    };
    for (let i = 0; i < data.length; ) {
      const op = data[i];
      if (op === 0) {
        flush(false);
        const [x, y] = apply(c, data[i + 1], data[i + 2]);
        pts.push(x, y);
        i += 3;
      } else if (op === 1) {
        const [x, y] = apply(c, data[i + 1], data[i + 2]);
        pts.push(x, y);
        i += 3;
      } else if (op === 2) {
        straight = false;
        const [x, y] = apply(c, data[i + 5], data[i + 6]);
        flush(false);
        pts.push(x, y);
        i += 7;
      } else if (op === 3) {
        straight = false;
        const [x, y] = apply(c, data[i + 3], data[i + 4]);
        flush(false);
        pts.push(x, y);
        i += 5;
      } else if (op === 4) {
        flush(true);
        i += 1;
      } else {
        break; // unknown encoding: stop reading this path
      }
    }
    flush(false);
  };

  const image = (c: readonly number[]) => {
    images++;
    // The unit square in image space → its bounding box on the page.
    const xs = [c[4], c[0] + c[4], c[2] + c[4], c[0] + c[2] + c[4]];
    const ys = [c[5], c[1] + c[5], c[3] + c[5], c[1] + c[3] + c[5]];
    const w = Math.min(viewport.width, Math.max(...xs)) - Math.max(0, Math.min(...xs));
    const h = Math.min(viewport.height, Math.max(...ys)) - Math.max(0, Math.min(...ys));
    if (w > 0 && h > 0) largestImage = Math.max(largestImage, Math.min(1, (w * h) / pageArea));
  };
  return { path, image, result: (): PageGraphics => ({ hLines, vLines, images, largestImage }) };
}

export function analyzeOperatorList(
  opList: OperatorListLike,
  OPS: Ops,
  viewport: { transform: number[]; width: number; height: number },
): PageGraphics {
  const collector = createGraphicsCollector(viewport);
  const stack: State[] = [];
  let st: State = { ctm: viewport.transform.slice(), lineWidth: 1, fillWhite: false, strokeWhite: false };
  const push = () => stack.push({ ...st, ctm: st.ctm.slice() });
  const pop = () => {
    const prev = stack.pop();
    if (prev) st = prev;
  };
  const STROKES = new Set([OPS.stroke, OPS.closeStroke]);
  const FILLS = new Set([OPS.fill, OPS.eoFill]);
  const BOTH = new Set([OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const IMAGES = new Set(
    [OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageXObjectRepeat, OPS.paintImageMaskXObject, OPS.paintInlineImageXObjectGroup].filter(
      (v) => v !== undefined,
    ),
  );
  const handlePath = (paintOp: number, data: ArrayLike<number>) => {
    const stroke = STROKES.has(paintOp) || BOTH.has(paintOp);
    const fill = FILLS.has(paintOp) || BOTH.has(paintOp);
    collector.path(st.ctm, st.lineWidth, { stroke, fill, strokeWhite: st.strokeWhite, fillWhite: st.fillWhite }, data);
  };

  const { fnArray, argsArray } = opList;
  const n = fnArray.length;
  for (let i = 0; i < n; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save:
        push();
        break;
      case OPS.restore:
        pop();
        break;
      case OPS.transform:
        if (args && args.length >= 6) st.ctm = multiplyMatrix(st.ctm, args as number[]);
        break;
      case OPS.paintFormXObjectBegin: {
        push();
        const matrix = args?.[0] as number[] | null | undefined;
        if (matrix && matrix.length >= 6) st.ctm = multiplyMatrix(st.ctm, Array.from(matrix));
        break;
      }
      case OPS.paintFormXObjectEnd:
        pop();
        break;
      case OPS.beginGroup: {
        push();
        const group = args?.[0] as { matrix?: number[] } | undefined;
        if (group?.matrix && group.matrix.length >= 6) st.ctm = multiplyMatrix(st.ctm, Array.from(group.matrix));
        break;
      }
      case OPS.endGroup:
        pop();
        break;
      case OPS.setLineWidth:
        if (typeof args?.[0] === 'number') st.lineWidth = args[0];
        break;
      case OPS.setFillRGBColor:
        st.fillWhite = isWhite(args?.[0]);
        break;
      case OPS.setStrokeRGBColor:
        st.strokeWhite = isWhite(args?.[0]);
        break;
      case OPS.setFillTransparent:
        st.fillWhite = true;
        break;
      case OPS.setStrokeTransparent:
        st.strokeWhite = true;
        break;
      case OPS.constructPath: {
        const paintOp = args?.[0] as number;
        const data = (args?.[1] as unknown[] | undefined)?.[0] as ArrayLike<number> | null | undefined;
        if (data && data.length) handlePath(paintOp, data);
        break;
      }
      default:
        if (IMAGES.has(fn)) collector.image(st.ctm);
    }
  }
  return collector.result();
}

function apply(m: readonly number[], x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}
