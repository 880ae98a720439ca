/**
 * A tiny PDF writer: pages of text in the standard 14 fonts (Helvetica, Helvetica-Bold, Courier;
 * WinAnsi encoding, so no font files are embedded), stroked lines, rectangles and an optional grey
 * image (a stand-in for a scanned page, or the scan itself). It writes a classic cross-reference table with exact byte
 * offsets, so strict readers open the files without repairing them. The extraction worker warms
 * up on a document written with it (warm-up.ts); the tests build their PDFs with it.
 */
import zlib from 'node:zlib';

export type PdfFontStyle = 'regular' | 'bold' | 'mono';

export interface PdfText {
  /** Baseline start, in points from the bottom-left corner. */
  x: number;
  y: number;
  text: string;
  size?: number;
  font?: PdfFontStyle;
}

export interface PdfLine {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width?: number;
}

export interface PdfRect {
  x: number;
  y: number;
  w: number;
  h: number;
  /** Filled instead of stroked. */
  fill?: boolean;
}

export interface PdfPageSpec {
  width?: number;
  height?: number;
  /** /Rotate of the page (0, 90, 180, 270). */
  rotate?: number;
  /** A /CropBox [0 0 w h] inside the media box (viewers show only this part). */
  crop?: { w: number; h: number };
  texts?: PdfText[];
  lines?: PdfLine[];
  rects?: PdfRect[];
  /**
   * Paints an image over this rectangle: a small grey checkerboard (like a scanned page without
   * a text layer), or `grey`, one byte a pixel from black (0) to white (255), row by row from the top.
   */
  image?: { x: number; y: number; w: number; h: number; grey?: { width: number; height: number; pixels: Uint8Array } };
}

export interface PdfInfo {
  title?: string;
  author?: string;
  /** A PDF date string such as "D:20230101120000+01'00'" (written as is). */
  creationDate?: string;
}

const FONT_RESOURCE: Record<PdfFontStyle, string> = { regular: 'F1', bold: 'F2', mono: 'F3' };
const FONT_BASE: Record<PdfFontStyle, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold', mono: 'Courier' };

// Advance widths (1/1000 em) of the printable ASCII range 32..126 from the Adobe AFM files.
// prettier-ignore
const HELVETICA = [278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584];
// prettier-ignore
const HELVETICA_BOLD = [278,333,474,556,556,889,722,238,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,333,333,584,584,584,611,975,722,722,722,722,667,611,778,722,278,556,722,611,833,722,778,667,778,722,667,611,722,667,944,667,667,611,333,278,333,584,556,333,556,611,556,611,556,333,611,611,278,278,556,278,889,611,611,611,611,389,556,333,611,556,778,556,556,500,389,280,389,584];

/** Characters outside ASCII that WinAnsiEncoding has, with their code and Helvetica width. */
const WIN_ANSI_EXTRA: Record<string, [code: number, width: number]> = {
  '•': [0x95, 350],
  '–': [0x96, 556],
  '—': [0x97, 1000],
  '‘': [0x91, 222],
  '’': [0x92, 222],
  '“': [0x93, 333],
  '”': [0x94, 333],
  'é': [0xe9, 556],
  'ü': [0xfc, 556],
};

function charWidth(ch: string, font: PdfFontStyle): number {
  if (font === 'mono') return 600;
  const extra = WIN_ANSI_EXTRA[ch];
  if (extra) return extra[1];
  const code = ch.charCodeAt(0);
  const table = font === 'bold' ? HELVETICA_BOLD : HELVETICA;
  return code >= 32 && code <= 126 ? table[code - 32] : 556;
}

/** Width of `text` in points at `size`. */
export function textWidth(text: string, size: number, font: PdfFontStyle = 'regular'): number {
  let units = 0;
  for (const ch of text) units += charWidth(ch, font);
  return (units * size) / 1000;
}

/** Greedy line breaking of `text` into lines no wider than `width` points. */
export function wrapText(text: string, width: number, size: number, font: PdfFontStyle = 'regular'): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && textWidth(candidate, size, font) > width) {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current) lines.push(current);
  return lines;
}

/**
 * Lays `text` out as a left-aligned paragraph starting at baseline `y` and returns the runs plus
 * the baseline below the paragraph (one blank line of `leading` after it).
 */
export function paragraph(
  text: string,
  opts: { x: number; y: number; width: number; size?: number; font?: PdfFontStyle; leading?: number; gapAfter?: number },
): { texts: PdfText[]; y: number } {
  const size = opts.size ?? 10;
  const leading = opts.leading ?? size * 1.2;
  const texts: PdfText[] = [];
  let y = opts.y;
  for (const line of wrapText(text, opts.width, size, opts.font)) {
    texts.push({ x: opts.x, y, text: line, size, font: opts.font });
    y -= leading;
  }
  return { texts, y: y - (opts.gapAfter ?? leading * 0.6) };
}

function escapePdfString(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '(' || ch === ')' || ch === '\\') out += `\\${ch}`;
    else if (WIN_ANSI_EXTRA[ch]) out += `\\${WIN_ANSI_EXTRA[ch][0].toString(8).padStart(3, '0')}`;
    else {
      const code = ch.charCodeAt(0);
      out += code >= 32 && code <= 126 ? ch : '?';
    }
  }
  return out;
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

function contentStream(page: PdfPageSpec): string {
  const ops: string[] = [];
  if (page.image) {
    const { x, y, w, h } = page.image;
    ops.push(`q ${fmt(w)} 0 0 ${fmt(h)} ${fmt(x)} ${fmt(y)} cm /Im1 Do Q`);
  }
  for (const r of page.rects ?? []) {
    ops.push(`${fmt(r.x)} ${fmt(r.y)} ${fmt(r.w)} ${fmt(r.h)} re ${r.fill ? 'f' : 'S'}`);
  }
  for (const l of page.lines ?? []) {
    ops.push(`${fmt(l.width ?? 0.5)} w ${fmt(l.x1)} ${fmt(l.y1)} m ${fmt(l.x2)} ${fmt(l.y2)} l S`);
  }
  for (const t of page.texts ?? []) {
    const font = FONT_RESOURCE[t.font ?? 'regular'];
    ops.push(`BT /${font} ${fmt(t.size ?? 10)} Tf ${fmt(t.x)} ${fmt(t.y)} Td (${escapePdfString(t.text)}) Tj ET`);
  }
  return ops.join('\n');
}

/** Builds a complete PDF file. */
export function buildPdf(pages: PdfPageSpec[], info: PdfInfo = {}): Uint8Array {
  // Object numbers: 1 catalog, 2 pages, 3..5 fonts, 6 image, 7 info, then 2 per page.
  const objects: string[] = [];
  const set = (num: number, body: string) => {
    objects[num] = body;
  };
  const firstPage = 8;
  const kids = pages.map((_, i) => `${firstPage + i * 2} 0 R`).join(' ');
  set(1, '<< /Type /Catalog /Pages 2 0 R >>');
  set(2, `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  (['regular', 'bold', 'mono'] as const).forEach((style, i) => {
    set(3 + i, `<< /Type /Font /Subtype /Type1 /BaseFont /${FONT_BASE[style]} /Encoding /WinAnsiEncoding >>`);
  });
  // An 8x8 grey checkerboard image.
  let pixels = '';
  for (let i = 0; i < 64; i++) pixels += ((i + Math.floor(i / 8)) % 2 ? 'c0' : '60');
  set(6, `<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /ASCIIHexDecode /Length ${pixels.length + 1} >>\nstream\n${pixels}>\nendstream`);
  const infoEntries: string[] = [];
  if (info.title !== undefined) infoEntries.push(`/Title (${escapePdfString(info.title)})`);
  if (info.author !== undefined) infoEntries.push(`/Author (${escapePdfString(info.author)})`);
  if (info.creationDate !== undefined) infoEntries.push(`/CreationDate (${escapePdfString(info.creationDate)})`);
  set(7, `<< ${infoEntries.join(' ')} >>`);
  // Pages' own images after the pages, deflated (the stream written byte for byte in latin1).
  let nextObject = firstPage + pages.length * 2;
  const pageImages = pages.map((page) => {
    const grey = page.image?.grey;
    if (!grey) return 6;
    const data = zlib.deflateSync(Buffer.from(grey.pixels.buffer, grey.pixels.byteOffset, grey.width * grey.height)).toString('latin1');
    const num = nextObject++;
    set(num, `<< /Type /XObject /Subtype /Image /Width ${grey.width} /Height ${grey.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n${data}\nendstream`);
    return num;
  });
  pages.forEach((page, i) => {
    const num = firstPage + i * 2;
    const content = contentStream(page);
    const rotate = (page.rotate ? ` /Rotate ${page.rotate}` : '') + (page.crop ? ` /CropBox [0 0 ${fmt(page.crop.w)} ${fmt(page.crop.h)}]` : '');
    set(
      num,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${fmt(page.width ?? 612)} ${fmt(page.height ?? 792)}]${rotate} ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> /XObject << /Im1 ${pageImages[i]} 0 R >> >> /Contents ${num + 1} 0 R >>`,
    );
    set(num + 1, `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  });

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let num = 1; num < objects.length; num++) {
    offsets[num] = Buffer.byteLength(out, 'latin1');
    out += `${num} 0 obj\n${objects[num]}\nendobj\n`;
  }
  const xrefOffset = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let num = 1; num < objects.length; num++) out += `${String(offsets[num]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}
