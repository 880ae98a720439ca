import { describe, expect, it } from 'vitest';
import { analyze } from '@/lib/search/analyze';
import { isStopWord, normalizeText, segment, stemWord, wordRuns, words } from '@/lib/text/words';

const runs = (text: string) => wordRuns(text).map((r) => `${r.text}:${r.kind}`);

describe('words', () => {
  it('reads Latin text in lower case, split at everything but letters, marks and digits', () => {
    expect(words('Hello, World! The quick-brown fox jumps_over the lazy dog.')).toEqual([
      'hello', 'world', 'the', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'lazy', 'dog',
    ]);
    expect(runs('Search engines')).toEqual(['search:latin', 'engines:latin']);
  });

  it('keeps digits, splits numbers and abbreviations at periods, and marks letter-digit mixes as other', () => {
    expect(words('e.g. 3.5 kg in 2024 (v2.1), 10,000 euros')).toEqual(['e', 'g', '3', '5', 'kg', 'in', '2024', 'v2', '1', '10', '000', 'euros']);
    expect(runs('2024 v2 sha256')).toEqual(['2024:other', 'v2:other', 'sha256:other']);
  });

  it('splits at apostrophes, straight or curly, the same way everywhere', () => {
    expect(words("O'Brien's")).toEqual(['o', 'brien', 's']);
    expect(words('don’t')).toEqual(['don', 't']);
    expect(words("o'brien")).toEqual(words('O’Brien'));
  });

  it('ignores emoji, symbols and punctuation', () => {
    expect(words('👍 🚀 — …!? ★ © § → ∑ 🇯🇵')).toEqual([]);
    expect(words('ok👍done #tag @user 50%')).toEqual(['ok', 'done', 'tag', 'user', '50']);
  });

  it('normalises with NFKC: fullwidth letters and digits, halfwidth kana, ligatures', () => {
    expect(normalizeText('ＡＢＣ')).toBe('abc');
    expect(runs('ＡＢＣ１２３ Ｑｕａｒｒｙ ｶﾀｶﾅ ﬁle')).toEqual(['abc123:other', 'quarry:latin', 'カタカナ:cjk', 'file:latin']);
  });

  it('keeps accented letters and other scripts whole, with their combining marks', () => {
    expect(runs('Café Straße Привет नमस्ते العربية')).toEqual([
      'café:other', 'straße:other', 'привет:other', 'नमस्ते:other', 'العربية:other',
    ]);
  });

  it('cuts mixed CJK and Latin text where the script changes, and segments the CJK runs', () => {
    expect(runs('API接口の設計 v2')).toEqual(['api:latin', '接口の設計:cjk', 'v2:other']);
    const list = words('API接口の設計 v2');
    expect(list[0]).toBe('api');
    expect(list.at(-1)).toBe('v2');
    expect(list.slice(1, -1).join('')).toBe('接口の設計');
    expect(list.length).toBeGreaterThan(3);
    expect(runs('東京タワー2024年')).toEqual(['東京タワー:cjk', '2024:other', '年:cjk']);
    // The prolonged sound mark and the middle dot: one belongs to katakana words, the other separates them.
    expect(words('データベース・サーバー')).toEqual(['データベース', 'サーバー']);
  });

  it('segments a CJK run the same way wherever it appears', () => {
    const alone = words('向量数据库支持快速检索');
    expect(alone.length).toBeGreaterThan(1);
    expect(words('今天 向量数据库支持快速检索。Fine')).toEqual(['今天', ...alone, 'fine']);
    expect(segment('向量数据库支持快速检索')).toEqual(alone);
  });

  it('segments Thai, which has no spaces', () => {
    expect(runs('ภาษาไทยง่ายนิดเดียว')).toEqual(['ภาษาไทยง่ายนิดเดียว:cjk']);
    const list = words('ภาษาไทยง่ายนิดเดียว');
    expect(list.length).toBeGreaterThan(2);
    expect(list.join('')).toBe('ภาษาไทยง่ายนิดเดียว');
  });

  it('reads Korean by its spaces, with digits apart', () => {
    expect(runs('한국어 데이터베이스는 2024년')).toEqual(['한국어:cjk', '데이터베이스는:cjk', '2024:other', '년:cjk']);
    expect(words('한국어 데이터베이스는')).toEqual(['한국어', '데이터베이스는']);
  });

  it('segments Lao, Khmer and Myanmar runs without bigramming them', () => {
    expect(runs('ພາສາລາວ ភាសាខ្មែរ မြန်မာ').map((r) => r.split(':')[1])).toEqual(['unspaced', 'unspaced', 'unspaced']);
    expect(words('ພາສາລາວ').join('')).toBe('ພາສາລາວ');
  });

  it('knows stop words and Porter stems', () => {
    for (const word of ['the', 'of', 'and', '的', 'の']) expect(isStopWord(word)).toBe(true);
    for (const word of ['invoice', 'database', '数据']) expect(isStopWord(word)).toBe(false);
    expect(stemWord('indexing')).toBe('index');
    expect(stemWord('indexes')).toBe('index');
    expect(stemWord('indexed')).toBe('index');
  });
});

describe('analyze', () => {
  it('stems Latin words and drops English stop words; splits at apostrophes and periods', () => {
    expect(analyze("The indexing of O'Brien's files, e.g. 3.5 MB")).toEqual(['index', 'o', 'brien', 's', 'file', 'e', 'g', '3', '5', 'mb']);
  });

  it('turns CJK runs into overlapping bigrams across the segmenter cuts; a lone character stays a unigram', () => {
    expect(analyze('语义搜索')).toEqual(['语义', '义搜', '搜索']);
    expect(analyze('向量数据库用于语义搜索')).toEqual(expect.arrayContaining(['语义', '义搜', '搜索']));
    expect(analyze('日')).toEqual(['日']);
    expect(analyze('数据，库')).toEqual(['数据', '库']);
    expect(analyze('ภาษาไทย')).toEqual(['ภา', 'าษ', 'ษา', 'าไ', 'ไท', 'ทย']);
  });

  it('keeps digits and other scripts, and drops terms longer than 64 characters', () => {
    expect(analyze('Привет 2024 café')).toEqual(['привет', '2024', 'café']);
    expect(analyze(`${'a'.repeat(65)} ok ${'b'.repeat(64)}`)).toEqual(['ok', 'b'.repeat(64)]);
  });

  it('reads fullwidth text like the same text in ASCII', () => {
    expect(analyze('Ｉｎｄｅｘｉｎｇ ＡＰＩ')).toEqual(analyze('indexing api'));
  });
});
