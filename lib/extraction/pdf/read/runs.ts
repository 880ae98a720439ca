/**
 * Text items of one page → "runs" in a reading frame. Every item is rotated so that its text
 * runs left to right along x and lines follow each other downwards along y (viewport space, so
 * page /Rotate is applied). Items with the same orientation share a frame: an upright page is one
 * frame; sideways labels or a vertical CJK page get frames of their own.
 */
import { isSpaceCode } from '@/lib/text/classes';
import { multiplyMatrixInto, type Matrix } from './matrix';
import { expandLigatures } from './text';
import { FRAME_ANGLE_STEP, FRAME_QUARTER_TOLERANCE } from '../settings';

export interface Run {
  text: string;
  /** Start and end along the reading direction. */
  x0: number;
  x1: number;
  /** Baseline; grows in reading order (down the page for upright text). */
  y: number;
  /** Font size in points. */
  size: number;
  bold: boolean;
  mono: boolean;
  /** Monospace is a guess from pdf.js's font flags, not from the font's name. */
  monoGuess: boolean;
  rtl: boolean;
  /** Whitespace-only item: pdf.js's own marker of a word space. */
  space: boolean;
}

export interface Frame {
  /** "q0" upright, "q1" rotated 90° clockwise (or vertical writing), "q2", "q3", "a<deg>" other. */
  key: string;
  runs: Run[];
  /** Non-space characters. */
  chars: number;
  /** Extent of the page in this frame (for margin heuristics). */
  width: number;
  height: number;
}

export interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  dir?: string;
}

export interface FontStyleLike {
  fontFamily?: string;
  vertical?: boolean;
}

export interface FontFlags {
  bold: boolean;
  mono: boolean;
}

// "-Medi" is the bold of URW's Nimbus fonts (LaTeX's Times): NimbusRomNo9L-Medi.
const BOLD_NAME = /bold|black|heavy|demi|semibd|extrabd|ultrabd|-medi(?:ital)?$|(?:^|[+\-,_])(?:cmbx|cmssbx|sfbx|cmb\d|ptmb|phvb|pplb)|[-,]bd\b|[-,]b\b/i;
const MONO_NAME = /courier|mono|nimbusmon|consol|menlo|inconsolata|lucidaconsole|cousine|(?:^|[+\-_])(?:cmtt|sftt|lmtt|cmitt|cmsltt|pcrr|pcrb)|typewriter|fixedsys/i;

/** Bold and monospace from a PostScript font name such as "ABCDEF+Helvetica-Bold". */
export function fontFlagsFromName(name: string | undefined | null): FontFlags | null {
  if (!name) return null;
  const base = name.replace(/^[A-Z]{6}\+/, '');
  return { bold: BOLD_NAME.test(base), mono: MONO_NAME.test(base) };
}

const QUARTER = Math.PI / 2;

const QUARTER_KEYS = ['q0', 'q1', 'q2', 'q3'];

/** Scratch for the item matrix buildFrames works with (read out before the next item). */
const itemMatrix: Matrix = [NaN, NaN, NaN, NaN, NaN, NaN];

/** `text.replace(/\s+/g, '').length`, without the copy. */
function nonSpaceUnits(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (!isSpaceCode(text.charCodeAt(i))) n++;
  return n;
}

export function buildFrames(
  items: readonly unknown[],
  styles: Record<string, FontStyleLike | undefined>,
  viewport: { transform: number[]; width: number; height: number },
  fontFlags: (fontName: string) => FontFlags | null,
  /**
   * Unicode normalisation of item text (pdf.js's: presentation forms → letters), applied after
   * bidi reordering and after Latin ligatures are expanded (expandLigatures).
   */
  normalize: (text: string) => string = (t) => t,
): Frame[] {
  const frames = new Map<string, Frame & { cos: number; sin: number }>();
  const flagsCache = new Map<string, FontFlags | null>();
  const vt = viewport.transform;
  for (const raw of items) {
    const item = raw as TextItemLike;
    if (typeof item.str !== 'string' || item.str.length === 0 || !Array.isArray(item.transform)) continue;
    const style = styles[item.fontName];
    const vertical = item.dir === 'ttb' || style?.vertical === true;
    // The item's matrix in viewport space, in one array for every item.
    const m = multiplyMatrixInto(itemMatrix, vt, item.transform);
    const m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5];
    let dx: number, dy: number, size: number, length: number;
    if (vertical) {
      dx = -m2;
      dy = -m3;
      size = Math.hypot(m0, m1);
      length = item.height;
    } else {
      dx = m0;
      dy = m1;
      size = Math.hypot(m2, m3);
      length = item.width;
    }
    if (!(size > 0) || !Number.isFinite(size) || !Number.isFinite(m4) || !Number.isFinite(m5)) continue;
    const theta = Math.atan2(dy, dx);
    const q = Math.round(theta / QUARTER);
    let key: string, angle: number;
    if (Math.abs(theta - q * QUARTER) < FRAME_QUARTER_TOLERANCE) {
      key = QUARTER_KEYS[((q % 4) + 4) % 4];
      angle = q * QUARTER;
    } else {
      const deg = Math.round((theta * 180) / Math.PI / FRAME_ANGLE_STEP) * FRAME_ANGLE_STEP;
      key = `a${deg}`;
      angle = (deg * Math.PI) / 180;
    }
    let frame = frames.get(key);
    if (!frame) {
      const cos = Math.round(Math.cos(angle) * 1e9) / 1e9;
      const sin = Math.round(Math.sin(angle) * 1e9) / 1e9;
      const w = Math.abs(viewport.width * cos) + Math.abs(viewport.height * sin);
      const h = Math.abs(viewport.width * sin) + Math.abs(viewport.height * cos);
      frame = { key, runs: [], chars: 0, width: w, height: h, cos, sin };
      frames.set(key, frame);
    }
    const ox = m4;
    const oy = m5;
    const x = ox * frame.cos + oy * frame.sin;
    const y = -ox * frame.sin + oy * frame.cos;
    let flags = flagsCache.get(item.fontName);
    if (flags === undefined) {
      flags = fontFlags(item.fontName);
      flagsCache.set(item.fontName, flags);
    }
    const space = !/\S/.test(item.str);
    // eslint-disable-next-line no-control-regex
    const text = /[^\u0000-\u007f]/.test(item.str) ? normalize(expandLigatures(item.str)) : item.str;
    const run: Run = {
      text,
      x0: x,
      x1: x + Math.max(0, length || 0),
      y,
      size,
      bold: flags?.bold ?? false,
      mono: flags?.mono ?? false,
      monoGuess: !flags && style?.fontFamily === 'monospace',
      rtl: item.dir === 'rtl',
      space,
    };
    frame.runs.push(run);
    if (!space) frame.chars += nonSpaceUnits(text);
  }
  return [...frames.values()]
    .filter((f) => f.chars > 0)
    .sort((a, b) => b.chars - a.chars)
    .map(({ key, runs, chars, width, height }) => ({ key, runs, chars, width, height }));
}
