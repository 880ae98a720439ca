/**
 * A PDF writer for text beyond WinAnsi (Hebrew, Greek, Cyrillic…): an installed TrueType font is
 * embedded whole as a CIDFontType2 (Identity-H, glyph ids as character codes) with a ToUnicode
 * map, the way word processors write such text. Right-to-left runs are drawn in visual order
 * (the string reversed, digit and Latin runs kept left to right), as PDF producers draw them, so
 * a reader has to restore the logical order. No shaping: scripts whose letters change form
 * (Arabic) need a real layout engine and are not supported here.
 */
import fs from 'node:fs';
import type { PdfLine } from '@/lib/extraction/pdf/run/writer';

export interface UnicodeText {
  x: number;
  /** Baseline, in points from the bottom of the page. */
  y: number;
  text: string;
  size?: number;
  bold?: boolean;
  /** Right-aligned at `x` instead of starting there. */
  alignRight?: boolean;
}

/** An installed TrueType font: its bytes, and its glyph ids and advances (in font units). */
export interface TrueType {
  bytes: Buffer;
  unitsPerEm: number;
  glyph(codePoint: number): number;
  advance(gid: number): number;
}

export function readTrueType(file: string): TrueType {
  const bytes = fs.readFileSync(file);
  const tables = new Map<string, number>();
  const count = bytes.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    tables.set(bytes.toString('latin1', at, at + 4), bytes.readUInt32BE(at + 8));
  }
  const head = tables.get('head')!;
  const hhea = tables.get('hhea')!;
  const hmtx = tables.get('hmtx')!;
  const cmap = tables.get('cmap')!;
  const metrics = bytes.readUInt16BE(hhea + 34);
  // The Unicode BMP subtable (format 4) of the cmap.
  let sub = -1;
  for (let i = 0; i < bytes.readUInt16BE(cmap + 2); i++) {
    const at = cmap + 4 + i * 8;
    const platform = bytes.readUInt16BE(at);
    const encoding = bytes.readUInt16BE(at + 2);
    const offset = cmap + bytes.readUInt32BE(at + 4);
    if (bytes.readUInt16BE(offset) === 4 && (platform === 0 || (platform === 3 && encoding === 1))) sub = offset;
  }
  if (sub < 0) throw new Error(`${file} has no Unicode BMP cmap`);
  const segX2 = bytes.readUInt16BE(sub + 6);
  const ends = sub + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const ranges = deltas + segX2;
  return {
    bytes,
    unitsPerEm: bytes.readUInt16BE(head + 18),
    glyph(cp) {
      for (let s = 0; s < segX2; s += 2) {
        if (cp > bytes.readUInt16BE(ends + s)) continue;
        const start = bytes.readUInt16BE(starts + s);
        if (cp < start) return 0;
        const delta = bytes.readInt16BE(deltas + s);
        const range = bytes.readUInt16BE(ranges + s);
        if (range === 0) return (cp + delta) & 0xffff;
        const g = bytes.readUInt16BE(ranges + s + range + 2 * (cp - start));
        return g === 0 ? 0 : (g + delta) & 0xffff;
      }
      return 0;
    },
    advance(gid) {
      return bytes.readUInt16BE(hmtx + 4 * Math.min(gid, metrics - 1));
    },
  };
}

const RTL = /[\u0590-\u05ff\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]/;

/**
 * Arabic-script letters' contextual forms from the Presentation Forms blocks: consecutive code
 * points that decompose to the same letter are its isolated, final, initial and medial forms (two
 * for letters that join only to the preceding one). Built from Unicode's own decompositions.
 */
const ARABIC_FORMS: Map<string, string[]> = (() => {
  const forms = new Map<string, string[]>();
  for (const [from, to] of [[0xfb50, 0xfbff], [0xfe80, 0xfefc]]) {
    for (let cp = from; cp <= to; cp++) {
      const ch = String.fromCodePoint(cp);
      const base = ch.normalize('NFKC');
      if (base.length !== 1 || base === ch || !/[\u0600-\u06ff]/.test(base)) continue;
      const list = forms.get(base) ?? [];
      // Only the first run of forms (Forms-A also holds other, unrelated variants further on).
      if (list.length && list[list.length - 1].codePointAt(0)! !== cp - 1) continue;
      list.push(ch);
      forms.set(base, list);
    }
  }
  return forms;
})();

/**
 * Shapes Arabic-script text as a layout engine would (no ligatures): each letter becomes its
 * presentation form for how it joins its neighbours. Returns pairs of the glyph's code point and
 * the letter it stands for (the ToUnicode map gives the letter, as word processors write it).
 */
export function shapeArabic(text: string): { glyph: string; letter: string }[] {
  const chars = [...text];
  const dual = (ch: string | undefined) => (ch ? (ARABIC_FORMS.get(ch)?.length ?? 0) >= 4 : false);
  const joins = (ch: string | undefined) => (ch ? ARABIC_FORMS.has(ch) : false);
  return chars.map((ch, i) => {
    const forms = ARABIC_FORMS.get(ch);
    if (!forms) return { glyph: ch, letter: ch };
    const fromPrev = dual(chars[i - 1]);
    const toNext = forms.length >= 4 && joins(chars[i + 1]);
    const form = fromPrev && toNext ? forms[3] : fromPrev ? forms[1] : toNext ? forms[2] : forms[0];
    return { glyph: form, letter: ch };
  });
}
const STRONG_LTR = /[A-Za-z0-9]/;

/** Visual order of one line: right-to-left lines reversed, runs of digits and Latin kept as they are. */
export function visualOrder(text: string): string {
  if (!RTL.test(text)) return text;
  const chars = [...text];
  const out: string[] = [];
  let i = chars.length - 1;
  while (i >= 0) {
    if (STRONG_LTR.test(chars[i])) {
      let j = i;
      while (j > 0 && (STRONG_LTR.test(chars[j - 1]) || (/[.,:\-/ ]/.test(chars[j - 1]) && j > 1 && STRONG_LTR.test(chars[j - 2])))) j--;
      out.push(...chars.slice(j, i + 1));
      i = j - 1;
    } else {
      const c = chars[i];
      out.push(c === '(' ? ')' : c === ')' ? '(' : c);
      i--;
    }
  }
  return out.join('');
}

function fontObjects(font: TrueType, used: Map<number, number>, first: number, name: string): { objects: string[]; ref: string } {
  // first: Type0, first+1: CIDFont, first+2: descriptor, first+3: font file, first+4: ToUnicode.
  const gids = [...used.keys()].sort((a, b) => a - b);
  const scale = 1000 / font.unitsPerEm;
  const widths = gids.map((g) => `${g} [${Math.round(font.advance(g) * scale)}]`).join(' ');
  const hex = (n: number, w: number) => n.toString(16).padStart(w, '0');
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    `${gids.length} beginbfchar`,
    ...gids.map((g) => `<${hex(g, 4)}> <${hex(used.get(g)!, 4)}>`),
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const file = font.bytes.toString('latin1');
  return {
    ref: `${first} 0 R`,
    objects: [
      `<< /Type /Font /Subtype /Type0 /BaseFont /${name} /Encoding /Identity-H /DescendantFonts [${first + 1} 0 R] /ToUnicode ${first + 4} 0 R >>`,
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${first + 2} 0 R /CIDToGIDMap /Identity /DW 600 /W [${widths}] >>`,
      `<< /Type /FontDescriptor /FontName /${name} /Flags 32 /FontBBox [-1000 -400 2000 1200] /ItalicAngle 0 /Ascent 900 /Descent -250 /CapHeight 700 /StemV 80 /FontFile2 ${first + 3} 0 R >>`,
      `<< /Length ${font.bytes.length} /Length1 ${font.bytes.length} >>\nstream\n${file}\nendstream`,
      `<< /Length ${Buffer.byteLength(cmap, 'latin1')} >>\nstream\n${cmap}\nendstream`,
    ],
  };
}

/**
 * A PDF of letter pages with `texts` set in the TrueType fonts `regular` and `bold` (file paths,
 * e.g. DejaVu Sans, which has Hebrew, Greek and Cyrillic), and each page's stroked `lines`.
 */
export function buildUnicodePdf(pages: UnicodeText[][], fonts: { regular: string; bold: string }, lines: PdfLine[][] = []): Uint8Array {
  const faces = [readTrueType(fonts.regular), readTrueType(fonts.bold)];
  const used = [new Map<number, number>(), new Map<number, number>()];
  const contents = pages.map((texts, i) =>
    texts
      .map((t) => {
        const face = t.bold ? 1 : 0;
        const size = t.size ?? 10;
        let codes = '';
        let width = 0;
        // Arabic letters are shaped (in logical order), then the whole line put in visual order.
        const shaped = shapeArabic(t.text);
        const letterOf = new Map(shaped.map((s) => [s.glyph, s.letter]));
        for (const ch of visualOrder(shaped.map((s) => s.glyph).join(''))) {
          const cp = ch.codePointAt(0)!;
          const gid = faces[face].glyph(cp);
          used[face].set(gid, (letterOf.get(ch) ?? ch).codePointAt(0)!);
          codes += gid.toString(16).padStart(4, '0');
          width += (faces[face].advance(gid) / faces[face].unitsPerEm) * size;
        }
        const x = t.alignRight ? t.x - width : t.x;
        return `BT /F${face + 1} ${size} Tf ${x.toFixed(2)} ${t.y} Td <${codes}> Tj ET`;
      })
      .concat((lines[i] ?? []).map((l) => `${l.width ?? 0.5} w ${l.x1} ${l.y1} m ${l.x2} ${l.y2} l S`))
      .join('\n'),
  );
  const objects: string[] = [];
  const pageStart = 3;
  const fontStart = pageStart + pages.length * 2;
  const f1 = fontObjects(faces[0], used[0], fontStart, 'AAAAAA+Sans');
  const f2 = fontObjects(faces[1], used[1], fontStart + 5, 'AAAAAB+Sans-Bold');
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageStart + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  contents.forEach((content, i) => {
    const n = pageStart + i * 2;
    objects[n] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${f1.ref} /F2 ${f2.ref} >> >> /Contents ${n + 1} 0 R >>`;
    objects[n + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  [...f1.objects, ...f2.objects].forEach((o, i) => (objects[fontStart + i] = o));
  return pdfFile(objects);
}

/**
 * A PDF file of numbered objects (`objects[n]` is object n; 1 is the catalog), with a classic
 * cross-reference table at exact byte offsets.
 */
export function pdfFile(objects: readonly string[]): Uint8Array {
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let n = 1; n < objects.length; n++) {
    offsets[n] = Buffer.byteLength(out, 'latin1');
    out += `${n} 0 obj\n${objects[n]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let n = 1; n < objects.length; n++) out += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}
