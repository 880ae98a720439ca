import { describe, expect, it } from 'vitest';
import { isId, newId, pooledRandom } from '@/lib/ids';

describe('ids', () => {
  it('are unique, well formed and sort by creation even within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => newId('request'));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(isId('request', id)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draw their random digits uniformly from the pooled source', () => {
    const buckets = new Array<number>(32).fill(0);
    const draws = 64_000; // several refills of the 4 KB pool
    for (let i = 0; i < draws; i++) {
      const x = pooledRandom();
      expect(x >= 0 && x < 1).toBe(true);
      buckets[Math.floor(x * 32)]++;
    }
    // 2,000 expected per digit; a stuck or biased source leaves digits far off.
    for (const count of buckets) {
      expect(count).toBeGreaterThan(1_700);
      expect(count).toBeLessThan(2_300);
    }
  });

  it('do not repeat their random part across milliseconds', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      seen.add(newId('file').slice('file_'.length + 10));
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(seen.size).toBe(50);
  });
});
