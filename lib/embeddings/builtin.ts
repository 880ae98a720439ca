import type { EmbeddingProvider } from './types';

/**
 * The built-in embedder: offline, deterministic, no model. It is lexical, not a language model:
 * words, word pairs and character n-grams of the text are hashed (signed feature hashing) into a
 * fixed number of dimensions, weighted by sublinear term frequency, and the vector is normalised.
 * Texts that share words and word fragments end up close; synonyms do not. Chinese, Japanese and
 * Thai have no spaces, so words are found with Intl.Segmenter, and character bigrams of such
 * scripts are added as features too.
 */
export const BUILTIN_DIMENSIONS = 384;
export const BUILTIN_MODEL = 'quarry-hashed-ngrams-v1';

const WORD_WEIGHT = 1.0;
const PAIR_WEIGHT = 0.5;
const GRAM_WEIGHT = 0.35;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Lower-cased words (letters and digits) of the text, segmented by Intl.Segmenter. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const part of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (part.isWordLike) out.push(part.segment);
  }
  return out;
}

/** Each feature with its kind's weight and how often it occurs. */
function features(text: string): Map<string, { weight: number; count: number }> {
  const counts = new Map<string, { weight: number; count: number }>();
  const add = (key: string, weight: number) => {
    const seen = counts.get(key);
    if (seen) seen.count += 1;
    else counts.set(key, { weight, count: 1 });
  };
  const list = words(text);
  for (let i = 0; i < list.length; i++) {
    const w = list[i];
    add(`w:${w}`, WORD_WEIGHT);
    if (i + 1 < list.length) add(`p:${w} ${list[i + 1]}`, PAIR_WEIGHT);
    if (CJK.test(w)) {
      // Segmenters split CJK differently from how people search it: overlapping character
      // bigrams match either way.
      const chars = [...w];
      for (let j = 0; j + 1 < chars.length; j++) add(`c:${chars[j]}${chars[j + 1]}`, GRAM_WEIGHT);
      if (chars.length === 1) add(`c:${chars[0]}`, GRAM_WEIGHT);
    } else if (w.length >= 5) {
      // Word fragments make inflections and compounds meet (index, indexing, indexed).
      const padded = `<${w}>`;
      for (let j = 0; j + 4 <= padded.length; j++) add(`g:${padded.slice(j, j + 4)}`, GRAM_WEIGHT);
    }
  }
  return counts;
}

/** The embedding of one text: a unit vector (all zeros for a text without words). */
export function embedOne(text: string, dimensions = BUILTIN_DIMENSIONS): number[] {
  const vector = new Float64Array(dimensions);
  for (const [key, { weight, count }] of features(text)) {
    const index = fnv1a(key) % dimensions;
    const sign = (fnv1a(key, 0x9e3779b9) & 1) === 0 ? 1 : -1;
    vector[index] += sign * weight * (1 + Math.log(count));
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  return Array.from(vector, (v) => (norm > 0 ? v / norm : 0));
}

export function createBuiltinEmbedder(dimensions = BUILTIN_DIMENSIONS): EmbeddingProvider {
  return {
    provider: 'builtin',
    model: BUILTIN_MODEL,
    dimensions,
    embed: async (texts) => texts.map((t) => embedOne(t, dimensions)),
  };
}
