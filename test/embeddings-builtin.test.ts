import { describe, expect, it } from 'vitest';
import { BUILTIN_DIMENSIONS, createBuiltinEmbedder, embedOne, words } from '@/lib/embeddings/builtin';

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

describe('built-in embedder', () => {
  const embedder = createBuiltinEmbedder();

  it('returns unit vectors of the declared dimension, the same every time', async () => {
    const [a, b] = await embedder.embed(['Vector search with pgvector', 'Vector search with pgvector']);
    expect(a).toHaveLength(BUILTIN_DIMENSIONS);
    expect(Math.sqrt(cosine(a, a))).toBeCloseTo(1, 10);
    expect(b).toEqual(a);
    expect(embedder).toMatchObject({ provider: 'builtin', dimensions: BUILTIN_DIMENSIONS });
  });

  it('puts texts that share words closer than unrelated texts', async () => {
    const [query, near, far] = await embedder.embed([
      'how are invoices approved by the finance team',
      'The finance team approves every invoice before payment.',
      'Mitochondria produce most of the cell’s chemical energy.',
    ]);
    expect(cosine(query, near)).toBeGreaterThan(cosine(query, far) + 0.15);
  });

  it('matches inflected forms through word fragments', () => {
    const indexing = embedOne('indexing documents');
    expect(cosine(indexing, embedOne('document indexes'))).toBeGreaterThan(cosine(indexing, embedOne('weather forecast')));
  });

  it('segments Chinese and Japanese text without spaces', () => {
    expect(words('機械学習は面白い').length).toBeGreaterThan(1);
    const q = embedOne('向量数据库的检索');
    expect(cosine(q, embedOne('这个向量数据库支持快速检索。'))).toBeGreaterThan(cosine(q, embedOne('今天天气很好，我们去公园散步。')) + 0.1);
  });

  it('gives a zero vector for text without words', () => {
    expect(embedOne('  ... !!! ').every((v) => v === 0)).toBe(true);
  });
});
