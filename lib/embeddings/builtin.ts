import { isStopWord, runWords, stemWord, wordRuns, type RunKind } from '@/lib/text/words';
import type { EmbeddingProvider } from './types';

/**
 * The built-in embedder: offline, deterministic, no model. It is lexical, not a language model:
 * words, pairs of neighbouring words and character n-grams of the text are hashed (signed feature
 * hashing) into a fixed number of dimensions, weighted by sublinear term frequency, and the vector
 * is normalised. Texts that share words end up close; synonyms do not. Words come from
 * lib/text/words.ts:
 *  - English (Latin-letter) words count by their Porter stem, so "indexing" and "indexes" meet;
 *    their character 4-grams count faintly, so a text sharing parts of words (compounds, typos,
 *    identifiers) still ranks above one sharing nothing.
 *  - Words of other scripts and accented words have no stemmer: their 4-grams count more, to make
 *    inflections meet.
 *  - Chinese, Japanese and Thai are cut into words with Intl.Segmenter, and overlapping character
 *    bigrams of CJK and Thai runs are features too, so texts meet however the segmenter cut them.
 * Whatever all texts share points every vector the same way and leaves nearest-neighbour indexes
 * (HNSW) little to tell them apart by: stop words (English, and Chinese, Japanese and Thai ones
 * among segmented words) are left out of word, pair and 4-gram features, very short words count
 * less, and each feature's slot and sign come from independent, well-mixed hashes.
 */
export const BUILTIN_DIMENSIONS = 384;
export const BUILTIN_MODEL = 'quarry-hashed-ngrams-v2';

const WORD_WEIGHT = 1.0;
/** Weight of a short word: one or two letters or digits, or a single CJK character ("s", "10", "的"). */
const SHORT_WORD_WEIGHT = 0.5;
const PAIR_WEIGHT = 0.25;
const GRAM_WEIGHT = 0.35;
const LATIN_GRAM_WEIGHT = 0.1;
const BIGRAM_WEIGHT = 0.5;
/** Words at least this long get character grams. */
const MIN_GRAM_WORD_LENGTH = 5;
const GRAM_LENGTH = 4;
const HAS_DIGIT = /\d/;

/** Seeds that keep the kinds of features apart. */
const WORD_SEED = 0x811c9dc5;
const PAIR_SEED = 0x050c5d1f;
const GRAM_SEED = 0x2f8d4b63;
const BIGRAM_SEED = 0x6b43a9b5;
const SIGN_SEED = 0x9e3779b9;

/** 32-bit FNV-1a of the UTF-16 code units of text[start, end), continuing from hash h. */
function fnv1a(text: string, h: number, start = 0, end = text.length): number {
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * murmur3's 32-bit finaliser. FNV-1a's low bits are weak (its lowest bit is only the parity of
 * the input), so every hash goes through this before it picks a slot or a sign.
 */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Lower-cased words (letters, marks and digits) of a text, as the embedder reads them. */
export { words } from '@/lib/text/words';

/**
 * The hashed features of a text, with repeats, one list per weight: counting happens after
 * sorting, which is cheaper than a map of hundreds of features.
 */
interface Features {
  words: number[];
  shortWords: number[];
  pairs: number[];
  bigrams: number[];
  grams: number[];
  latinGrams: number[];
}

/** Short words ("s" of "it's", "no", "10", "的") are common to unrelated texts: they count less. */
function isShort(word: string, kind: RunKind): boolean {
  return kind === 'cjk' ? word.length === 1 : word.length <= 2;
}

/** Overlapping character bigrams of a CJK or Thai run (a one-character run is a unigram). */
function addBigrams(out: number[], run: string): void {
  const chars = [...run];
  if (chars.length === 1) out.push(fmix32(fnv1a(run, BIGRAM_SEED)));
  for (let i = 0; i + 1 < chars.length; i++) out.push(fmix32(fnv1a(chars[i + 1], fnv1a(chars[i], BIGRAM_SEED))));
}

/** Character 4-grams of a word framed as "<word>". */
function addGrams(out: number[], word: string): void {
  const framed = `<${word}>`;
  for (let i = 0; i + GRAM_LENGTH <= framed.length; i++) out.push(fmix32(fnv1a(framed, GRAM_SEED, i, i + GRAM_LENGTH)));
}

/** The 4-grams of a long word: faint for English words (stemmed already), none for numbers and codes. */
function addWordGrams(features: Features, word: string, kind: RunKind): void {
  if (kind === 'latin') addGrams(features.latinGrams, word);
  else if (!HAS_DIGIT.test(word)) addGrams(features.grams, word);
}

/** The hashed features of a text. */
function features(text: string): Features {
  const out: Features = { words: [], shortWords: [], pairs: [], bigrams: [], grams: [], latinGrams: [] };
  /** Hash of the previous word that was not a stop word, for word pairs. */
  let previous: number | undefined;
  for (const run of wordRuns(text)) {
    if (run.kind === 'cjk') addBigrams(out.bigrams, run.text);
    for (const word of runWords(run)) {
      if ((run.kind === 'latin' || run.kind === 'cjk') && isStopWord(word)) continue;
      const hash = fnv1a(run.kind === 'latin' ? stemWord(word) : word, WORD_SEED);
      (isShort(word, run.kind) ? out.shortWords : out.words).push(fmix32(hash));
      if (previous !== undefined) out.pairs.push(fmix32(Math.imul(previous, 0x9e3779b1) ^ hash ^ PAIR_SEED));
      previous = hash;
      if (word.length >= MIN_GRAM_WORD_LENGTH && run.kind !== 'cjk') addWordGrams(out, word, run.kind);
    }
  }
  return out;
}

/**
 * Adds features of one weight to the vector, each once with its sublinear term frequency: the
 * slot from the feature's hash, the sign from an independent second hash of it.
 */
function accumulate(vector: Float64Array, hashes: number[], weight: number): void {
  const sorted = Uint32Array.from(hashes).sort();
  for (let i = 0; i < sorted.length; ) {
    const hash = sorted[i];
    let count = 1;
    while (i + count < sorted.length && sorted[i + count] === hash) count++;
    i += count;
    const sign = fmix32(hash ^ SIGN_SEED) >>> 31 === 0 ? 1 : -1;
    vector[hash % vector.length] += sign * weight * (count === 1 ? 1 : 1 + Math.log(count));
  }
}

/** The embedding of one text: a unit vector (all zeros for a text without words). */
export function embedOne(text: string, dimensions = BUILTIN_DIMENSIONS): number[] {
  const vector = new Float64Array(dimensions);
  const f = features(text);
  accumulate(vector, f.words, WORD_WEIGHT);
  accumulate(vector, f.shortWords, SHORT_WORD_WEIGHT);
  accumulate(vector, f.pairs, PAIR_WEIGHT);
  accumulate(vector, f.bigrams, BIGRAM_WEIGHT);
  accumulate(vector, f.grams, GRAM_WEIGHT);
  accumulate(vector, f.latinGrams, LATIN_GRAM_WEIGHT);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += vector[i] * vector[i];
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const out = new Array<number>(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = vector[i] * scale;
  return out;
}

export function createBuiltinEmbedder(dimensions = BUILTIN_DIMENSIONS): EmbeddingProvider {
  return {
    provider: 'builtin',
    model: BUILTIN_MODEL,
    dimensions,
    embed: async (texts) => texts.map((t) => embedOne(t, dimensions)),
  };
}
