import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { extractDocx } from '@/lib/extraction/extractors';
import { ProgressWriter } from '@/lib/db/pacing';
import { FIXTURES_DIR } from '@/test/support/fixtures';

/** Progress of running extractions: how often the task's row is written, and what formats report. */
describe('progress writes', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function writer() {
    const writes: number[] = [];
    return { writes, progress: new ProgressWriter(async (p) => void writes.push(p), 500) };
  }

  it('writes the first value at once and at most one value per interval', async () => {
    const { writes, progress } = writer();
    progress.report(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(writes).toEqual([1]);
    progress.report(2);
    progress.report(3);
    await vi.advanceTimersByTimeAsync(499);
    expect(writes).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([1, 3]);
  });

  it('writes a value reported between writes when the interval is up, without waiting for another report', async () => {
    // A long page (OCR) or a long stage after a quick one: the last value must not wait for it.
    const { writes, progress } = writer();
    progress.report(10);
    await vi.advanceTimersByTimeAsync(100);
    progress.report(11);
    await vi.advanceTimersByTimeAsync(400);
    expect(writes).toEqual([10, 11]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(writes).toEqual([10, 11]);
  });

  it('writes a value reported with now at once, dropping the one held back', async () => {
    const { writes, progress } = writer();
    progress.report(1);
    progress.report(2);
    progress.report(3, true);
    await vi.advanceTimersByTimeAsync(0);
    expect(writes).toEqual([1, 3]);
    // The interval counts from that write.
    progress.report(4);
    await vi.advanceTimersByTimeAsync(499);
    expect(writes).toEqual([1, 3]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([1, 3, 4]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(writes).toEqual([1, 3, 4]);
  });

  it('writes a report after the interval at once even when its timer has not run (a busy thread)', async () => {
    const { writes, progress } = writer();
    progress.report(1);
    progress.report(2);
    // Time passes without the event loop running timers.
    vi.setSystemTime(Date.now() + 600);
    progress.report(3);
    for (let i = 0; i < 5; i++) await Promise.resolve(); // the writes' promise chain, no timers
    expect(writes).toEqual([1, 3]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(writes).toEqual([1, 3]);
  });

  it('holds the first write back for firstAfterMs, so a task that ends sooner writes none', async () => {
    const writes: number[] = [];
    const quick = new ProgressWriter(async (p) => void writes.push(p), 500, 300);
    quick.report(99);
    await vi.advanceTimersByTimeAsync(299);
    expect(writes).toEqual([]);
    await quick.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(writes).toEqual([]);

    const slow = new ProgressWriter(async (p) => void writes.push(p), 500, 300);
    slow.report(10);
    await vi.advanceTimersByTimeAsync(300);
    expect(writes).toEqual([10]);
    slow.report(20);
    await vi.advanceTimersByTimeAsync(499);
    expect(writes).toEqual([10]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([10, 20]);
  });

  it('skips a value already written, and writes nothing after stop', async () => {
    const { writes, progress } = writer();
    progress.report(5);
    await vi.advanceTimersByTimeAsync(600);
    progress.report(5);
    expect(writes).toEqual([5]);
    progress.report(6);
    progress.report(7);
    await progress.stop();
    await vi.advanceTimersByTimeAsync(1000);
    progress.report(8);
    expect(writes).toEqual([5, 6]);
  });

  it('writes one value after another: a slow write is never overtaken', async () => {
    const order: string[] = [];
    const progress = new ProgressWriter(async (p) => {
      order.push(`start ${p}`);
      await new Promise((r) => setTimeout(r, p === 1 ? 2_000 : 10));
      order.push(`end ${p}`);
    }, 500);
    progress.report(1);
    await vi.advanceTimersByTimeAsync(500);
    progress.report(2);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });
});

describe('progress of formats without pages', () => {
  it('DOCX reports its stages before the end, not only when done', async () => {
    const progress: [number, number][] = [];
    const result = await extractDocx({
      path: path.join(FIXTURES_DIR, 'docx', 'word_sample.docx'),
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      extension: '.docx',
      mode: 'simple',
      options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
      onProgress: (done, total) => progress.push([done, total]),
      signal: new AbortController().signal,
      maxPages: 1000,
      tmpDir: os.tmpdir(),
    });
    const percents = progress.map(([done, total]) => Math.floor((done / total) * 100));
    expect(percents.length).toBeGreaterThanOrEqual(3);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents[0]).toBeLessThan(50);
    expect(progress.at(-1)).toEqual([result.totalPages, result.totalPages]);
  });
});
