import { stemmer } from 'stemmer';
import { eng, jpn, tha, zho } from 'stopword';

declare module 'stopword' {
  /** Chinese stop words. */
  export const zho: string[];
  /** Japanese stop words. */
  export const jpn: string[];
  /** Thai stop words. */
  export const tha: string[];
}

/*
 * The words of a text, as keyword analysis and the built-in embedder both read them.
 *  - The text is NFKC-normalised and lower-cased first, so fullwidth "ＡＢＣ" reads "abc".
 *  - Word characters are letters, combining marks and digits. Everything else separates words:
 *    spaces, punctuation, symbols and emoji, and also apostrophes, periods, hyphens and underscores
 *    inside a word ("o'brien's" → o, brien, s; "e.g." → e, g; "3.5" → 3, 5; "snake_case" → snake,
 *    case), the same way in every text, so a query splits exactly as the chunk it should match.
 *  - A run of word characters is also cut where it changes between the script groups of `RunKind`
 *    ("api接口" → "api", "接口").
 *  - Chinese, Japanese, Thai, Lao, Khmer and Myanmar put no spaces between words: `segment` cuts such
 *    a run with Intl.Segmenter, looking at the run alone, so the same run always yields the same
 *    words whatever surrounds it. Only these runs pay for the segmenter; the rest is one regex scan.
 *  - Stop words (English, Chinese, Japanese, Thai) and Porter stems of Latin-letter words are here
 *    too, shared by both readers.
 */

/**
 * - latin: ASCII letters only (English stop words and stemming apply).
 * - cjk: Chinese, Japanese (kana included), Korean and Thai, which are matched by character bigrams.
 * - unspaced: Lao, Khmer and Myanmar, written without spaces but not bigrammed.
 * - other: anything else (digits, accented or mixed letters and digits, other scripts).
 */
export type RunKind = 'latin' | 'cjk' | 'unspaced' | 'other';

/** A run of word characters of one kind, in the normalised text. */
export interface Run {
  text: string;
  kind: RunKind;
}

/** A letter or digit of a CJK script (Script_Extensions, so the kana prolonged sound mark ー counts). */
const CJK_CHAR = String.raw`(?=[\p{L}\p{N}])[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}]`;
const UNSPACED_CHAR = String.raw`(?=[\p{L}\p{N}])[\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]`;
/**
 * One run per match: group 1 a run of other word characters (ASCII tested first, as it is the
 * common case), group 2 a CJK run, group 3 an unspaced run. Combining marks stay with their run.
 */
const RUN = new RegExp(
  String.raw`((?:[a-z0-9]|(?!${CJK_CHAR}|${UNSPACED_CHAR})[\p{L}\p{M}\p{N}])+)|((?:${CJK_CHAR}\p{M}*)+)|((?:${UNSPACED_CHAR}\p{M}*)+)`,
  'gu',
);
const LATIN = /^[a-z]+$/;

/** One set for all four lists: English entries are a–z, the others CJK or Thai, so they cannot clash. */
const STOPWORDS = new Set([...eng, ...zho, ...jpn, ...tha].map((word) => word.normalize('NFKC')));
/** Stems already computed, forgotten all at once when this many: texts keep reusing their vocabulary. */
const STEM_CACHE_SIZE = 50_000;
const stems = new Map<string, string>();

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** The form every tokenizer reads: NFKC, lower case. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The runs of word characters of a text, in order. */
export function wordRuns(text: string): Run[] {
  const normalized = normalizeText(text);
  const runs: Run[] = [];
  RUN.lastIndex = 0;
  for (let m = RUN.exec(normalized); m !== null; m = RUN.exec(normalized)) {
    if (m[1] !== undefined) runs.push({ text: m[1], kind: LATIN.test(m[1]) ? 'latin' : 'other' });
    else if (m[2] !== undefined) runs.push({ text: m[2], kind: 'cjk' });
    else runs.push({ text: m[3], kind: 'unspaced' });
  }
  return runs;
}

/** The words of one CJK or unspaced run, as Intl.Segmenter cuts it (the run itself if one character long). */
export function segment(run: string): string[] {
  if (run.length === 1) return [run];
  const out: string[] = [];
  for (const part of segmenter.segment(run)) {
    if (part.isWordLike) out.push(part.segment);
  }
  return out;
}

/** Splits a run into words when its script needs a segmenter; other runs are words already. */
export function runWords(run: Run): string[] {
  return run.kind === 'cjk' || run.kind === 'unspaced' ? segment(run.text) : [run.text];
}

/** The words of a text, in order, with repeats. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const run of wordRuns(text)) out.push(...runWords(run));
  return out;
}

/** Whether a normalised word is a stop word ("the", "of", "的", "の", "ที่", …). */
export function isStopWord(word: string): boolean {
  return STOPWORDS.has(word);
}

/** The Porter stem of a lower-case Latin-letter word ("indexing" → "index"). */
export function stemWord(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= STEM_CACHE_SIZE) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}
