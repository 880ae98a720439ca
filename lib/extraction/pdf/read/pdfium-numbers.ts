/**
 * Numbers of PDFium's reading in the form pdf.js gives them: its 32-bit values as the decimals the
 * document wrote, and pdf.js's viewport of a page's view box.
 */

/** pdf.js's viewport at scale 1 for a page (crop box, /Rotate applied). */
export interface Viewport {
  transform: number[];
  width: number;
  height: number;
}

/** How far along (dirX, dirY) from (ox, oy) the rectangle [l, r] × [b, t] reaches. */
export function farSide(l: number, b: number, r: number, t: number, ox: number, oy: number, dirX: number, dirY: number): number {
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
export function pdfjsViewport(view: readonly number[], rotation: number): Viewport {
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
