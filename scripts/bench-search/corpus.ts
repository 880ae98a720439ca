// The corpus: made-up but text-like Markdown documents, and the queries run against them, all
// from a seeded PRNG so every run builds the same corpus and queries.
import { MEAN_SECTIONS } from './config';

/** mulberry32: a small seeded PRNG, so every run builds the same corpus and queries. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const STOPWORDS = ['the', 'of', 'and', 'to', 'in', 'a', 'is', 'that', 'for', 'it', 'as', 'with', 'was', 'on', 'be', 'by', 'this', 'are', 'or', 'from'];
const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'st', 'tr', 'pl', 'gr', 'br', 'ch', 'sh', 'th'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou', 'io'];
const CODAS = ['', '', 'n', 'r', 's', 'l', 't', 'm', 'nd', 'rt', 'st', 'x'];
const DISTINCT_WORDS = 20_000;
/** Zipf–Mandelbrot exponent and offset of word frequencies by rank. */
export const ZIPF_S = 1.0;
const ZIPF_Q = 2.7;
/** Share of a document's words drawn from its own topic words (burstiness, so df varies like real text). */
const TOPIC_SHARE = 0.08;
const TOPIC_WORDS = 20;
/** Share of words that are identifiers (`qx4821`): rare terms, as part numbers and codes are. */
const CODE_SHARE = 0.004;

/** Pronounceable made-up words, ranked: English stop words first, then 20,000 others. */
export class Vocabulary {
  readonly words: string[];
  private readonly cumulative: Float64Array;

  constructor(random: () => number) {
    const made = new Set<string>();
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    while (made.size < DISTINCT_WORDS) {
      let word = '';
      const syllables = 1 + Math.floor(random() * 3);
      for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(NUCLEI) + pick(CODAS);
      if (word.length >= 3 && !STOPWORDS.includes(word)) made.add(word);
    }
    this.words = [...STOPWORDS, ...made];
    this.cumulative = new Float64Array(this.words.length);
    let total = 0;
    this.words.forEach((_, rank) => (this.cumulative[rank] = total += 1 / Math.pow(rank + ZIPF_Q, ZIPF_S)));
  }

  /** A word drawn by its Zipf frequency. */
  sample(random: () => number): string {
    const x = random() * this.cumulative[this.cumulative.length - 1];
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo];
  }

  /** A word of rank in [from, to). */
  ranked(random: () => number, from: number, to: number): string {
    return this.words[from + Math.floor(random() * (to - from))];
  }
}

export interface CorpusDocument {
  title: string;
  markdown: string;
  sections: number;
}

/** Writes documents: a title, an introduction, then `##` sections of 400–1,150 characters (one chunk each at 512 tokens). */
export class CorpusWriter {
  private readonly random: () => number;

  constructor(
    private readonly vocabulary: Vocabulary,
    seed: number,
  ) {
    this.random = prng(seed);
  }

  private word(topic: string[]): string {
    const r = this.random();
    if (r < CODE_SHARE) return `qx${Math.floor(this.random() * 5000)}`;
    if (r < CODE_SHARE + TOPIC_SHARE) return topic[Math.floor(this.random() * topic.length)];
    return this.vocabulary.sample(this.random);
  }

  private sentence(topic: string[], length: number): string {
    const words: string[] = [];
    for (let i = 0; i < length; i++) words.push(this.word(topic));
    return `${words[0][0].toUpperCase()}${words[0].slice(1)} ${words.slice(1).join(' ')}.`;
  }

  /** Sentences of 8–19 words, in paragraphs of 2–4 sentences, until the text is about `chars` long. */
  private body(topic: string[], chars: number): string {
    const paragraphs: string[] = [];
    let length = 0;
    while (length < chars) {
      const sentences: string[] = [];
      const count = 2 + Math.floor(this.random() * 3);
      for (let i = 0; i < count && length < chars; i++) {
        const s = this.sentence(topic, 8 + Math.floor(this.random() * 12));
        sentences.push(s);
        length += s.length + 1;
      }
      paragraphs.push(sentences.join(' '));
    }
    return paragraphs.join('\n\n');
  }

  document(index: number, sections: number): CorpusDocument {
    const topic: string[] = [];
    for (let i = 0; i < TOPIC_WORDS; i++) topic.push(this.vocabulary.ranked(this.random, 300, 10_000));
    const title = `Document ${index + 1}: ${this.sentence(topic, 4).slice(0, -1)}`;
    const parts = [`# ${title}`, this.body(topic, 300 + this.random() * 400)];
    for (let s = 0; s < sections; s++) {
      parts.push(`## ${this.sentence(topic, 3 + Math.floor(this.random() * 4)).slice(0, -1)}`);
      parts.push(this.body(topic, 400 + this.random() * 750));
    }
    return { title, markdown: `${parts.join('\n\n')}\n`, sections };
  }
}

/** Section counts per document (50–150) summing to the chunk target, one chunk per document for its introduction. */
export function sectionPlan(chunks: number, random: () => number): number[] {
  const documents = Math.max(1, Math.round(chunks / (MEAN_SECTIONS + 1)));
  const plan: number[] = [];
  let remaining = chunks - documents;
  for (let d = 0; d < documents; d++) {
    const left = documents - d;
    const n = left === 1 ? remaining : Math.max(1, Math.min(remaining - (left - 1), Math.round((remaining / left) * (0.5 + random()))));
    plan.push(n);
    remaining -= n;
  }
  return plan;
}

/** 2–5-word queries mixing frequent (ranks 20–300), middle (300–3,000) and rare (3,000–20,000) words and codes. */
export function makeQueries(vocabulary: Vocabulary, count: number, random: () => number): string[] {
  const bands: [number, number][] = [
    [STOPWORDS.length, 300],
    [300, 3000],
    [3000, vocabulary.words.length],
  ];
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    const length = 2 + Math.floor(random() * 4);
    for (let w = 0; w < length; w++) {
      if (random() < 0.03) {
        words.push(`qx${Math.floor(random() * 5000)}`);
        continue;
      }
      const [from, to] = bands[Math.floor(random() * bands.length)];
      words.push(vocabulary.ranked(random, from, to));
    }
    queries.push(words.join(' '));
  }
  return queries;
}

/** Queries of 2–4 words drawn only from the common band (ranks 20–300). */
export function makeCommonQueries(vocabulary: Vocabulary, count: number, random: () => number): string[] {
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = 2 + Math.floor(random() * 3);
    queries.push(Array.from({ length }, () => vocabulary.ranked(random, STOPWORDS.length, 300)).join(' '));
  }
  return queries;
}
