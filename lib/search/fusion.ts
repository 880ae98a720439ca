/*
 * Fusing the two halves of hybrid search into one ranking. Each candidate (the union of the best
 * vector and the best keyword candidates) carries both raw scores: cosine similarity and BM25.
 * The two are on unrelated scales (a cosine of 0.3 can be a good match; BM25 has no upper bound),
 * so each method first puts every side on [0, 1] over this query's candidates, then weighs them:
 *
 *   min_max   (x − min) / (max − min) per side, over the candidates with a score on that side
 *   dbsf      distribution-based: (x − (μ − 3σ)) / 6σ per side, clamped to [0, 1] (Qdrant's DBSF)
 *   rrf       reciprocal ranks, Σ weight / (rrf_k + rank), divided by its largest possible value
 *   weighted  the raw cosine and BM25 divided by the query's best BM25 (scales differ: kept for
 *             comparison and for clients that rely on it)
 *
 * score = (vector_weight · v + keyword_weight · k) / (vector_weight + keyword_weight) for the first
 * two and `weighted` (without the division there), so a chunk that is best on both sides scores 1.
 */

export const FUSION_METHODS = ['min_max', 'dbsf', 'rrf', 'weighted'] as const;
export type FusionMethod = (typeof FUSION_METHODS)[number];
export const DEFAULT_RRF_K = 60;

export interface FusionCandidate {
  id: string;
  /** Cosine similarity, or null when the vector side was not searched. */
  vector: number | null;
  /** BM25, 0 when the chunk holds no query term; null when the keyword side was not searched. */
  keyword: number | null;
}

export interface FusionOptions {
  method: FusionMethod;
  vectorWeight: number;
  keywordWeight: number;
  rrfK?: number;
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** A side's normalised score per candidate id; a candidate without signal on the side gets 0. */
type Normalised = Map<string, number>;

function present(cands: FusionCandidate[], side: 'vector' | 'keyword'): { id: string; x: number }[] {
  return cands.filter((c) => c[side] !== null && c[side]! > 0).map((c) => ({ id: c.id, x: c[side]! }));
}

function minMax(values: { id: string; x: number }[]): Normalised {
  const out: Normalised = new Map();
  if (values.length === 0) return out;
  const xs = values.map((v) => v.x);
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  for (const v of values) out.set(v.id, max > min ? (v.x - min) / (max - min) : 1);
  return out;
}

function distributionBased(values: { id: string; x: number }[]): Normalised {
  const out: Normalised = new Map();
  if (values.length === 0) return out;
  const mean = values.reduce((s, v) => s + v.x, 0) / values.length;
  const sd = Math.sqrt(values.reduce((s, v) => s + (v.x - mean) ** 2, 0) / values.length);
  if (sd === 0) return minMax(values);
  const low = mean - 3 * sd;
  for (const v of values) out.set(v.id, clamp01((v.x - low) / (6 * sd)));
  return out;
}

/** 1-based ranks by score, best first; equal scores share the better rank. */
function ranks(values: { id: string; x: number }[]): Map<string, number> {
  const sorted = [...values].sort((a, b) => b.x - a.x || (a.id < b.id ? -1 : 1));
  const out = new Map<string, number>();
  sorted.forEach((v, i) => out.set(v.id, i > 0 && v.x === sorted[i - 1].x ? out.get(sorted[i - 1].id)! : i + 1));
  return out;
}

/** The fused score of every candidate with signal on a weighted side, in [0, 1]. */
export function fuseScores(cands: FusionCandidate[], opts: FusionOptions): Map<string, number> {
  const vw = opts.vectorWeight;
  const kw = opts.keywordWeight;
  const vector = vw > 0 ? present(cands, 'vector') : [];
  const keyword = kw > 0 ? present(cands, 'keyword') : [];
  const out = new Map<string, number>();
  const ids = new Set([...vector.map((v) => v.id), ...keyword.map((v) => v.id)]);
  if (ids.size === 0 || vw + kw === 0) return out;

  if (opts.method === 'rrf') {
    const k = opts.rrfK ?? DEFAULT_RRF_K;
    const vr = ranks(vector);
    const kr = ranks(keyword);
    const best = (vw + kw) / (k + 1);
    for (const id of ids) {
      const v = vr.has(id) ? vw / (k + vr.get(id)!) : 0;
      const w = kr.has(id) ? kw / (k + kr.get(id)!) : 0;
      out.set(id, clamp01((v + w) / best));
    }
    return out;
  }

  if (opts.method === 'weighted') {
    const maxKeyword = Math.max(0, ...keyword.map((v) => v.x));
    const vById = new Map(vector.map((v) => [v.id, clamp01(v.x)]));
    const kById = new Map(keyword.map((v) => [v.id, maxKeyword > 0 ? clamp01(v.x / maxKeyword) : 0]));
    for (const id of ids) out.set(id, clamp01(vw * (vById.get(id) ?? 0) + kw * (kById.get(id) ?? 0)));
    return out;
  }

  const normalise = opts.method === 'dbsf' ? distributionBased : minMax;
  const v = normalise(vector);
  const k = normalise(keyword);
  for (const id of ids) out.set(id, clamp01((vw * (v.get(id) ?? 0) + kw * (k.get(id) ?? 0)) / (vw + kw)));
  return out;
}
