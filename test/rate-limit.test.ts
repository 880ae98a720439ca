import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as filesRoute from '@/app/v1/files/route';
import * as detailedHealthRoute from '@/app/health/detailed/route';
import * as healthRoute from '@/app/health/route';
import {
  consumeRateLimit,
  consumeRateLimitInMemory,
  inMemoryRateLimitKeys,
  rateLimitError,
  type RateLimitState,
} from '@/lib/api/rate-limit';
import { openDatabase } from '@/lib/db/client';
import { rateLimits } from '@/lib/db/schema';
import { createScratchDatabase } from '@/test/support/database';
import { useTestApp, type TestResponse } from '@/test/support/app';

const LIMIT = 5;
const app = useTestApp({ QUARRY_RATE_LIMIT_PER_MINUTE: String(LIMIT) });

// Injected clocks run in 2023, before the real-time tests here, so the idle-key sweeps they
// trigger never touch a real-time test's window.
const BASE = 1_700_000_040_000; // a minute boundary
let keys = 0;
const freshKey = () => `key_rate_${++keys}`;

type Consume = (keyId: string, limit: number, now: number) => Promise<RateLimitState>;
const inMemory: Consume = async (keyId, limit, now) => consumeRateLimitInMemory(keyId, limit, now);
const inDatabase: Consume = (keyId, limit, now) => consumeRateLimit(app.db, keyId, limit, now);

/**
 * The rule restated over a plain log of admitted times: a request counts everything admitted since
 * the start of the second 60 s before its own. Written without buckets, to check the buckets against.
 */
class ReferenceLog {
  readonly admitted: number[] = [];
  constructor(readonly limit: number) {}
  countedAt(now: number): number {
    const from = (Math.floor(now / 1000) - 60) * 1000;
    return this.admitted.filter((t) => t >= from && t <= now).length;
  }
  consume(now: number): { allowed: boolean; remaining: number; reset: number } {
    const allowed = this.countedAt(now) < this.limit;
    if (allowed) this.admitted.push(now);
    const remainingAt = (t: number) => Math.max(0, this.limit - this.countedAt(t));
    let reset = Math.floor(now / 1000) + 1;
    while (remainingAt(reset * 1000) <= remainingAt(now) && reset < now / 1000 + 120) reset++;
    return { allowed, remaining: remainingAt(now), reset };
  }
}

/** The most admitted requests found in any 60-second span [s, s + 60 s). */
function busiestMinute(admitted: number[]): number {
  return Math.max(0, ...admitted.map((s) => admitted.filter((t) => t >= s && t < s + 60_000).length));
}

/** Seeded, so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bursts and lulls over about five minutes, so the limit is reached again and again. */
function arrivals(seed: number, count: number): number[] {
  const next = random(seed);
  const times: number[] = [];
  let t = BASE - 30_000;
  while (times.length < count) {
    t += next() < 0.1 ? 5_000 + next() * 40_000 : next() * 800;
    times.push(Math.floor(t));
  }
  return times;
}

describe.each([
  ['in memory', inMemory],
  ['in the database', inDatabase],
])('sliding window %s', (_name, consume) => {
  it('refuses the last 20 of limit + 20 requests sent across a minute boundary', async () => {
    const keyId = freshKey();
    const limit = 1000;
    const results: boolean[] = [];
    // Half in the 7 s before the boundary, half in the 7 s after: a fixed window admits them all.
    for (let i = 0; i < limit + 20; i++) {
      const at = BASE - 7_000 + Math.floor((i * 14_000) / (limit + 20));
      results.push((await consume(keyId, limit, at)).allowed);
    }
    expect(results.filter(Boolean)).toHaveLength(limit);
    expect(results.slice(limit)).toEqual(Array(20).fill(false));
  });

  it.each([1, 2, 3])('decides as a log of admitted requests would, never over the limit in 60 s (seed %i)', async (seed) => {
    const keyId = freshKey();
    const limit = 20;
    const reference = new ReferenceLog(limit);
    const admitted: number[] = [];
    let refusals = 0;
    for (const at of arrivals(seed, 500)) {
      const state = await consume(keyId, limit, at);
      const expected = reference.consume(at);
      expect({ at, ...state }).toMatchObject({ at, ...expected });
      if (state.allowed) {
        admitted.push(at);
        continue;
      }
      refusals++;
      // Waiting exactly Retry-After seconds is enough, one second less is not.
      const retryAfter = rateLimitError(state, at).extra!.retry_after as number;
      expect(reference.countedAt(at + retryAfter * 1000)).toBeLessThan(limit);
      if (retryAfter > 1) expect(reference.countedAt(at + (retryAfter - 1) * 1000)).toBe(limit);
    }
    expect(refusals).toBeGreaterThan(50);
    expect(busiestMinute(admitted)).toBeLessThanOrEqual(limit);
  });

  it('reports remaining and reset exactly, and Retry-After to the second', async () => {
    const keyId = freshKey();
    const start = BASE / 1000;
    for (const [i, offset] of [200, 10_500, 20_000, 30_000, 40_000].entries()) {
      const state = await consume(keyId, LIMIT, BASE + offset);
      expect(state).toMatchObject({ allowed: true, limit: LIMIT, remaining: LIMIT - 1 - i, reset: start + 61 });
    }
    const refused = await consume(keyId, LIMIT, BASE + 50_500);
    expect(refused.headers).toEqual({ 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(start + 61) });
    const error = rateLimitError(refused, BASE + 50_500);
    expect(error.status).toBe(429);
    expect(error.extra).toEqual({ retry_after: 11 });
    expect(error.headers?.['Retry-After']).toBe('11');
    expect(rateLimitError(refused, BASE + 60_999).extra).toEqual({ retry_after: 1 });

    // Still refused 1 ms before the first request's second leaves the window; refusals were not counted.
    expect((await consume(keyId, LIMIT, BASE + 50_500 + 10_499)).allowed).toBe(false);
    const admitted = await consume(keyId, LIMIT, BASE + 50_500 + 11_000);
    // That freed one slot; the next frees when the 10.5 s request's second leaves.
    expect(admitted).toMatchObject({ allowed: true, remaining: 0, reset: start + 71 });
  });

  it('counts each key on its own', async () => {
    const [a, b] = [freshKey(), freshKey()];
    for (let i = 0; i < LIMIT; i++) await consume(a, LIMIT, BASE + i);
    expect((await consume(a, LIMIT, BASE + 10)).allowed).toBe(false);
    expect(await consume(b, LIMIT, BASE + 10)).toMatchObject({ allowed: true, remaining: LIMIT - 1 });
  });
});

describe('rate limit in the database', () => {
  it('behaves exactly as the in-memory limiter, also when clocks step back', async () => {
    const next = random(7);
    const [memoryKey, databaseKey] = [freshKey(), freshKey()];
    let t = BASE + 3_600_000;
    for (let i = 0; i < 400; i++) {
      t += next() < 0.05 ? -5_000 : next() < 0.05 ? 70_000 : Math.floor(next() * 700);
      const fromMemory = consumeRateLimitInMemory(memoryKey, 10, t);
      expect(await consumeRateLimit(app.db, databaseKey, 10, t)).toEqual(fromMemory);
    }
  });

  it('admits exactly the limit from parallel requests', async () => {
    const keyId = freshKey();
    const states = await Promise.all(Array.from({ length: 60 }, () => consumeRateLimit(app.db, keyId, 25, BASE + 500)));
    const admitted = states.filter((s) => s.allowed).map((s) => s.remaining);
    expect(admitted.sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it.runIf(process.env.TEST_DATABASE_URL)('admits exactly the limit from two server processes at once', async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    const one = await openDatabase({ url: scratch.url });
    const two = await openDatabase({ url: scratch.url, skipMigrations: true });
    try {
      const burst = (db: typeof one.db) => Array.from({ length: 150 }, () => consumeRateLimit(db, 'key_shared', 100, BASE + 500));
      const states = await Promise.all([...burst(one.db), ...burst(two.db)]);
      expect(states.filter((s) => s.allowed)).toHaveLength(100);
      expect(new Set(states.filter((s) => s.allowed).map((s) => s.remaining)).size).toBe(100);
    } finally {
      await Promise.all([one.close(), two.close()]);
      await scratch.drop();
    }
  });

  it('keeps one small row per key and deletes the rows of idle keys', async () => {
    const [idle, busy] = [freshKey(), freshKey()];
    const t = BASE + 7_200_000;
    await consumeRateLimit(app.db, idle, LIMIT, t);
    for (let i = 0; i < 300; i++) await consumeRateLimit(app.db, busy, 1_000_000, t + 60_000 + i * 1_000);
    const rows = await app.db.select().from(rateLimits).where(eq(rateLimits.keyId, busy));
    expect(rows).toHaveLength(1);
    expect(rows[0].counts).toHaveLength(61);
    expect(rows[0].counts.reduce((a, b) => a + b)).toBe(61);
    expect(await app.db.select().from(rateLimits).where(eq(rateLimits.keyId, idle))).toEqual([]);
  });
});

describe('rate limit in memory', () => {
  it('forgets keys that have been idle for two minutes', () => {
    const [idle, busy] = [freshKey(), freshKey()];
    const t = BASE + 10_800_000;
    consumeRateLimitInMemory(idle, LIMIT, t);
    consumeRateLimitInMemory(busy, LIMIT, t + 60_000);
    expect(inMemoryRateLimitKeys()).toContain(idle);
    consumeRateLimitInMemory(busy, LIMIT, t + 200_000);
    expect(inMemoryRateLimitKeys()).toContain(busy);
    expect(inMemoryRateLimitKeys()).not.toContain(idle);
  });
});

const listFiles = (key: string): Promise<TestResponse> => app.call(filesRoute.GET, { path: '/v1/files', key });

describe('rate limit through the route wrapper', () => {
  afterEach(() => vi.useRealTimers());

  it('counts down X-RateLimit-Remaining, then answers 429 with Retry-After equal to error.retry_after', async () => {
    const { key } = await app.createKey({ scopes: ['files:read'] });
    const firstSecond = Math.floor(Date.now() / 1000);
    const resets = new Set<string | null>();
    for (let i = 1; i <= LIMIT; i++) {
      const res = await listFiles(key);
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - i));
      resets.add(res.headers.get('x-ratelimit-reset'));
    }
    // When the first request's second leaves the window (the clock may have ticked once meanwhile).
    expect(resets.size).toBe(1);
    const reset = Number([...resets][0]);
    expect(reset - firstSecond).toBeGreaterThanOrEqual(61);
    expect(reset - firstSecond).toBeLessThanOrEqual(62);

    const before = Date.now();
    const limited = await listFiles(key);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(limited.body.error.request_id).toBe(limited.headers.get('x-request-id'));
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(limited.body.error.retry_after).toBe(retryAfter);
    expect(Math.abs(before / 1000 + retryAfter - reset)).toBeLessThanOrEqual(1.5);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(reset));

    // Still limited on any route the key uses.
    const health = await app.call(detailedHealthRoute.GET, { path: '/health/detailed', key });
    expect(health.status).toBe(429);
  });

  it('answers 429 across a minute boundary and admits again after exactly Retry-After seconds', async () => {
    const { key } = await app.createKey({ scopes: ['files:read'] });
    const boundary = (Math.floor(Date.now() / 60_000) + 2) * 60_000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(boundary - 3_000);
    for (let i = 0; i < 3; i++) expect((await listFiles(key)).status).toBe(200);
    vi.setSystemTime(boundary + 1_000);
    for (let i = 0; i < LIMIT - 3; i++) expect((await listFiles(key)).status).toBe(200);
    const limited = await listFiles(key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(boundary / 1000 - 3 + 61));
    expect(limited.headers.get('retry-after')).toBe('57');
    expect(limited.body.error.retry_after).toBe(57);

    vi.setSystemTime(boundary + 1_000 + 56_000);
    expect((await listFiles(key)).status).toBe(429);
    vi.setSystemTime(boundary + 1_000 + 57_000);
    const again = await listFiles(key);
    expect(again.status).toBe(200);
    // The three from before the boundary have left the window; the two after it and this one remain.
    expect(again.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 3));
  });

  it('counts per key when requests from two keys interleave', async () => {
    const a = await app.createKey({ scopes: ['files:read'] });
    const b = await app.createKey({ scopes: ['files:read'] });
    const remaining: Record<string, string[]> = { a: [], b: [] };
    for (let i = 0; i < 3; i++) {
      remaining.a.push((await listFiles(a.key)).headers.get('x-ratelimit-remaining')!);
      remaining.b.push((await listFiles(b.key)).headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual({ a: ['4', '3', '2'], b: ['4', '3', '2'] });
    expect((await listFiles(a.key)).status).toBe(200);
    expect((await listFiles(a.key)).status).toBe(200);
    expect((await listFiles(a.key)).status).toBe(429);
    expect((await listFiles(b.key)).headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('counts concurrent requests exactly', async () => {
    const { key } = await app.createKey({ scopes: ['files:read'] });
    const responses = await Promise.all(Array.from({ length: LIMIT + 3 }, () => listFiles(key)));
    expect(responses.filter((r) => r.status === 429)).toHaveLength(3);
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('does not limit or count public routes', async () => {
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await app.call(healthRoute.GET, { path: '/health', key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});
