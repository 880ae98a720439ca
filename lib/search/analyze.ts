import { stemmer } from 'stemmer';
import { eng as ENGLISH_STOPWORDS } from 'stopword';

/*
 * Text analysis for keyword (BM25) search, used the same way for chunks and queries.
 *  - Words are found with Intl.Segmenter (NFKC, lower case), so scripts without spaces split too.
 *  - Chinese, Japanese, Korean and Thai words become overlapping character bigrams (a single
 *    character stays a unigram): a query matches whichever way the segmenter cut the text.
 *  - Latin-letter words: English stop words are dropped and the rest stemmed (Porter), so
 *    "indexing", "indexed" and "index" meet. Digits and other scripts are kept as they are.
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const LATIN_WORD = /^[a-z]+$/;
const STOPWORDS = new Set(ENGLISH_STOPWORDS);
/** Longer "words" are noise (hashes, base64) and would bloat the index. */
const MAX_TERM_LENGTH = 64;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

function pushBigrams(run: string[], out: string[]): void {
  if (run.length === 1) out.push(run[0]);
  for (let i = 0; i + 1 < run.length; i++) out.push(run[i] + run[i + 1]);
}

/** The terms of a text, in order, with repeats. */
export function analyze(text: string): string[] {
  const out: string[] = [];
  // Adjacent CJK words form one run, bigrammed across the segmenter's cuts.
  let run: string[] = [];
  for (const part of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    const word = part.segment;
    if (part.isWordLike && CJK.test(word)) {
      run.push(...word);
      continue;
    }
    if (run.length > 0) {
      pushBigrams(run, out);
      run = [];
    }
    if (!part.isWordLike || word.length > MAX_TERM_LENGTH) continue;
    if (LATIN_WORD.test(word)) {
      if (!STOPWORDS.has(word)) out.push(stemmer(word));
    } else {
      out.push(word);
    }
  }
  if (run.length > 0) pushBigrams(run, out);
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

/** PostgreSQL keeps at most 256 positions per lexeme; BM25 saturates long before that. */
const MAX_POSITIONS = 256;

function quoteLexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * The tsvector text of a term vector: each term with positions 1…tf, so the number of positions
 * is the term frequency (positions carry no other meaning here).
 */
export function toTsvectorLiteral(vector: TermVector): string {
  const parts: string[] = [];
  for (const [term, tf] of vector.frequencies) {
    const n = Math.min(tf, MAX_POSITIONS);
    let positions = '1';
    for (let i = 2; i <= n; i++) positions += `,${i}`;
    parts.push(`${quoteLexeme(term)}:${positions}`);
  }
  return parts.join(' ');
}

/** A tsquery matching chunks that contain any of the terms. */
export function toAnyTermQuery(terms: string[]): string {
  return terms.map(quoteLexeme).join(' | ');
}
