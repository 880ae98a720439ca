import { describe, expect, it } from 'vitest';
import { contentChars, isContentCode } from '@/lib/document/layout';
import { collapseSpaces, isLetterCode, isSpaceCode } from '@/lib/text/classes';

describe('character classes by code point', () => {
  it('agree with the regular expressions they stand for, in every plane', () => {
    const classes = [
      { name: 'letter or digit', test: isContentCode, re: /[\p{L}\p{N}]/u },
      { name: 'letter', test: isLetterCode, re: /\p{L}/u },
      { name: 'space', test: isSpaceCode, re: /\s/u },
    ];
    for (const { name, test, re } of classes) {
      const wrong: number[] = [];
      for (let code = 0; code <= 0x10ffff; code++) {
        // Each code point twice: the first look may fill a cache the second reads.
        const expected = re.test(String.fromCodePoint(code));
        if (test(code) !== expected || test(code) !== expected) wrong.push(code);
      }
      expect(wrong, name).toEqual([]);
    }
  });

  it('count the letters and digits of a line as a Unicode regular expression does, lone surrogates too', () => {
    const samples = ['Straße 12, №5 — ½ Ωmega', '漢字かなカナ한국어 ٣٤ عربي', 'a\u{1d400}b\u{1f600}\u{20000}9', 'x\ud800y\udc00z', '', '  -- ** ||'];
    for (const text of samples) expect(contentChars(text), text).toBe(text.match(/[\p{L}\p{N}]/gu)?.length ?? 0);
  });

  it('collapse white space as replace(/\\s+/g, " ").trim() does', () => {
    const pieces = ['a', 'Wort', ' ', '  ', '\t', '\n', '\u00a0', '\u3000', '\u2009', 'x\u{1f600}', ''];
    // Every sequence of up to four pieces.
    let level = [''];
    const texts = [''];
    for (let len = 1; len <= 4; len++) {
      level = level.flatMap((t) => pieces.map((p) => t + p));
      texts.push(...level);
    }
    const wrong = texts.filter((t) => collapseSpaces(t) !== t.replace(/\s+/g, ' ').trim());
    expect(texts.length).toBeGreaterThan(10_000);
    expect(wrong).toEqual([]);
  });
});
