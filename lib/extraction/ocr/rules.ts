/**
 * Ruling lines in a page image: the rules of a scanned table, which the PDF reader's grid
 * detection turns into cells around the OCR words (pdf/ocr/words.ts), as it does with the lines a
 * born-digital PDF draws.
 *
 * A rule is a long, thin stretch of dark pixels: runs of dark pixels along each pixel row
 * (gaps of a pixel or two closed, scan noise), runs of neighbouring rows that overlap joined into
 * one stroke, and a stroke kept when it is long against the text (H_ and V_RULE_MIN_TEXT_HEIGHTS),
 * thin (its mean thickness under RULE_MAX_THICKNESS text heights: a shaded bar or a picture is no
 * rule), a line (isLine: straight, or a little askew, as deskew.ts leaves rules under 0.8°, a
 * staircase of short runs; letters lined up in a column are neither) and not a strip of a filled
 * area (inFilledArea: a shaded bar cut up by its white letters). Vertical rules are found
 * the same way on the raster turned sideways.
 */
import { decodeGreyFile, paperGrey } from './ink';
import type { GreyRaster } from './raster';
import type { OcrRules, OcrWord } from './types';

/** A horizontal rule is at least this many text heights long (a table's row rules span several columns). */
const H_RULE_MIN_TEXT_HEIGHTS = 6;
/** A vertical rule at least this many (a table's column rules span at least two rows of text). */
const V_RULE_MIN_TEXT_HEIGHTS = 2.2;
/** Runs shorter than this many text heights are letter strokes, not pieces of a rule. */
const RUN_MIN_TEXT_HEIGHTS = 0.6;
/** A rule's mean thickness is under this many text heights (thicker is a bar, a block of shading, a picture). */
const RULE_MAX_THICKNESS = 0.35;
/** Beside a rule, this many text heights away, ... */
const RULE_SIDE_DISTANCE = 0.5;
/** ... at most this share of the pixels along it are dark (more: it is a strip of a filled area). */
const RULE_SIDE_MAX_DARK = 0.5;
/** A rule glyph is taken off a word when its edge is this many text heights from a rule or nearer. */
const RULE_GLYPH_REACH = 0.5;
/** Runs of neighbouring rows join into one stroke when the shorter is at least this share of the longer. */
const RUN_MIN_LIKE = 0.5;
/** A straight rule has a pixel row of dark running along this share of it at least. */
const RULE_STRAIGHT_SHARE = 0.5;
/** Gaps in a run up to this many pixels are closed (1 in 1000 of the image's width at least). */
const MIN_GAP_PIXELS = 2;
/** A pixel this much darker than the page's background is ink. */
const INK_CONTRAST = 80;

interface Stroke {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Dark pixels in it. */
  ink: number;
  /** The last pixel row it grew in. */
  last: number;
  /** Its runs' extent in that row, and in the row before (what the next row's runs must touch). */
  lastFrom: number;
  lastTo: number;
  prevFrom: number;
  prevTo: number;
  /** Its runs, as [row, start, end] triples in row order, to tell a line from letters lined up. */
  runs: number[];
}

/**
 * Whether a stroke is a line: straight (one of its pixel rows runs along most of it), or a
 * little askew, a staircase (one run a row, each going on from the one before, all one way).
 * Letters lined up in a column chain into strokes as long as rules, but of many short runs a row.
 */
function isLine(s: Stroke): boolean {
  const length = s.x1 - s.x0 + 1;
  let longest = 0;
  for (let i = 0; i < s.runs.length; i += 3) longest = Math.max(longest, s.runs[i + 2] - s.runs[i + 1] + 1);
  if (longest >= RULE_STRAIGHT_SHARE * length) return true;
  let direction = 0;
  for (let i = 3; i < s.runs.length; i += 3) {
    const [row, start, end] = [s.runs[i], s.runs[i + 1], s.runs[i + 2]];
    const [prevRow, prevStart, prevEnd] = [s.runs[i - 3], s.runs[i - 2], s.runs[i - 1]];
    if (row === prevRow) return false;
    const step = Math.sign(start + end - prevStart - prevEnd);
    if (step !== 0) {
      if (direction !== 0 && step !== direction) return false;
      direction = step;
    }
  }
  return true;
}

/**
 * Whether a stroke is a piece of a filled area rather than a rule: half a text height to one
 * side or the other, most pixels along it are dark too (a shaded header bar cut into strips by
 * its white letters; a rule has the page's background beside it, text at most).
 */
function inFilledArea(raster: GreyRaster, s: Stroke, threshold: number, textHeight: number): boolean {
  const { width, height, grey } = raster;
  const d = Math.max(3, Math.round(RULE_SIDE_DISTANCE * textHeight));
  for (const y of [s.y0 - d, s.y1 + d]) {
    if (y < 0 || y >= height) continue;
    let dark = 0;
    for (let x = s.x0; x <= s.x1; x++) if (grey[y * width + x] < threshold) dark++;
    if (dark > RULE_SIDE_MAX_DARK * (s.x1 - s.x0 + 1)) return true;
  }
  return false;
}

/** A rule in pixels: the box of its stroke, along (x) and across (y) it. */
interface PixelRule {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Long thin horizontal strokes of `raster` (pixel coordinates, end pixels included). */
function horizontalStrokes(raster: GreyRaster, threshold: number, textHeight: number, minLength: number): PixelRule[] {
  const { width, height, grey } = raster;
  const gap = Math.max(MIN_GAP_PIXELS, Math.round(width / 1000));
  const minRun = Math.max(3, Math.round(RUN_MIN_TEXT_HEIGHTS * textHeight));
  const open: Stroke[] = [];
  const done: Stroke[] = [];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let x = 0;
    while (x < width) {
      if (grey[row + x] >= threshold) {
        x++;
        continue;
      }
      const start = x;
      let end = x;
      let ink = 0;
      let misses = 0;
      for (; x < width; x++) {
        if (grey[row + x] < threshold) {
          end = x;
          ink++;
          misses = 0;
        } else if (++misses > gap) break;
      }
      if (end - start + 1 < minRun) continue;
      // Joins the stroke whose runs in the row just above it overlaps or touches (not the
      // stroke's whole extent: that would chain up letters lined up in a column), when they
      // are of a like length.
      let joined: Stroke | null = null;
      for (const s of open) {
        const [from, to] = s.last === y ? [s.prevFrom, s.prevTo] : [s.lastFrom, s.lastTo];
        if (s.last < y - 1 || start > to + gap || end < from - gap) continue;
        // Of a like length: a letter's stroke touching a rule is not part of it.
        if (Math.min(end - start, to - from) + 1 < RUN_MIN_LIKE * (Math.max(end - start, to - from) + 1)) continue;
        joined = s;
        break;
      }
      if (joined) {
        if (joined.last < y) {
          joined.prevFrom = joined.lastFrom;
          joined.prevTo = joined.lastTo;
          joined.lastFrom = start;
          joined.lastTo = end;
        } else {
          joined.lastFrom = Math.min(joined.lastFrom, start);
          joined.lastTo = Math.max(joined.lastTo, end);
        }
        joined.x0 = Math.min(joined.x0, start);
        joined.x1 = Math.max(joined.x1, end);
        joined.y1 = y;
        joined.ink += ink;
        joined.last = y;
        joined.runs.push(y, start, end);
      } else open.push({ x0: start, x1: end, y0: y, y1: y, ink, last: y, lastFrom: start, lastTo: end, prevFrom: start, prevTo: end, runs: [y, start, end] });
    }
    // Strokes that did not grow in this row are finished.
    for (let i = open.length - 1; i >= 0; i--) {
      if (open[i].last < y) {
        done.push(open[i]);
        open.splice(i, 1);
      }
    }
  }
  done.push(...open);
  const out: PixelRule[] = [];
  for (const s of done) {
    const length = s.x1 - s.x0 + 1;
    if (length < minLength) continue;
    if (s.ink / length > RULE_MAX_THICKNESS * textHeight + 1 || !isLine(s) || inFilledArea(raster, s, threshold, textHeight)) continue;
    out.push({ x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1 });
  }
  return out;
}

/** The raster turned sideways (x and y swapped), so that columns can be scanned as rows. */
function transpose({ width, height, grey }: GreyRaster): GreyRaster {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) out[x * height + y] = grey[row + x];
  }
  return { width: height, height: width, grey: out };
}

/** The strokes of a page's ruling lines in pixels: horizontal ones as found, vertical ones with x and y swapped back. */
interface PixelRules {
  h: PixelRule[];
  v: PixelRule[];
}

function findPixelRules(raster: GreyRaster, textHeight: number, threshold: number): PixelRules {
  const h = Math.max(4, textHeight);
  const horizontal = horizontalStrokes(raster, threshold, h, H_RULE_MIN_TEXT_HEIGHTS * h);
  // Found along the rows of the turned raster: x there is y here.
  const vertical = horizontalStrokes(transpose(raster), threshold, h, V_RULE_MIN_TEXT_HEIGHTS * h).map((r) => ({ x0: r.y0, x1: r.y1, y0: r.x0, y1: r.x1 }));
  return { h: horizontal, v: vertical };
}

function inFractions(rules: PixelRules, width: number, height: number): OcrRules {
  return {
    h: rules.h.map((r) => ({ y: (r.y0 + r.y1 + 1) / 2 / height, x0: r.x0 / width, x1: (r.x1 + 1) / width })),
    v: rules.v.map((r) => ({ x: (r.x0 + r.x1 + 1) / 2 / width, y0: r.y0 / height, y1: (r.y1 + 1) / height })),
  };
}

/**
 * The ruling lines of a page image whose text is `textHeight` pixels high (the height of its
 * lines of text, ascenders to descenders), in fractions of the image.
 */
export function findRules(raster: GreyRaster, textHeight: number): OcrRules {
  return inFractions(findPixelRules(raster, textHeight, Math.max(1, paperGrey(raster) - INK_CONTRAST)), raster.width, raster.height);
}

/**
 * The raster with its straight rules painted over in the background's grey, to fit word boxes to
 * their letters' ink alone. Strokes thicker than a straight rule (askew: a staircase) are left,
 * so that no letters under them are wiped.
 */
function eraseRules(raster: GreyRaster, rules: PixelRules, textHeight: number, threshold: number, paper: number): GreyRaster {
  const { width, height } = raster;
  const grey = new Uint8Array(raster.grey);
  const straight = Math.max(3, RULE_MAX_THICKNESS * textHeight + 2);
  const paint = (x0: number, x1: number, y0: number, y1: number) => {
    for (let y = Math.max(0, y0 - 1); y <= Math.min(height - 1, y1 + 1); y++) {
      const row = y * width;
      for (let x = Math.max(0, x0 - 1); x <= Math.min(width - 1, x1 + 1); x++) if (grey[row + x] < threshold + INK_CONTRAST / 2) grey[row + x] = paper;
    }
  };
  for (const r of rules.h) if (r.y1 - r.y0 + 1 <= straight) paint(r.x0, r.x1, r.y0, r.y1);
  for (const r of rules.v) if (r.x1 - r.x0 + 1 <= straight) paint(r.x0, r.x1, r.y0, r.y1);
  return { width, height, grey };
}

/**
 * The words' boxes shrunk to the ink inside them. Tesseract's boxes of some words (bold ones,
 * often) reach several pixels beyond their letters, which would make their line look larger and
 * lower than it is; the ink says where the letters are. A box without ink stays as it is.
 */
export function inkBoxes(raster: GreyRaster, words: readonly OcrWord[], threshold = Math.max(1, paperGrey(raster) - INK_CONTRAST)): OcrWord[] {
  const { width, height, grey } = raster;
  return words.map((w) => {
    const x0 = Math.max(0, Math.floor(w.box[0] * width));
    const x1 = Math.min(width, Math.ceil(w.box[2] * width));
    const y0 = Math.max(0, Math.floor(w.box[1] * height));
    const y1 = Math.min(height, Math.ceil(w.box[3] * height));
    let top = -1;
    let bottom = -1;
    let left = width;
    let right = -1;
    for (let y = y0; y < y1; y++) {
      const row = y * width;
      for (let x = x0; x < x1; x++) {
        if (grey[row + x] >= threshold) continue;
        if (top < 0) top = y;
        bottom = y;
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
    if (top < 0) return w;
    return { ...w, box: [left / width, top / height, (right + 1) / width, (bottom + 1) / height] };
  });
}

/** What the layout of a scanned page takes from its image (imageGeometry). */
export interface ImageGeometry {
  rules: OcrRules;
  /** The words without the rules Tesseract read as letters of them, their boxes fitted to their ink. */
  words: OcrWord[];
}

/** Characters Tesseract reads a rule as: a vertical one beside a cell's text, a horizontal one under it. */
const V_RULE_GLYPHS = /^[|[\](){}‘’'!_]$/u;
const H_RULE_GLYPHS = /^[_—–\-=~]+$/u;

/**
 * The words without what Tesseract read of the rules: a word that is only rule glyphs standing
 * on a rule is left out, and a rule glyph at a word's start or end beside a vertical rule is
 * taken off it ("| 21", "(Denmark", "1997_|"), the box made narrower by its share of the word.
 */
export function withoutRuleGlyphs(words: readonly OcrWord[], rules: OcrRules, size: { width: number; height: number }, textHeight: number): OcrWord[] {
  if (rules.v.length === 0 && rules.h.length === 0) return [...words];
  // How near (fractions of the width) a glyph's edge must be to a vertical rule.
  const near = (RULE_GLYPH_REACH * textHeight) / size.width;
  const vAt = (x: number, top: number, bottom: number) => rules.v.some((v) => Math.abs(v.x - x) <= near && v.y0 <= bottom && v.y1 >= top);
  const onH = (w: OcrWord) => rules.h.some((h) => h.x0 <= w.box[2] && h.x1 >= w.box[0] && Math.abs(h.y - (w.box[1] + w.box[3]) / 2) <= (RULE_GLYPH_REACH * textHeight) / size.height);
  const out: OcrWord[] = [];
  for (const w of words) {
    let chars = [...w.text];
    let [x0, y0, x1, y1] = w.box;
    if (chars.every((c) => V_RULE_GLYPHS.test(c)) && rules.v.some((v) => v.x >= x0 - near && v.x <= x1 + near && v.y0 <= y1 && v.y1 >= y0)) continue;
    if (H_RULE_GLYPHS.test(w.text) && onH(w)) continue;
    const charWidth = (x1 - x0) / Math.max(1, chars.length);
    if (chars.length > 1 && V_RULE_GLYPHS.test(chars[0]) && vAt(x0, y0, y1)) {
      chars = chars.slice(1);
      x0 += charWidth;
    }
    if (chars.length > 1 && V_RULE_GLYPHS.test(chars[chars.length - 1]) && vAt(x1, y0, y1)) {
      chars = chars.slice(0, -1);
      x1 -= charWidth;
    }
    // Underscores run into from a rule under the word.
    while (chars.length > 1 && chars[chars.length - 1] === '_') {
      chars = chars.slice(0, -1);
      x1 -= charWidth;
    }
    out.push(chars.length === [...w.text].length ? w : { ...w, text: chars.join(''), box: [x0, y0, x1, y1] });
  }
  return out;
}

/**
 * What the layout of a scanned page needs from the image file the words were read in (PNG,
 * JPEG, WebP, BMP, GIF): its ruling lines, and the words without the rules read as letters,
 * fitted to their ink with the rules painted out (a word box touching a rule would reach to it).
 * Null when it cannot be decoded here.
 */
export async function imageGeometry(file: string, words: readonly OcrWord[], textHeight: number): Promise<ImageGeometry | null> {
  const raster = await decodeGreyFile(file);
  if (!raster) return null;
  const paper = paperGrey(raster);
  const threshold = Math.max(1, paper - INK_CONTRAST);
  const h = Math.max(4, textHeight);
  const pixels = findPixelRules(raster, h, threshold);
  const rules = inFractions(pixels, raster.width, raster.height);
  const clean = withoutRuleGlyphs(words, rules, raster, h);
  const unruled = pixels.h.length || pixels.v.length ? eraseRules(raster, pixels, h, threshold, paper) : raster;
  return { rules, words: inkBoxes(unruled, clean, threshold) };
}
