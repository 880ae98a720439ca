import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createEmbedder } from '@/lib/embeddings/recipe';
import { chunkRows, prepareChunks, vectorTextAhead } from '@/lib/knowledge-bases/prepare';
import { termVector } from '@/lib/search/analyze';
import { lexemesLiteral } from '@/lib/search/tsvector';
import { toVectorLiteral } from '@/lib/search/vectors';

const MARKDOWN = Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\nPart ${i} tells of lighthouse keepers, tide tables and the harbour's ${i} boats. Keepers keep logs.`).join('\n\n');

async function prepared() {
  return prepareChunks(MARKDOWN, { type: 'paragraph', chunk_size: 64, overlap: 0 }, createEmbedder({ provider: 'builtin', dimensions: 64 }), { lang: 'en' }, { maxChunks: 1000 });
}

describe('prepared chunks', () => {
  it('hold each chunk’s distinct terms with their counts, as the keyword postings take them', async () => {
    const set = await prepared();
    expect(set.count).toBeGreaterThanOrEqual(40);
    for (const row of chunkRows(set, 0, set.count)) {
      const terms = row.terms === '' ? [] : row.terms.split('\n');
      expect(terms.length).toBeGreaterThan(3);
      expect(terms).toHaveLength(row.termCounts.length);
      expect(new Set(terms).size).toBe(terms.length);
      // The same terms as the chunk's tsvector, counts adding up to its BM25 length.
      expect(lexemesLiteral(terms)).toBe(row.lexemes);
      expect(row.termCounts.reduce((a, b) => a + b, 0)).toBe(row.termCount);
      expect(terms).toEqual(expect.arrayContaining([...termVector(row.content).frequencies.keys()].filter((t) => t === 'keeper')));
    }
  });

  it('turn vectors into text in the background, in slices, giving the same rows', async () => {
    const set = await prepared();
    const expected = set.chunks.map((c) => toVectorLiteral(c.vector as number[]));
    vectorTextAhead([set], () => true);
    // Nothing happens before the thread's next turn; then a slice at a time until all are text.
    expect(set.chunks.every((c) => typeof c.vector !== 'string')).toBe(true);
    for (let i = 0; i < 1000 && set.chunks.some((c) => typeof c.vector !== 'string'); i++) await turn();
    expect(set.chunks.map((c) => c.vector)).toEqual(expected);
    expect(chunkRows(set, 0, set.count).map((r) => r.vector)).toEqual(expected);
  });

  it('stop turning vectors into text once the chunks are released', async () => {
    const set = await prepared();
    let current = true;
    vectorTextAhead([set], () => current);
    current = false;
    for (let i = 0; i < 20; i++) await turn();
    expect(set.chunks.every((c) => typeof c.vector !== 'string')).toBe(true);
    // Rows asked for are still complete.
    expect(chunkRows(set, 0, 2).map((r) => r.vector)).toEqual(set.chunks.slice(0, 2).map((c) => toVectorLiteral(c.vector as number[])));
  });
});
