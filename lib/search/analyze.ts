import { isStopWord, segment, stemWord, wordRuns } from '@/lib/text/words';

/*
 * Text analysis for keyword (BM25) search, used the same way for chunks and queries. Words are
 * found by lib/text/words.ts (NFKC, lower case; apostrophes, periods, hyphens and underscores
 * separate words, so "o'brien's" is o, brien, s and "3.5" is 3, 5).
 *  - Chinese, Japanese, Korean and Thai runs become overlapping character bigrams (a run of a
 *    single character stays a unigram): a query matches however a segmenter would cut the text.
 *  - Latin-letter words (a–z): English stop words are dropped and the rest stemmed (Porter), so
 *    "indexing", "indexed" and "index" meet. Digits and other scripts are kept as they are; Lao,
 *    Khmer and Myanmar runs are cut into words with Intl.Segmenter.
 *  - Terms longer than 64 characters (other than bigrams) are dropped.
 */

/** Longer "words" are noise (hashes, base64) and would bloat the index. */
const MAX_TERM_LENGTH = 64;

/** Overlapping character bigrams of a run (the run itself when it is one character). */
function pushBigrams(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) out.push(chars[0]);
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
}

/** The terms of a text, in order, with repeats. */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const { text: run, kind } of wordRuns(text)) {
    if (kind === 'cjk') {
      pushBigrams(run, out);
    } else if (kind === 'unspaced') {
      for (const word of segment(run)) if (word.length <= MAX_TERM_LENGTH) out.push(word);
    } else if (run.length <= MAX_TERM_LENGTH) {
      if (kind === 'other') out.push(run);
      else if (!isStopWord(run)) out.push(stemWord(run));
    }
  }
  return out;
}

export interface TermVector {
  /** Distinct terms with their frequency. */
  frequencies: Map<string, number>;
  /** Number of terms (the BM25 document length). */
  length: number;
}

export function termVector(text: string): TermVector {
  const frequencies = new Map<string, number>();
  const terms = analyze(text);
  for (const t of terms) frequencies.set(t, (frequencies.get(t) ?? 0) + 1);
  return { frequencies, length: terms.length };
}
