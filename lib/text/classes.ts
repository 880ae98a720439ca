/**
 * Membership tests of Unicode character classes by code point, for code that looks at every
 * character of a document: ASCII is decided by its ranges, other characters of the Basic
 * Multilingual Plane are tested against the class once each and remembered, and the rest are
 * tested every time. A regular expression per character cost the PDF layout and Markdown stages
 * more than the rest of their work on those characters.
 */
export function codeClass(pattern: RegExp, ascii: (code: number) => boolean): (code: number) => boolean {
  // 0: not yet known, 1: not in the class, 2: in it.
  const known = new Uint8Array(0x10000);
  return (code) => {
    if (code < 0x80) return ascii(code);
    if (code > 0xffff) return pattern.test(String.fromCodePoint(code));
    let k = known[code];
    if (k === 0) known[code] = k = pattern.test(String.fromCharCode(code)) ? 2 : 1;
    return k === 2;
  };
}

const asciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** `\p{L}`: a letter of any script. */
export const isLetterCode = codeClass(/\p{L}/u, asciiLetter);

/** `[\p{L}\p{N}]`: a letter or a digit of any script. */
export const isLetterOrDigitCode = codeClass(/[\p{L}\p{N}]/u, (c) => (c >= 0x30 && c <= 0x39) || asciiLetter(c));

/** `\s`: what JavaScript's regular expressions and `trim` count as white space. */
export const isSpaceCode = codeClass(/\s/, (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d));

/**
 * `text.replace(/\s+/g, ' ').trim()`, without the copy when the text already has single spaces
 * between words and none at its ends (most lines of a document).
 */
export function collapseSpaces(text: string): string {
  let prevSpace = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x20) {
      if (prevSpace) return text.replace(/\s+/g, ' ').trim();
      prevSpace = true;
    } else if (isSpaceCode(code)) return text.replace(/\s+/g, ' ').trim();
    else prevSpace = false;
  }
  return prevSpace && text.length > 0 ? text.replace(/\s+/g, ' ').trim() : text;
}
