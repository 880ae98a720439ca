/*
 * Keyword postings: for each term of a knowledge base's generation, the chunks that hold it, as
 * packed records in chunk-ordinal order. A record is 12 bytes, three big-endian 32-bit integers
 * (what PostgreSQL's int4send writes, so SQL can build them too):
 *   ordinal (the chunk's number in its generation), tf (the term's occurrences in the chunk),
 *   length (the chunk's number of terms, BM25's document length).
 * The records of a term are stored in rows per bucket of BUCKET_ORDINALS ordinals (kb_postings),
 * so adding a document appends to the last bucket of each of its terms and deleting one rewrites
 * only the buckets its ordinals fall in.
 *
 * Scoring reads the lists of the query's terms side by side in ordinal order (document at a
 * time) and computes each chunk's exact Okapi BM25 once:
 *   score = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))
 * written idf·(k1+1)·(1 − norm/(tf + norm)) with norm = k1·(1 − b + b·len/avglen).
 */

export const POSTING_BYTES = 12;
export const BUCKET_ORDINALS = 1024;
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** The postings of one term: `count` records in ordinal order. */
export interface PostingList {
  view: DataView;
  count: number;
}

/** One list from a term's bucket rows, read in bucket order. */
export function postingList(parts: Uint8Array[]): PostingList {
  let bytes: Uint8Array;
  if (parts.length === 1) bytes = parts[0];
  else {
    bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.byteLength;
    }
  }
  if (bytes.byteLength % POSTING_BYTES !== 0) throw new Error(`A postings row of ${bytes.byteLength} bytes is not a whole number of records`);
  return { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), count: bytes.byteLength / POSTING_BYTES };
}

export const ordinalAt = (l: PostingList, i: number) => l.view.getInt32(i * POSTING_BYTES);
const tfAt = (l: PostingList, i: number) => l.view.getInt32(i * POSTING_BYTES + 4);
const lengthAt = (l: PostingList, i: number) => l.view.getInt32(i * POSTING_BYTES + 8);

/** Packs records (already in ordinal order). */
export function encodePostings(records: ReadonlyArray<{ ordinal: number; tf: number; length: number }>): Uint8Array {
  const bytes = new Uint8Array(records.length * POSTING_BYTES);
  const view = new DataView(bytes.buffer);
  records.forEach((r, i) => {
    view.setInt32(i * POSTING_BYTES, r.ordinal);
    view.setInt32(i * POSTING_BYTES + 4, r.tf);
    view.setInt32(i * POSTING_BYTES + 8, r.length);
  });
  return bytes;
}

/** The records of `bytes` whose ordinal `drop` does not want, packed again. */
export function withoutOrdinals(bytes: Uint8Array, drop: (ordinal: number) => boolean): Uint8Array {
  const list = postingList([bytes]);
  const kept: number[] = [];
  for (let i = 0; i < list.count; i++) if (!drop(ordinalAt(list, i))) kept.push(i);
  if (kept.length === list.count) return bytes;
  const out = new Uint8Array(kept.length * POSTING_BYTES);
  kept.forEach((i, k) => out.set(bytes.subarray(i * POSTING_BYTES, (i + 1) * POSTING_BYTES), k * POSTING_BYTES));
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
      score += termScore(weight, tfAt(list, at[t]), lengthAt(list, at[t]), avgLength);
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
        score += termScore(weight, tfAt(list, mid), lengthAt(list, mid), avgLength);
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
