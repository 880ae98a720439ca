/*
 * Keyword postings: for each term of a knowledge base's generation, the chunks that hold it, as
 * packed records in chunk-ordinal order, in blocks of at most BLOCK_RECORDS records, one row
 * each (kb_postings), keyed by the block's first ordinal. A record is 6 bytes, three big-endian
 * unsigned 16-bit integers:
 *   the chunk's ordinal less the block's key, tf (the term's occurrences in the chunk), and
 *   length (the chunk's number of terms, BM25's document length).
 * A rare term is one small row. Adding a document appends to each of its terms' last block (or
 * starts one); deleting one rewrites only the blocks its ordinals fall in. Rows stay far under
 * 2 KB, so PostgreSQL never compresses them or moves them out of line (TOAST).
 *
 * Scoring reads the lists of the query's terms side by side in ordinal order (document at a
 * time) and computes each chunk's exact Okapi BM25 once:
 *   score = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))
 * written idf·(k1+1)·(1 − norm/(tf + norm)) with norm = k1·(1 − b + b·len/avglen).
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const POSTING_BYTES = 6;
/**
 * Records per block at most: a row of 384 bytes. Appending rewrites the block's row, so small
 * blocks keep indexing cheap (bench:search at 20k chunks: 527 chunks/s and 1.6 KB of postings per
 * chunk with 64, 441 chunks/s and 2.9 KB with 256, counting the space of rewritten rows), while a
 * word in 20,000 chunks is still only about 300 rows to read.
 */
export const BLOCK_RECORDS = 64;
/** A block's ordinals lie within this distance of its first, so each is stored as a 16-bit offset. */
export const BLOCK_SPAN = 65_535;
/** Term frequencies and chunk lengths are stored up to this (a chunk holds at most 8,192 tokens). */
export const MAX_STORED = 65_535;

export interface PostingRecord {
  ordinal: number;
  tf: number;
  length: number;
}

/** The postings of one term in ordinal order. */
export interface PostingList {
  ordinals: Int32Array;
  tfs: Uint16Array;
  lengths: Uint16Array;
  count: number;
}

/** One list from a term's block rows, read in block order (a block's key is its first ordinal). */
export function postingList(rows: ReadonlyArray<{ block: number; data: Uint8Array }>): PostingList {
  const total = rows.reduce((n, r) => n + r.data.byteLength, 0);
  const data = new Uint8Array(total);
  let at = 0;
  for (const r of rows) {
    data.set(r.data, at);
    at += r.data.byteLength;
  }
  return postingListOfBlocks(
    rows.map((r) => r.block),
    rows.map((r) => recordsIn(r.data)),
    data,
  );
}

/** One list from a term's blocks joined: their keys, their numbers of records, and their bytes one after another. */
export function postingListOfBlocks(blocks: ReadonlyArray<number>, counts: ReadonlyArray<number>, data: Uint8Array): PostingList {
  const count = recordsIn(data);
  if (counts.reduce((n, c) => n + c, 0) !== count) throw new Error(`Postings of ${count} records do not match their blocks' counts`);
  const list: PostingList = { ordinals: new Int32Array(count), tfs: new Uint16Array(count), lengths: new Uint16Array(count), count };
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  blocks.forEach((block, b) => {
    for (let end = at + counts[b]; at < end; at++) {
      list.ordinals[at] = block + view.getUint16(at * POSTING_BYTES);
      list.tfs[at] = view.getUint16(at * POSTING_BYTES + 2);
      list.lengths[at] = view.getUint16(at * POSTING_BYTES + 4);
    }
  });
  return list;
}

function recordsIn(data: Uint8Array): number {
  if (data.byteLength % POSTING_BYTES !== 0) throw new Error(`A postings row of ${data.byteLength} bytes is not a whole number of records`);
  return data.byteLength / POSTING_BYTES;
}

export const ordinalAt = (l: PostingList, i: number) => l.ordinals[i];

/** Records packed for the block that starts at `block` (tf and length saturate at MAX_STORED). */
export function encodeRecords(block: number, records: ReadonlyArray<PostingRecord>): Uint8Array {
  const out = new Uint8Array(records.length * POSTING_BYTES);
  const view = new DataView(out.buffer);
  records.forEach((r, i) => {
    view.setUint16(i * POSTING_BYTES, r.ordinal - block);
    view.setUint16(i * POSTING_BYTES + 2, Math.min(r.tf, MAX_STORED));
    view.setUint16(i * POSTING_BYTES + 4, Math.min(r.length, MAX_STORED));
  });
  return out;
}

/**
 * Where a term's new records (ordinal order, after every record it has) go: appended to its last
 * block while that has room and stays within BLOCK_SPAN, then in new blocks, each keyed by its
 * first ordinal. Returns the bytes to append per block.
 */
export function placeRecords(last: { block: number; count: number } | null, records: ReadonlyArray<PostingRecord>): Array<{ block: number; data: Uint8Array }> {
  const out: Array<{ block: number; data: Uint8Array }> = [];
  let i = 0;
  if (last) {
    while (i < records.length && last.count + i < BLOCK_RECORDS && records[i].ordinal - last.block <= BLOCK_SPAN) i++;
    if (i > 0) out.push({ block: last.block, data: encodeRecords(last.block, records.slice(0, i)) });
  }
  while (i < records.length) {
    const block = records[i].ordinal;
    let j = i;
    while (j < records.length && j - i < BLOCK_RECORDS && records[j].ordinal - block <= BLOCK_SPAN) j++;
    out.push({ block, data: encodeRecords(block, records.slice(i, j)) });
    i = j;
  }
  return out;
}

/** The records of one block's row whose ordinal `drop` does not want, packed again (the same bytes when none goes). */
export function withoutOrdinals(data: Uint8Array, block: number, drop: (ordinal: number) => boolean): Uint8Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const kept: number[] = [];
  const n = recordsIn(data);
  for (let i = 0; i < n; i++) if (!drop(block + view.getUint16(i * POSTING_BYTES))) kept.push(i);
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

/** What a term of this weight adds to a chunk's BM25 score, given the generation's average length. */
function termScore(weight: number, tf: number, length: number, avgLength: number): number {
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgLength);
  return weight * (1 - norm / (tf + norm));
}

/** Bytes of a bytea value as a driver returns it (bytes; a text form `\x…` is decoded in case one does not). */
export function driverBytes(value: Uint8Array | string): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value.replace(/^\\x/, ''), 'hex') : value;
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
