import { describe, expect, it } from 'vitest';
import { PostingsCache } from '@/lib/search/postings-cache';
import {
  BLOCK_RECORDS,
  BLOCK_SPAN,
  bestPositions,
  MAX_STORED,
  placeRecords,
  postingList,
  scoreAll,
  scoreOne,
  withoutOrdinals,
  type PostingRecord,
} from '@/lib/search/postings';

const records = (ordinals: number[], tf = 1, length = 10): PostingRecord[] => ordinals.map((ordinal) => ({ ordinal, tf, length }));

/** Applies placements to a term's rows the way the upsert does: append to a block or create it. */
function apply(rows: Map<number, Uint8Array>, placed: Array<{ block: number; data: Uint8Array }>) {
  for (const { block, data } of placed) {
    const old = rows.get(block) ?? new Uint8Array(0);
    const joined = new Uint8Array(old.byteLength + data.byteLength);
    joined.set(old);
    joined.set(data, old.byteLength);
    rows.set(block, joined);
  }
}

const listOf = (rows: Map<number, Uint8Array>) => postingList([...rows].sort((a, b) => a[0] - b[0]).map(([block, data]) => ({ block, data })));

describe('postings blocks', () => {
  it('appends to the last block until it is full, then starts blocks keyed by their first ordinal', () => {
    const rows = new Map<number, Uint8Array>();
    const all: number[] = [];
    for (let doc = 0; doc < 7; doc++) {
      const ordinals = Array.from({ length: 100 }, (_, i) => 1000 + doc * 100 + i);
      all.push(...ordinals);
      const lastBlock = rows.size ? Math.max(...rows.keys()) : null;
      const last = lastBlock === null ? null : { block: lastBlock, count: rows.get(lastBlock)!.byteLength / 6 };
      apply(rows, placeRecords(last, records(ordinals)));
    }
    const blocks = Math.ceil(700 / BLOCK_RECORDS);
    expect(blocks).toBeGreaterThan(2);
    expect([...rows.keys()]).toEqual(Array.from({ length: blocks }, (_, k) => 1000 + k * BLOCK_RECORDS));
    const sizes = [...rows.values()].map((d) => d.byteLength / 6);
    expect(sizes).toEqual([...Array<number>(blocks - 1).fill(BLOCK_RECORDS), 700 - (blocks - 1) * BLOCK_RECORDS]);
    expect([...listOf(rows).ordinals]).toEqual(all);
  });

  it('starts a new block when an ordinal lies more than BLOCK_SPAN past the block key', () => {
    const placed = placeRecords({ block: 10, count: 3 }, records([20, 10 + BLOCK_SPAN, 11 + BLOCK_SPAN, 200_000]));
    expect(placed.map((p) => [p.block, p.data.byteLength / 6])).toEqual([
      [10, 2],
      [11 + BLOCK_SPAN, 1],
      [200_000, 1],
    ]);
    const list = postingList(placed);
    expect([...list.ordinals]).toEqual([20, 10 + BLOCK_SPAN, 11 + BLOCK_SPAN, 200_000]);
  });

  it('keeps tf and length exactly up to MAX_STORED and saturates beyond', () => {
    const list = postingList(placeRecords(null, [{ ordinal: 5, tf: 7, length: MAX_STORED }, { ordinal: 6, tf: MAX_STORED + 10, length: 70_000 }]));
    expect([...list.tfs]).toEqual([7, MAX_STORED]);
    expect([...list.lengths]).toEqual([MAX_STORED, MAX_STORED]);
  });

  it('drops the records of deleted ordinals and returns the same bytes when none is dropped', () => {
    const [{ block, data }] = placeRecords(null, records([3, 4, 5, 9]));
    expect(withoutOrdinals(data, block, (o) => o > 100)).toBe(data);
    const kept = withoutOrdinals(data, block, (o) => o === 4 || o === 5);
    expect([...postingList([{ block, data: kept }]).ordinals]).toEqual([3, 9]);
    expect(withoutOrdinals(data, block, () => true).byteLength).toBe(0);
  });
});

describe('scoring over postings', () => {
  it('scores every chunk of the merged lists as BM25 from its definition, and one chunk alike', () => {
    const random = (() => {
      let s = 7;
      return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    })();
    const lengths = Array.from({ length: 500 }, () => 5 + Math.floor(random() * 200));
    const terms = Array.from({ length: 4 }, (_, t) =>
      Array.from({ length: 500 }, (_, o) => o).filter(() => random() < [0.02, 0.1, 0.4, 0.8][t]).map((o) => ({ ordinal: o, tf: 1 + Math.floor(random() * 5), length: lengths[o] })),
    );
    const avg = 60;
    const weights = [3.1, 2.2, 0.9, 0.2];
    const lists = terms.map((r, t) => ({ list: postingList(placeRecords(null, r)), weight: weights[t] }));
    const scored = scoreAll(lists, avg);
    const expected = new Map<number, number>();
    terms.forEach((r, t) => {
      for (const { ordinal, tf, length } of r) {
        const s = (weights[t] / 2.2) * ((tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * length) / avg)));
        expected.set(ordinal, (expected.get(ordinal) ?? 0) + s);
      }
    });
    expect(scored.count).toBe(expected.size);
    for (let i = 0; i < scored.count; i++) {
      expect(scored.scores[i]).toBeCloseTo(expected.get(scored.ordinals[i])!, 10);
      if (i > 0) expect(scored.ordinals[i]).toBeGreaterThan(scored.ordinals[i - 1]);
    }
    for (const o of [0, 17, 250, 499]) expect(scoreOne(lists, avg, o)).toBeCloseTo(expected.get(o) ?? 0, 10);
    const best = bestPositions(scored, 10).map((p) => scored.ordinals[p]);
    const reference = [...expected].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 10).map(([o]) => o);
    expect(best.slice(0, 10)).toEqual(reference);
  });

  it('keeps every score tied with the last wanted one', () => {
    const lists = [{ list: postingList(placeRecords(null, records([1, 2, 3, 4, 5]))), weight: 1 }];
    const scored = scoreAll(lists, 10);
    expect(bestPositions(scored, 2)).toHaveLength(5);
    expect(bestPositions(scored, 0)).toEqual([]);
  });
});

describe('postings cache', () => {
  const v = (nextOrdinal: number, chunkTotal: number) => ({ kbId: 'kb_1', generation: 1, nextOrdinal, chunkTotal });
  const list = (n: number) => postingList(placeRecords(null, records(Array.from({ length: n }, (_, i) => i))));

  it('answers only for the same state of the generation', () => {
    const cache = new PostingsCache(1 << 20);
    const a = list(10);
    cache.set(v(10, 10), 'tide', a);
    expect(cache.get(v(10, 10), 'tide')).toBe(a);
    expect(cache.get(v(20, 20), 'tide')).toBeUndefined();
    expect(cache.get(v(10, 9), 'tide')).toBeUndefined();
    expect(cache.get({ ...v(10, 10), generation: 2 }, 'tide')).toBeUndefined();
    expect(cache.get(v(10, 10), 'keeper')).toBeUndefined();
  });

  it('keeps within its bytes, dropping the least recently used first', () => {
    const cache = new PostingsCache(3 * (100 * 8 + 200 + 2));
    for (const term of ['a', 'b', 'c']) cache.set(v(1, 1), term, list(100));
    expect(cache.size.entries).toBe(3);
    cache.get(v(1, 1), 'a');
    cache.set(v(1, 1), 'd', list(100));
    expect(cache.get(v(1, 1), 'b')).toBeUndefined();
    expect(cache.get(v(1, 1), 'a')).toBeDefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(3 * (100 * 8 + 200 + 2));
    cache.set(v(1, 1), 'huge', list(10_000));
    expect(cache.get(v(1, 1), 'huge')).toBeUndefined();
  });
});
