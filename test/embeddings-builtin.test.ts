import { describe, expect, it } from 'vitest';
import { BUILTIN_DIMENSIONS, BUILTIN_MODEL, createBuiltinEmbedder, embedOne, words } from '@/lib/embeddings/builtin';

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

/** mulberry32: the same pseudo-random sequence on every run. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Distinct made-up words of 4–9 letters, the same on every run. */
function madeUpWords(count: number): string[] {
  const random = prng(42);
  const made = new Set<string>();
  while (made.size < count) {
    let word = '';
    const length = 4 + Math.floor(random() * 6);
    for (let i = 0; i < length; i++) word += String.fromCharCode(97 + Math.floor(random() * 26));
    made.add(word);
  }
  return [...made];
}

const WORDS = madeUpWords(4000);
/** 200 sentences of 12 words each, no word shared between two sentences. */
const SENTENCES = Array.from({ length: 200 }, (_, i) => WORDS.slice(i * 12, i * 12 + 12).join(' '));

describe('built-in embedder', () => {
  const embedder = createBuiltinEmbedder();

  it('returns unit vectors of the declared dimension, the same every time', async () => {
    const [a, b] = await embedder.embed(['Vector search with pgvector', 'Vector search with pgvector']);
    expect(a).toHaveLength(BUILTIN_DIMENSIONS);
    expect(Math.sqrt(cosine(a, a))).toBeCloseTo(1, 10);
    expect(b).toEqual(a);
    expect(embedder).toMatchObject({ provider: 'builtin', model: BUILTIN_MODEL, dimensions: BUILTIN_DIMENSIONS });
    expect(BUILTIN_MODEL).toBe('quarry-hashed-ngrams-v2');
  });

  it('works in any dimension', () => {
    for (const dimensions of [1, 7, 100, 1536]) {
      const v = embedOne('Refunds are paid back to the original card within five working days.', dimensions);
      expect(v).toHaveLength(dimensions);
      expect(Math.sqrt(cosine(v, v))).toBeCloseTo(1, 10);
    }
  });

  it('gives features signs that do not depend on the parity of their slot', () => {
    // Signs once came from a hash bit that equalled the slot's parity: every vector pointed one way.
    const counts = { evenPositive: 0, evenNegative: 0, oddPositive: 0, oddNegative: 0 };
    for (const sentence of SENTENCES) {
      embedOne(sentence).forEach((v, i) => {
        if (v === 0) return;
        const key = `${i % 2 === 0 ? 'even' : 'odd'}${v > 0 ? 'Positive' : 'Negative'}` as keyof typeof counts;
        counts[key] += 1;
      });
    }
    const even = counts.evenPositive + counts.evenNegative;
    const odd = counts.oddPositive + counts.oddNegative;
    expect(counts.evenPositive / even).toBeGreaterThan(0.45);
    expect(counts.evenPositive / even).toBeLessThan(0.55);
    expect(counts.oddPositive / odd).toBeGreaterThan(0.45);
    expect(counts.oddPositive / odd).toBeLessThan(0.55);
  });

  it('keeps unrelated texts near orthogonal: mean cosine of 200 sentences without shared words below 0.05', () => {
    const vectors = SENTENCES.map((s) => embedOne(s));
    let sum = 0;
    let pairs = 0;
    for (let i = 0; i < vectors.length; i++) {
      for (let j = i + 1; j < vectors.length; j++) {
        sum += cosine(vectors[i], vectors[j]);
        pairs += 1;
      }
    }
    expect(Math.abs(sum / pairs)).toBeLessThan(0.05);
    // The mean of all vectors is short: they share no direction.
    const mean = vectors.reduce((acc, v) => acc.map((x, i) => x + v[i] / vectors.length), new Array<number>(BUILTIN_DIMENSIONS).fill(0));
    expect(Math.sqrt(cosine(mean, mean))).toBeLessThan(0.15);
  });

  it('puts every text sharing half its words closer than the unrelated texts are on average', () => {
    for (let i = 0; i < 50; i++) {
      const own = WORDS.slice(i * 12, i * 12 + 6);
      const fresh = WORDS.slice(2400 + i * 6, 2400 + i * 6 + 6);
      const related = [...fresh.slice(0, 3), ...own, ...fresh.slice(3)].join(' ');
      expect(cosine(embedOne(SENTENCES[i]), embedOne(related))).toBeGreaterThan(0.3);
    }
  });

  it('puts texts that share words closer than unrelated texts', async () => {
    const [query, near, far] = await embedder.embed([
      'how are invoices approved by the finance team',
      'The finance team approves every invoice before payment.',
      'Mitochondria produce most of the cell’s chemical energy.',
    ]);
    expect(cosine(query, near)).toBeGreaterThan(0.5);
    expect(cosine(query, near)).toBeGreaterThan(cosine(query, far) + 0.4);
  });

  it('leaves stop words out: they neither add nor take similarity', () => {
    expect(embedOne('The cat and the dog')).toEqual(embedOne('cat dog'));
    expect(embedOne('the of and').every((v) => v === 0)).toBe(true);
    expect(cosine(embedOne('what is the price of it'), embedOne('what is the colour of it'))).toBeLessThan(0.2);
  });

  it('matches inflected forms through stems and word fragments', () => {
    const indexing = embedOne('indexing documents');
    expect(cosine(indexing, embedOne('document indexes'))).toBeGreaterThan(0.8);
    expect(cosine(indexing, embedOne('weather forecast'))).toBeLessThan(0.1);
    // Without a stemmer (Russian), 4-grams join the inflections.
    const search = embedOne('поиск документов');
    expect(cosine(search, embedOne('быстрый поиск документа'))).toBeGreaterThan(cosine(search, embedOne('погода сегодня хорошая')) + 0.3);
    // Fragments alone rank a typo above an unrelated word.
    expect(cosine(embedOne('retreival'), embedOne('retrieval'))).toBeGreaterThan(cosine(embedOne('retreival'), embedOne('weather')));
  });

  it('segments Chinese and Japanese text without spaces', () => {
    expect(words('機械学習は面白い').length).toBeGreaterThan(1);
    const q = embedOne('向量数据库的检索');
    expect(cosine(q, embedOne('这个向量数据库支持快速检索。'))).toBeGreaterThan(cosine(q, embedOne('今天天气很好，我们去公园散步。')) + 0.4);
    const ja = embedOne('機械学習の入門');
    // Particles such as の are stop words: only 機械学習 is shared with the first text.
    expect(cosine(ja, embedOne('機械学習は面白い'))).toBeGreaterThan(cosine(ja, embedOne('東京の天気は晴れです')) + 0.4);
  });

  it('matches CJK and Thai through character bigrams however the text is cut', () => {
    expect(cosine(embedOne('数据库'), embedOne('向量数据库'))).toBeGreaterThan(0.3);
    expect(cosine(embedOne('데이터베이스 검색'), embedOne('빠른 데이터베이스 검색 엔진'))).toBeGreaterThan(0.5);
    const thai = embedOne('ภาษาไทยง่าย');
    expect(cosine(thai, embedOne('เรียนภาษาไทยง่ายนิดเดียว'))).toBeGreaterThan(cosine(thai, embedOne('วันนี้อากาศดีมาก')) + 0.4);
    const mixed = embedOne('API接口设计');
    expect(cosine(mixed, embedOne('REST API 的接口设计规范'))).toBeGreaterThan(0.5);
  });

  it('gives a zero vector for text without words', () => {
    expect(embedOne('  ... !!! ').every((v) => v === 0)).toBe(true);
    expect(embedOne('👍 🚀 — …').every((v) => v === 0)).toBe(true);
  });
});
