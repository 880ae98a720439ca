/** Small text helpers shared by the layout and Markdown stages. */

const CJK = /[\u2e80-\u2fdf\u3000-\u30ff\u3100-\u31ff\u3200-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef]/;

export function isCjk(ch: string | undefined): boolean {
  return !!ch && CJK.test(ch);
}

/** Characters that make a text layer unusable: replacement characters, controls, private use. */
// eslint-disable-next-line no-control-regex
const GARBAGE = /[\ufffd\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ue000-\uf8ff]/g;

export function garbageCount(text: string): number {
  return text.match(GARBAGE)?.length ?? 0;
}

// eslint-disable-next-line no-control-regex
const NEEDS_CLEANING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd\t\u00a0\u2000-\u200a\u202f\u205f\u3000]/;

/** Removes characters that can only be noise in Markdown (controls, replacement characters). */
export function cleanText(text: string): string {
  // Most text has none of these: one test instead of two replacements.
  if (!NEEDS_CLEANING.test(text)) return text;
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/g, '').replace(/[\t\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, (c) => (c === '\u3000' ? c : ' '));
}

const LATIN_LIGATURES = /[\ufb00-\ufb06]/g;

/**
 * Latin ligatures (U+FB00–FB06, ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) as the letters they join (their NFKC forms, "ﬅ" too
 * as "st"), so that "deﬁnition" is found as "definition". Other compatibility characters stay.
 */
export function expandLigatures(text: string): string {
  return text.replace(LATIN_LIGATURES, (ch) => ch.normalize('NFKC'));
}

const HYPHENS = /[-\u2010\u00ad]$/;

/**
 * Joins two lines of a re-flowed paragraph: a word split by a hyphen at the end of a line is
 * rejoined ("docu-" + "ment" → "document"), CJK text is joined without a space, anything else
 * with one space.
 */
export function joinLines(prev: string, next: string): string {
  if (!prev) return next;
  if (!next) return prev;
  const p = prev.replace(/\s+$/, '');
  const n = next.replace(/^\s+/, '');
  if (p.endsWith('\u00ad')) return p.slice(0, -1) + n;
  if (HYPHENS.test(p)) {
    const before = p.charAt(p.length - 2);
    const after = n.charAt(0);
    if (/\p{L}/u.test(before) && /\p{Ll}/u.test(after)) return p.slice(0, -1) + n;
    if (/\p{L}/u.test(before) && /\p{L}/u.test(after)) return p + n; // "Jean-" + "Paul": keep the hyphen
  }
  if (isCjk(p.charAt(p.length - 1)) && isCjk(n.charAt(0))) return p + n;
  return `${p} ${n}`;
}

/**
 * Word tokens for comparing two texts regardless of layout: lower-cased words, and character
 * bigrams for scripts written without spaces.
 */
export function tokens(text: string): string[] {
  const out: string[] = [];
  const norm = text.normalize('NFKC').toLowerCase();
  for (const m of norm.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (isCjk(w.charAt(0))) {
      if (w.length === 1) out.push(w);
      for (let i = 0; i + 1 < w.length; i++) out.push(w.slice(i, i + 2));
    } else {
      out.push(w);
    }
  }
  return out;
}

/**
 * Right-to-left text from some producers (Word's Arabic fonts) maps a lam-alef ligature glyph to
 * two characters that end up reversed after bidi reordering ("لا" → "ال"). Alef directly followed
 * by another alef form never occurs in Arabic words, so "ا" + alef + "ل" is such a reversed
 * ligature after the article and can be repaired safely; other cases are ambiguous and kept.
 */
export function repairArabicLigatures(text: string): string {
  return text.replace(/\u0627([\u0627\u0623\u0625\u0622])\u0644/g, '\u0627\u0644$1');
}
