import { stemmer } from 'stemmer';
import { eng, jpn, tha, zho } from 'stopword';

/*
 * Which words of a text to mark for a search query. It reads words the way keyword search does
 * (lib/text/words.ts: NFKC, lower case, English stop words dropped, Porter stems, the same
 * stemmer and stop-word lists), so what is marked is what the search matched on:
 *  - Words match whole and by stem: "running" marks "run", "runs" and "Running", never the "art"
 *    in "start". Stop words ("the", "of", "and"…) are never marked, in the query or the text.
 *  - Accented words, digits and other scripts match whole, in any case, without stemming.
 *  - Chinese, Japanese, Korean, Thai, Lao, Khmer and Myanmar are matched anywhere inside a run of
 *    their characters: they are written without spaces (Korean attaches particles to words), so
 *    "word boundaries" do not exist there. The query's words count (Intl.Segmenter), stop words
 *    ("的", "の"…) left out; neighbouring matches join into one mark.
 * The console may not import lib/ at run time (test/architecture.test.ts), so this reads the same packages directly.
 */

/** What to mark, built once per query. */
export interface HighlightTerms {
  /** Porter stems of the query's English words. */
  stems: Set<string>;
  /** Other words of the query, normalised, matched whole. */
  words: Set<string>;
  /** Pieces of text written without spaces, longest first, matched anywhere in such text. */
  fragments: string[];
}

/** A piece of text, marked or not. */
export interface TextPart {
  text: string;
  marked: boolean;
}

const NO_SPACE_CHAR = String.raw`(?=[\p{L}\p{N}])[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]`;
/** Group 1: a word of spaced scripts (letters, marks, digits); group 2: a run written without spaces. */
const TOKEN = new RegExp(String.raw`((?:(?!${NO_SPACE_CHAR})[\p{L}\p{M}\p{N}])+)|((?:${NO_SPACE_CHAR}\p{M}*)+)`, 'gu');
const LATIN = /^[a-z]+$/;
const STOP_WORDS = new Set([...eng, ...zho, ...jpn, ...tha].map((word) => word.normalize('NFKC')));

let segmenter: Intl.Segmenter | undefined;

const normalize = (text: string) => text.normalize('NFKC').toLowerCase();

/** The words of a run written without spaces, as Intl.Segmenter cuts it. */
function segmentWords(run: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const out: string[] = [];
  for (const part of segmenter.segment(run)) if (part.isWordLike) out.push(part.segment);
  return out;
}

/** The terms of a query to mark in texts. */
export function highlightTerms(query: string): HighlightTerms {
  const stems = new Set<string>();
  const words = new Set<string>();
  const fragments = new Set<string>();
  for (const match of normalize(query).matchAll(TOKEN)) {
    if (match[1] !== undefined) {
      const word = match[1];
      if (STOP_WORDS.has(word)) continue;
      if (!LATIN.test(word)) words.add(word);
      // A single letter is too often a leftover of "it's" or "e.g." to be worth marking.
      else if (word.length > 1) stems.add(stemmer(word));
    } else {
      const run = match[2];
      const runWords = segmentWords(run);
      if (runWords.length === 0 && !STOP_WORDS.has(run)) fragments.add(run);
      for (const word of runWords) if (!STOP_WORDS.has(word)) fragments.add(word);
    }
  }
  return { stems, words, fragments: [...fragments].sort((a, b) => b.length - a.length) };
}

/** Whether there is anything to mark. */
export function hasTerms(terms: HighlightTerms): boolean {
  return terms.stems.size > 0 || terms.words.size > 0 || terms.fragments.length > 0;
}

/** Whether one word of a spaced script matches the query. */
function wordMatches(word: string, terms: HighlightTerms): boolean {
  const normalized = normalize(word);
  if (STOP_WORDS.has(normalized)) return false;
  if (LATIN.test(normalized)) return terms.stems.has(stemmer(normalized));
  return terms.words.has(normalized);
}

/** Marks, as [start, end) pairs relative to the run, where the query's fragments occur in a run written without spaces. */
function fragmentRanges(run: string, terms: HighlightTerms): [number, number][] {
  const normalized = normalize(run);
  // Offsets carry over only when normalising kept the length (it does for almost all such text).
  const haystack = normalized.length === run.length ? normalized : run;
  const covered = new Uint8Array(run.length);
  for (const fragment of terms.fragments) {
    for (let at = haystack.indexOf(fragment); at !== -1; at = haystack.indexOf(fragment, at + 1)) {
      covered.fill(1, at, at + fragment.length);
    }
  }
  const ranges: [number, number][] = [];
  for (let i = 0; i < covered.length; i++) {
    if (!covered[i]) continue;
    const start = i;
    while (i < covered.length && covered[i]) i++;
    ranges.push([start, i]);
  }
  return ranges;
}

/** The text cut into marked and unmarked parts, in order; joined they give the text back. */
export function highlightParts(text: string, terms: HighlightTerms): TextPart[] {
  if (!text || !hasTerms(terms)) return text ? [{ text, marked: false }] : [];
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index ?? 0;
    if (match[1] !== undefined) {
      if (wordMatches(match[1], terms)) ranges.push([start, start + match[1].length]);
    } else if (terms.fragments.length > 0) {
      for (const [from, to] of fragmentRanges(match[2], terms)) ranges.push([start + from, start + to]);
    }
  }
  const parts: TextPart[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push({ text: text.slice(at, start), marked: false });
    parts.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false });
  return parts;
}
