/**
 * A PDF writer for text set with ligatures, as typesetting programs write it: "ffi", "ffl", "ff",
 * "fi", "fl" and "Th" are each drawn as one glyph of an embedded TrueType font (DejaVu Sans, which
 * has the U+FB00–FB04 ligatures; its thorn, the old letter for "th", stands in for a Th ligature).
 * What a reader learns of such a glyph's text depends on how the font says it:
 * - `letters`: a Type0 font (Identity-H) whose ToUnicode map gives the glyph its letters
 *   (<0012> <00540068> for "Th"), as word processors write it;
 * - `presentation-forms`: the same, but the map gives the Unicode ligature (U+FB01 for "fi"; "Th",
 *   which has none, keeps its letters), as some PDF producers write it;
 * - `glyph-names`: a simple TrueType font without ToUnicode whose /Differences name the glyphs
 *   (/fi, /fl, /f_f_i, /T_h, /uniFB01…), as LaTeX's Type 1 fonts do.
 */
import { pdfFile, readTrueType, type TrueType } from './pdf-unicode-fixture';

export type LigatureMapping = 'letters' | 'presentation-forms' | 'glyph-names';

export interface LigatureLine {
  x: number;
  /** Baseline, in points from the bottom of the page. */
  y: number;
  text: string;
  size?: number;
}

/** The letter sequences drawn as one glyph, longest first, with the code point of that glyph. */
const LIGATURES: readonly (readonly [string, number])[] = [
  ['ffi', 0xfb03],
  ['ffl', 0xfb04],
  ['ff', 0xfb00],
  ['fi', 0xfb01],
  ['fl', 0xfb02],
  ['Th', 0xde],
];

/** Glyph names of the ligatures in a simple font's /Differences, in the forms PDF producers write. */
export const GLYPH_NAMES: Readonly<Record<string, string>> = { ffi: 'f_f_i', ffl: 'uniFB04', ff: 'ff', fi: 'fi', fl: 'fl', Th: 'T_h' };

/** `text` as the glyphs it is drawn with: the ligatures of `use` as one string each, other letters one by one. */
export function ligatureGlyphs(text: string, use: readonly string[] = LIGATURES.map(([letters]) => letters)): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const lig = LIGATURES.find(([letters]) => use.includes(letters) && text.startsWith(letters, i));
    const glyph = lig ? lig[0] : text[i];
    out.push(glyph);
    i += glyph.length;
  }
  return out;
}

function glyphId(font: TrueType, glyph: string): number {
  const lig = LIGATURES.find(([letters]) => letters === glyph);
  const gid = font.glyph(lig ? lig[1] : glyph.codePointAt(0)!);
  if (gid === 0) throw new Error(`the font has no glyph for "${glyph}"`);
  return gid;
}

const hex = (n: number, w: number) => n.toString(16).padStart(w, '0').toUpperCase();

/** The text a ToUnicode map gives a glyph, as UTF-16BE hex. */
function unicodeHex(glyph: string, mapping: LigatureMapping): string {
  const lig = LIGATURES.find(([letters]) => letters === glyph);
  const text = mapping === 'presentation-forms' && lig && lig[1] >= 0xfb00 ? String.fromCodePoint(lig[1]) : glyph;
  let out = '';
  for (let i = 0; i < text.length; i++) out += hex(text.charCodeAt(i), 4);
  return out;
}

interface FontWriter {
  /** The string operand that draws `glyphs`. */
  show(glyphs: string[]): string;
  /** The font's objects, numbered from `first` (the font dictionary itself). */
  objects(first: number): string[];
}

/** Type0 (Identity-H, glyph ids as codes) with a ToUnicode map of each used glyph. */
function type0Font(font: TrueType, mapping: LigatureMapping): FontWriter {
  const used = new Map<number, string>();
  return {
    show(glyphs) {
      let codes = '';
      for (const g of glyphs) {
        const gid = glyphId(font, g);
        used.set(gid, g);
        codes += hex(gid, 4);
      }
      return `<${codes}>`;
    },
    objects(first) {
      const gids = [...used.keys()].sort((a, b) => a - b);
      const scale = 1000 / font.unitsPerEm;
      const cmap = [
        '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
        '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def',
        '1 begincodespacerange <0000> <FFFF> endcodespacerange',
        `${gids.length} beginbfchar`,
        ...gids.map((g) => `<${hex(g, 4)}> <${unicodeHex(used.get(g)!, mapping)}>`),
        'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
      ].join('\n');
      return [
        `<< /Type /Font /Subtype /Type0 /BaseFont /AAAAAA+DejaVuSans /Encoding /Identity-H /DescendantFonts [${first + 1} 0 R] /ToUnicode ${first + 4} 0 R >>`,
        `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /AAAAAA+DejaVuSans /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${first + 2} 0 R /CIDToGIDMap /Identity /DW 600 /W [${gids.map((g) => `${g} [${Math.round(font.advance(g) * scale)}]`).join(' ')}] >>`,
        descriptor(first + 3, 32),
        fontFile(font),
        `<< /Length ${Buffer.byteLength(cmap, 'latin1')} >>\nstream\n${cmap}\nendstream`,
      ];
    },
  };
}

/** A simple TrueType font: ASCII as WinAnsi, each ligature a code from 128 on named in /Differences; no ToUnicode. */
function simpleFont(font: TrueType, names: Readonly<Record<string, string>>): FontWriter {
  const codes = new Map<string, number>();
  return {
    show(glyphs) {
      let out = '';
      for (const g of glyphs) {
        if (g.length === 1 && !/[ -~]/.test(g)) throw new Error(`"${g}" is not printable ASCII`);
        let code = g.length === 1 ? g.charCodeAt(0) : codes.get(g);
        if (code === undefined) codes.set(g, (code = 128 + codes.size));
        out += hex(code, 2);
      }
      return `<${out}>`;
    },
    objects(first) {
      const last = 127 + codes.size;
      const scale = 1000 / font.unitsPerEm;
      const byCode = new Map([...codes].map(([g, c]) => [c, g]));
      const widths: number[] = [];
      for (let c = 32; c <= last; c++) {
        const g = byCode.get(c) ?? (c < 127 ? String.fromCharCode(c) : null);
        widths.push(g === null ? 0 : Math.round(font.advance(glyphId(font, g)) * scale));
      }
      const differences = [...codes].map(([g, c]) => `${c} /${names[g]}`).join(' ');
      return [
        `<< /Type /Font /Subtype /TrueType /BaseFont /AAAAAA+DejaVuSans /FirstChar 32 /LastChar ${last} /Widths [${widths.join(' ')}] /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [${differences}] >> /FontDescriptor ${first + 1} 0 R >>`,
        descriptor(first + 2, 32),
        fontFile(font),
      ];
    },
  };
}

function descriptor(fileRef: number, flags: number): string {
  return `<< /Type /FontDescriptor /FontName /AAAAAA+DejaVuSans /Flags ${flags} /FontBBox [-1021 -463 1793 1232] /ItalicAngle 0 /Ascent 928 /Descent -236 /CapHeight 729 /StemV 80 /FontFile2 ${fileRef} 0 R >>`;
}

function fontFile(font: TrueType): string {
  return `<< /Length ${font.bytes.length} /Length1 ${font.bytes.length} >>\nstream\n${font.bytes.toString('latin1')}\nendstream`;
}

export interface LigatureOptions {
  /** For `glyph-names`: other names than GLYPH_NAMES' (null: that ligature is drawn as its letters). */
  glyphNames?: Partial<Record<string, string | null>>;
}

/** A one-page letter PDF of `lines` set in the TrueType font `fontPath` (DejaVu Sans) with ligature glyphs. */
export function buildLigaturePdf(lines: LigatureLine[], fontPath: string, mapping: LigatureMapping, opts: LigatureOptions = {}): Uint8Array {
  const font = readTrueType(fontPath);
  const names = { ...GLYPH_NAMES, ...opts.glyphNames };
  const use = mapping === 'glyph-names' ? LIGATURES.map(([letters]) => letters).filter((l) => names[l]) : undefined;
  const writer = mapping === 'glyph-names' ? simpleFont(font, names as Record<string, string>) : type0Font(font, mapping);
  const content = lines.map((l) => `BT /F1 ${l.size ?? 12} Tf ${l.x} ${l.y} Td ${writer.show(ligatureGlyphs(l.text, use))} Tj ET`).join('\n');
  const objects: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
  objects[3] = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>';
  objects[4] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  writer.objects(5).forEach((o, i) => (objects[5 + i] = o));
  return pdfFile(objects);
}
