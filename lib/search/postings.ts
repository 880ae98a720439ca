/*
 * Keyword postings: for each term of a knowledge base's generation, the chunks that hold it, as
 * packed records in chunk-ordinal order, in rows per bucket of BUCKET_ORDINALS ordinals
 * (kb_postings). A record is 6 bytes, three big-endian unsigned 16-bit integers (SQL builds them
 * from int4send too):
 *   the chunk's ordinal less its bucket's first, tf (the term's occurrences in the chunk), and
 *   length (the chunk's number of terms, BM25's document length).
 * Adding a document appends to the last bucket of each of its terms; deleting one rewrites only
 * the buckets its ordinals fall in. A bucket's row stays under 2 KB, so PostgreSQL never moves
 * it out of line (TOAST) or compresses it, and appending rewrites a small row.
 *
 * Scoring reads the lists of the query's terms side by side in ordinal order (document at a
 * time) and computes each chunk's exact Okapi BM25 once:
 *   score = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))
 * written idf·(k1+1)·(1 − norm/(tf + norm)) with norm = k1·(1 − b + b·len/avglen).
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const POSTING_BYTES = 6;
export const BUCKET_ORDINALS = 256;
/** Term frequencies and chunk lengths are stored up to this (a chunk holds at most 8,192 tokens). */
export const MAX_STORED = 65_535;

/** The postings of one term in ordinal order. */
export interface PostingList {
  ordinals: Int32Array;
  tfs: Uint16Array;
  lengths: Uint16Array;
  count: number;
}

/** One list from a term's bucket rows, read in bucket order. */
export function postingList(rows: ReadonlyArray<{ bucket: number; data: Uint8Array }>): PostingList {
  const count = rows.reduce((n, r) => n + recordsIn(r.data), 0);
  const list: PostingList = { ordinals: new Int32Array(count), tfs: new Uint16Array(count), lengths: new Uint16Array(count), count };
  let at = 0;
  for (const { bucket, data } of rows) {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const base = bucket * BUCKET_ORDINALS;
    for (let i = 0, n = recordsIn(data); i < n; i++, at++) {
      list.ordinals[at] = base + view.getUint16(i * POSTING_BYTES);
      list.tfs[at] = view.getUint16(i * POSTING_BYTES + 2);
      list.lengths[at] = view.getUint16(i * POSTING_BYTES + 4);
    }
  }
  return list;
}

function recordsIn(data: Uint8Array): number {
  if (data.byteLength % POSTING_BYTES !== 0) throw new Error(`A postings row of ${data.byteLength} bytes is not a whole number of records`);
  return data.byteLength / POSTING_BYTES;
}

export const ordinalAt = (l: PostingList, i: number) => l.ordinals[i];

/** The records of one bucket's row whose ordinal `drop` does not want, packed again (the same bytes when none goes). */
export function withoutOrdinals(data: Uint8Array, bucket: number, drop: (ordinal: number) => boolean): Uint8Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const base = bucket * BUCKET_ORDINALS;
  const kept: number[] = [];
  const n = recordsIn(data);
  for (let i = 0; i < n; i++) if (!drop(base + view.getUint16(i * POSTING_BYTES))) kept.push(i);
  if (kept.length === n) return data;
  const out = new Uint8Array(kept.length * POSTING_BYTES);
  kept.forEach((i, k) => out.set(data.subarray(i * POSTING_BYTES, (i + 1) * POSTING_BYTES), k * POSTING_BYTES));
  return out;
}

/** A query term's list and its weight idf·(k1+1). */
export interface WeightedList {
  list: PostingList;
  weight: number;
}

function termScore(weight: number, tf: number, length: number, avgLength: number): number {
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgLength);
  return weight * (1 - norm / (tf + norm));
}

/** Every chunk holding at least one query term, with its BM25 score (ordinal order). */
export interface ScoredOrdinals {
  ordinals: Int32Array;
  scores: Float64Array;
  count: number;
}

/** Scores every chunk of the lists (document at a time over the ordinal-ordered lists). */
export function scoreAll(terms: WeightedList[], avgLength: number): ScoredOrdinals {
  const capacity = terms.reduce((n, t) => n + t.list.count, 0);
  const ordinals = new Int32Array(capacity);
  const scores = new Float64Array(capacity);
  const at = new Int32Array(terms.length);
  const next = new Int32Array(terms.length);
  for (let t = 0; t < terms.length; t++) next[t] = terms[t].list.count > 0 ? ordinalAt(terms[t].list, 0) : 2 ** 31 - 1;
  let count = 0;
  for (;;) {
    let ordinal = 2 ** 31 - 1;
    for (let t = 0; t < terms.length; t++) if (at[t] < terms[t].list.count && next[t] < ordinal) ordinal = next[t];
    if (ordinal === 2 ** 31 - 1) break;
    let score = 0;
    for (let t = 0; t < terms.length; t++) {
      const { list, weight } = terms[t];
      if (at[t] >= list.count || next[t] !== ordinal) continue;
      score += termScore(weight, list.tfs[at[t]], list.lengths[at[t]], avgLength);
      at[t]++;
      if (at[t] < list.count) next[t] = ordinalAt(list, at[t]);
    }
    ordinals[count] = ordinal;
    scores[count] = score;
    count++;
  }
  return { ordinals, scores, count };
}

/** The BM25 score of one chunk (0 when it holds none of the terms): a binary search per list. */
export function scoreOne(terms: WeightedList[], avgLength: number, ordinal: number): number {
  let score = 0;
  for (const { list, weight } of terms) {
    let lo = 0;
    let hi = list.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const o = ordinalAt(list, mid);
      if (o < ordinal) lo = mid + 1;
      else if (o > ordinal) hi = mid - 1;
      else {
        score += termScore(weight, list.tfs[mid], list.lengths[mid], avgLength);
        break;
      }
    }
  }
  return score;
}

/**
 * Positions in `scored` of its `want` best scores and of every score tied with the last of them,
 * best first. A binary heap of `want` positions: n·log(want) for n scored chunks.
 */
export function bestPositions(scored: ScoredOrdinals, want: number): number[] {
  const n = scored.count;
  if (want <= 0 || n === 0) return [];
  const { scores } = scored;
  if (want < n) {
    // Min-heap on score of the best `want` positions seen so far.
    const heap = new Int32Array(want);
    let size = 0;
    const less = (a: number, b: number) => scores[a] < scores[b];
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < size && less(heap[l], heap[m])) m = l;
        if (r < size && less(heap[r], heap[m])) m = r;
        if (m === i) return;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    };
    for (let p = 0; p < n; p++) {
      if (size < want) {
        heap[size] = p;
        let i = size++;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (!less(heap[i], heap[parent])) break;
          [heap[i], heap[parent]] = [heap[parent], heap[i]];
          i = parent;
        }
      } else if (scores[p] > scores[heap[0]]) {
        heap[0] = p;
        down(0);
      }
    }
    const floor = scores[heap[0]];
    const out: number[] = [];
    for (let p = 0; p < n; p++) if (scores[p] >= floor) out.push(p);
    return out.sort((a, b) => scores[b] - scores[a] || a - b);
  }
  return Array.from({ length: n }, (_, p) => p).sort((a, b) => scores[b] - scores[a] || a - b);
}
