import { beforeAll, describe, expect, it } from 'vitest';
import * as hybridRoute from '@/app/v1/knowledge-bases/[kb_id]/hybrid-search/route';
import { hybridDefaults } from '@/lib/knowledge-bases/search';
import { fuseScores, type FusionCandidate } from '@/lib/search/fusion';
import { useTestApp } from '@/test/support/app';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';

/*
 * How hybrid search turns a cosine similarity and a BM25 score into one: each method by its
 * definition on hand-made candidates, then over HTTP on a real knowledge base.
 */

const CANDIDATES: FusionCandidate[] = [
  { id: 'a', vector: 0.9, keyword: 2 },
  { id: 'b', vector: 0.5, keyword: 10 },
  { id: 'c', vector: 0.3, keyword: 0 },
  { id: 'd', vector: 0.7, keyword: 6 },
];

describe('fusion methods', () => {
  it('min_max scales each side to [0, 1] over the candidates that have it, then weighs them', () => {
    const scores = fuseScores(CANDIDATES, { method: 'min_max', vectorWeight: 0.5, keywordWeight: 0.5 });
    // vector: (x − 0.3) / 0.6; keyword over a, b, d only: (x − 2) / 8; c has no keyword signal.
    expect(scores.get('a')).toBeCloseTo((1 + 0) / 2, 12);
    expect(scores.get('b')).toBeCloseTo((1 / 3 + 1) / 2, 12);
    expect(scores.get('c')).toBeCloseTo(0, 12);
    expect(scores.get('d')).toBeCloseTo((2 / 3 + 0.5) / 2, 12);
  });

  it('a chunk best on both sides scores 1 with min_max and rrf (dbsf: the most), and a zero-weight side is ignored', () => {
    const both: FusionCandidate[] = [
      { id: 'top', vector: 0.8, keyword: 9 },
      { id: 'low', vector: 0.2, keyword: 1 },
    ];
    for (const method of ['min_max', 'rrf'] as const) {
      expect(fuseScores(both, { method, vectorWeight: 0.3, keywordWeight: 0.6 }).get('top')).toBeCloseTo(1, 12);
    }
    const dbsf = fuseScores(both, { method: 'dbsf', vectorWeight: 0.3, keywordWeight: 0.6 });
    expect(dbsf.get('top')).toBeGreaterThan(dbsf.get('low')!);
    const keywordOnly = fuseScores(CANDIDATES, { method: 'min_max', vectorWeight: 0, keywordWeight: 1 });
    expect(keywordOnly.has('c')).toBe(false);
    expect(keywordOnly.get('b')).toBe(1);
    expect(keywordOnly.get('a')).toBe(0);
  });

  it('dbsf scales by the mean ± 3 standard deviations of each side, clamped', () => {
    const scores = fuseScores(CANDIDATES, { method: 'dbsf', vectorWeight: 1, keywordWeight: 0 });
    const xs = [0.9, 0.5, 0.3, 0.7];
    const mean = xs.reduce((a, b) => a + b) / 4;
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / 4);
    for (const [i, id] of ['a', 'b', 'c', 'd'].entries()) expect(scores.get(id)).toBeCloseTo((xs[i] - (mean - 3 * sd)) / (6 * sd), 12);
  });

  it('rrf sums weight / (k + rank) per side, divided by its largest possible value', () => {
    const k = 10;
    const scores = fuseScores(CANDIDATES, { method: 'rrf', vectorWeight: 0.4, keywordWeight: 0.6, rrfK: k });
    // vector ranks a1 d2 b3 c4; keyword ranks b1 d2 a3 (c none).
    const best = (0.4 + 0.6) / (k + 1);
    expect(scores.get('a')).toBeCloseTo((0.4 / (k + 1) + 0.6 / (k + 3)) / best, 12);
    expect(scores.get('b')).toBeCloseTo((0.4 / (k + 3) + 0.6 / (k + 1)) / best, 12);
    expect(scores.get('c')).toBeCloseTo(0.4 / (k + 4) / best, 12);
    expect(scores.get('d')).toBeCloseTo((0.4 / (k + 2) + 0.6 / (k + 2)) / best, 12);
    // Equal scores share a rank.
    const tied = fuseScores(
      [
        { id: 'x', vector: 0.5, keyword: null },
        { id: 'y', vector: 0.5, keyword: null },
      ],
      { method: 'rrf', vectorWeight: 1, keywordWeight: 0, rrfK: k },
    );
    expect(tied.get('x')).toBe(tied.get('y'));
  });

  it('weighted adds the raw cosine and BM25 divided by the best BM25', () => {
    const scores = fuseScores(CANDIDATES, { method: 'weighted', vectorWeight: 0.7, keywordWeight: 0.3 });
    expect(scores.get('a')).toBeCloseTo(0.7 * 0.9 + 0.3 * 0.2, 12);
    expect(scores.get('c')).toBeCloseTo(0.7 * 0.3, 12);
  });

  it('defaults: min_max with the contract weights, BM25 leading for the lexical built-in embedder', () => {
    expect(hybridDefaults({ embeddingProvider: 'openai' })).toEqual({ fusion: 'min_max', vector_weight: 0.7, keyword_weight: 0.3 });
    expect(hybridDefaults({ embeddingProvider: 'transformers' })).toEqual({ fusion: 'min_max', vector_weight: 0.7, keyword_weight: 0.3 });
    expect(hybridDefaults({ embeddingProvider: 'builtin' })).toEqual({ fusion: 'min_max', vector_weight: 0.15, keyword_weight: 0.85 });
  });
});

describe('fusion over HTTP', () => {
  const app = useTestApp();
  let kbId: string;
  const hybrid = (body: Record<string, unknown>) =>
    app.call(hybridRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/hybrid-search`, params: { kb_id: kbId }, body });

  beforeAll(async () => {
    kbId = await createKb(app, { name: 'fusion', chunking_strategy: { type: 'paragraph' } });
    const texts = [
      'Granite is quarried in large blocks and polished for kitchen counters.',
      'Basalt columns form when lava cools slowly; granite forms deep underground.',
      'The quarry closed in 1970 and the pit filled with rain water.',
      'Marble is metamorphosed limestone, softer than granite or basalt.',
      'Kitchen counters of quartz resist stains better than marble.',
    ];
    for (const [i, text] of texts.entries()) {
      const { fileId } = await extractedFile(app, `stone-${i}.md`, `${text}\n`);
      await addDoc(app, kbId, { file_id: fileId });
    }
    await drainWorkflows(app);
  });

  it('ranks by reciprocal ranks with fusion "rrf" and the given rrf_k', async () => {
    const res = await hybrid({ query: 'granite kitchen counters', fusion: 'rrf', rrf_k: 5, vector_weight: 0.5, keyword_weight: 0.5, top_k: 100 });
    expect(res.status).toBe(200);
    const chunks = res.body.chunks as { id: string; score: number; vector_score: number; keyword_score: number }[];
    const rank = (side: 'vector_score' | 'keyword_score') => {
      const sorted = chunks.filter((c) => c[side] > 0).sort((a, b) => b[side] - a[side] || (a.id < b.id ? -1 : 1));
      const out = new Map<string, number>();
      sorted.forEach((c, i) => out.set(c.id, i > 0 && c[side] === sorted[i - 1][side] ? out.get(sorted[i - 1].id)! : i + 1));
      return out;
    };
    const [vr, kr] = [rank('vector_score'), rank('keyword_score')];
    for (const c of chunks) {
      const expected = ((vr.has(c.id) ? 0.5 / (5 + vr.get(c.id)!) : 0) + (kr.has(c.id) ? 0.5 / (5 + kr.get(c.id)!) : 0)) / (1 / 6);
      expect(c.score).toBeCloseTo(expected, 9);
    }
    expect(chunks[0].score).toBe(Math.max(...chunks.map((c) => c.score)));
  });

  it('keeps the contract fields and a score in [0, 1] for every method, with threshold on the fused score', async () => {
    for (const fusion of ['min_max', 'dbsf', 'rrf', 'weighted']) {
      const res = await hybrid({ query: 'granite basalt marble', fusion, top_k: 100 });
      expect(res.status, fusion).toBe(200);
      expect(res.body.chunks.length, fusion).toBeGreaterThan(0);
      for (const c of res.body.chunks) {
        expect(Object.keys(c)).toEqual(expect.arrayContaining(['id', 'document_id', 'content', 'score', 'vector_score', 'keyword_score']));
        expect(c.score).toBeGreaterThanOrEqual(0);
        expect(c.score).toBeLessThanOrEqual(1);
      }
      const cut = res.body.chunks[Math.floor(res.body.chunks.length / 2)].score;
      const above = await hybrid({ query: 'granite basalt marble', fusion, top_k: 100, threshold: cut });
      expect(above.body.chunks.every((c: { score: number }) => c.score >= cut), fusion).toBe(true);
      expect(above.body.chunks.length).toBe(res.body.chunks.filter((c: { score: number }) => c.score >= cut).length);
    }
  });
});
