import { describe, expect, it } from 'vitest';
import { claimSize, PageClaims } from '@/lib/extraction/pdf/run/threads';

describe('page claims shared by the threads of one PDF', () => {
  it('hand out every page exactly once, in runs, whichever thread asks', () => {
    for (const [numPages, threads] of [
      [400, 2],
      [619, 2],
      [33, 2],
      [100, 4],
      [17, 3],
    ]) {
      const size = claimSize(numPages, threads);
      const first = PageClaims.create(numPages, size);
      // The other threads see the same counter through the buffer they are sent.
      const others = Array.from({ length: threads - 1 }, () => new PageClaims(first.buffer, numPages, size));
      const all = [first, ...others];
      const seen: number[] = [];
      const perThread = all.map(() => 0);
      for (let turn = 0; ; turn++) {
        // Threads ask in an uneven order: one thread two runs in a row now and then.
        const i = (turn * 7 + (turn % 5 === 0 ? 1 : 0)) % all.length;
        const run = all[i].claim();
        // Once one thread is told there is nothing left, so is every other.
        if (!run) break;
        expect(run.to - run.from + 1).toBeLessThanOrEqual(size);
        expect(run.from).toBeLessThanOrEqual(run.to);
        for (let n = run.from; n <= run.to; n++) seen.push(n);
        perThread[i] += run.to - run.from + 1;
      }
      expect(seen).toEqual(Array.from({ length: numPages }, (_, k) => k + 1));
      expect(perThread.reduce((a, b) => a + b, 0)).toBe(numPages);
      for (const c of all) expect(c.claim()).toBeNull();
    }
  });

  it('take runs small enough for the threads to end within a few pages of each other, and at least a page', () => {
    expect(claimSize(400, 2)).toBe(8);
    expect(claimSize(100, 2)).toBe(6);
    expect(claimSize(32, 2)).toBe(2);
    expect(claimSize(5, 4)).toBe(1);
    expect(claimSize(100_000, 4)).toBe(8);
  });
});
