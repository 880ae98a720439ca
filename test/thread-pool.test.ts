import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ThreadFailure, ThreadPool, ThreadTaskError } from '@/lib/workers/thread-pool';

/**
 * The worker-thread pool with a real thread entry (plain JavaScript answering the pool's
 * protocol): answers, errors thrown inside, and threads that run out of memory, hang or exit.
 */
const ENTRY = `
import { parentPort, threadId } from 'node:worker_threads';
let kept = [];
parentPort.on('message', ({ id, message }) => {
  const reply = (value) => parentPort.postMessage({ id, ok: true, value });
  switch (message.type) {
    case 'echo': return reply({ value: message.value, threadId });
    case 'fail': {
      const err = Object.assign(new Error('bad input'), { name: 'IndexingError', code: 'TOO_MANY_CHUNKS' });
      return parentPort.postMessage({ id, ok: false, error: { name: err.name, message: err.message, code: err.code } });
    }
    case 'grow': for (;;) kept.push(new Array(100_000).fill(Math.random()));
    case 'hang': for (;;);
    case 'exit': process.exit(3);
  }
});
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-threads-'));
const entry = path.join(dir, 'entry.mjs');
fs.writeFileSync(entry, ENTRY);
const pools: ThreadPool[] = [];

function pool(size = 1, memoryMb = 64): ThreadPool {
  const created = new ThreadPool({ entry: async () => entry, size: () => size, memoryMb: () => memoryMb });
  pools.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<ThreadFailure> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ThreadFailure);
  return err as ThreadFailure;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('thread pool', () => {
  it('answers requests and keeps a thread between sessions', async () => {
    const threads = pool();
    const first = await threads.acquire();
    const a = await first.request<{ value: number; threadId: number }>({ type: 'echo', value: 1 }, 5_000);
    expect(a.value).toBe(1);
    first.release();
    const second = await threads.acquire();
    const b = await second.request<{ value: number; threadId: number }>({ type: 'echo', value: 2 }, 5_000);
    expect(b).toEqual({ value: 2, threadId: a.threadId });
    second.release();
  });

  it('reports an error thrown inside with its name and code, and the thread stays usable', async () => {
    const session = await pool().acquire();
    const err = await session.request({ type: 'fail' }, 5_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ThreadTaskError);
    expect((err as ThreadTaskError).reported).toEqual({ name: 'IndexingError', message: 'bad input', code: 'TOO_MANY_CHUNKS' });
    expect(await session.request({ type: 'echo', value: 'ok' }, 5_000)).toMatchObject({ value: 'ok' });
    session.release();
  });

  it('stops a thread that exceeds its memory limit, and the next session gets a fresh one', async () => {
    const threads = pool(1, 64);
    const session = await threads.acquire();
    const before = await session.request<{ threadId: number }>({ type: 'echo' }, 5_000);
    expect((await failure(session.request({ type: 'grow' }, 30_000))).reason).toBe('memory');
    session.release();
    const next = await threads.acquire();
    const after = await next.request<{ threadId: number }>({ type: 'echo' }, 5_000);
    expect(after.threadId).not.toBe(before.threadId);
    next.release();
  });

  it('terminates a request that runs past its time limit', async () => {
    const session = await pool().acquire();
    const started = performance.now();
    const err = await failure(session.request({ type: 'hang' }, 300));
    expect(err.reason).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(5_000);
    session.release();
  });

  it('reports a thread that exits as crashed', async () => {
    const session = await pool().acquire();
    const err = await failure(session.request({ type: 'exit' }, 5_000));
    expect(err.reason).toBe('crashed');
    expect(err.message).toMatch(/exit code 3/);
    session.release();
  });

  it('runs at most `size` sessions at once; the next waits for a release', async () => {
    const threads = pool(1);
    const first = await threads.acquire();
    let secondTaken = false;
    const second = threads.acquire().then((s) => {
      secondTaken = true;
      return s;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(secondTaken).toBe(false);
    first.release();
    const session = await second;
    expect(await session.request({ type: 'echo', value: 3 }, 5_000)).toMatchObject({ value: 3 });
    session.release();
  });

  it('fails sessions under way when closed', async () => {
    const threads = pool();
    const session = await threads.acquire();
    const pending = failure(session.request({ type: 'hang' }, 30_000));
    await threads.close();
    expect((await pending).reason).toBe('closed');
    await expect(threads.acquire()).rejects.toBeInstanceOf(ThreadFailure);
  });
});
