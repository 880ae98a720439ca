/**
 * Arabic lam-alef ligatures in logical order. A font may map its one lam-alef glyph to two
 * characters ("لا"); pdf.js strings a line's glyphs together in visual order and then reverses the
 * whole line into logical order, which reverses those two characters as well ("خلال" comes out as
 * "خالل", "المشكلات" as "المشكالت"). The text alone cannot tell such a pair from a real alef-lam
 * ("قال", "أعمال"), but the glyphs in the operator list can: each Arabic word drawn with a
 * multi-character glyph is rebuilt glyph by glyph, and its reversed-pair spelling is replaced by
 * the right one in the page's right-to-left text items.
 */

const ARABIC_WORD = /[\p{Script=Arabic}\p{M}]+/gu;
const ARABIC_ONLY = /^[\p{Script=Arabic}\p{M}]+$/u;

interface GlyphLike {
  unicode?: unknown;
}

/** Wrong spelling → right spelling of the words drawn with multi-character Arabic glyphs. */
export function ligatureRepairs(fnArray: ArrayLike<number>, argsArray: ArrayLike<unknown>, showText: number): Map<string, string> {
  const repairs = new Map<string, string>();
  for (let i = 0; i < fnArray.length; i++) {
    if (fnArray[i] !== showText) continue;
    const glyphs = (argsArray[i] as unknown[] | undefined)?.[0];
    if (!Array.isArray(glyphs)) continue;
    let word: string[] = [];
    let ligature = false;
    const flush = () => {
      if (ligature && word.length > 1) {
        const right = word.slice().reverse().join('');
        const wrong = [...word.join('')].reverse().join('');
        if (right !== wrong) repairs.set(wrong, right);
      }
      word = [];
      ligature = false;
    };
    for (const g of glyphs) {
      const unicode = typeof g === 'object' && g !== null ? (g as GlyphLike).unicode : undefined;
      if (typeof unicode === 'string' && unicode.length > 0 && ARABIC_ONLY.test(unicode)) {
        word.push(unicode);
        if ([...unicode].length > 1) ligature = true;
      } else if (typeof g !== 'number') flush(); // spacing adjustments (numbers) do not end a word
    }
    flush();
  }
  return repairs;
}

/** Applies `repairs` to the Arabic words of a right-to-left string. */
export function repairLigatureWords(text: string, repairs: Map<string, string>): string {
  if (repairs.size === 0) return text;
  return text.replace(ARABIC_WORD, (w) => repairs.get(w) ?? w);
}
