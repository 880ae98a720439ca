import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as filesRoute from '@/app/v1/files/route';
import * as detailedHealthRoute from '@/app/health/detailed/route';
import * as healthRoute from '@/app/health/route';
import { consumeRateLimit, rateLimitError } from '@/lib/api/rate-limit';
import { rateLimitWindows } from '@/lib/db/schema';
import { useTestApp, type TestResponse } from '@/lib/testing/app';

const LIMIT = 5;
const app = useTestApp({ QUARRY_RATE_LIMIT_PER_MINUTE: String(LIMIT) });

/**
 * The limit counts fixed one-minute windows. A test that crossed a window boundary halfway
 * would see its count reset, so each test starts with at least 5 s left in the current minute.
 */
async function startOfUsableWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await new Promise((r) => setTimeout(r, left + 50));
}

const listFiles = (key: string): Promise<TestResponse> => app.call(filesRoute.GET, { path: '/v1/files', key });

describe('rate limit through the route wrapper', () => {
  it('counts down X-RateLimit-Remaining, then answers 429 with Retry-After equal to error.retry_after', async () => {
    await startOfUsableWindow();
    const { key } = await app.createKey({ scopes: ['files:read'] });
    const windowEnd = Math.ceil((Math.floor(Date.now() / 60_000) + 1) * 60);

    for (let i = 1; i <= LIMIT; i++) {
      const res = await listFiles(key);
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - i));
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(windowEnd));
    }

    const before = Date.now();
    const limited = await listFiles(key);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(limited.body.error.request_id).toBe(limited.headers.get('x-request-id'));
    const retryAfterHeader = limited.headers.get('retry-after');
    expect(retryAfterHeader).toMatch(/^\d+$/);
    const retryAfter = Number(retryAfterHeader);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.error.retry_after).toBe(retryAfter);
    // It points at the end of the window the Reset header names.
    expect(Math.abs(before / 1000 + retryAfter - windowEnd)).toBeLessThanOrEqual(1.5);
    expect(limited.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(windowEnd));

    // Still limited on the next request, on any route the key uses.
    expect((await listFiles(key)).status).toBe(429);
    const health = await app.call(detailedHealthRoute.GET, { path: '/health/detailed', key });
    expect(health.status).toBe(429);
    expect(health.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('leaves another key unaffected while one key is limited', async () => {
    await startOfUsableWindow();
    const a = await app.createKey({ scopes: ['files:read'] });
    const b = await app.createKey({ scopes: ['files:read'] });
    for (let i = 0; i < LIMIT; i++) expect((await listFiles(a.key)).status).toBe(200);
    expect((await listFiles(a.key)).status).toBe(429);

    const other = await listFiles(b.key);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect((await listFiles(a.key)).status).toBe(429);
  });

  it('counts per key when requests from two keys interleave', async () => {
    await startOfUsableWindow();
    const a = await app.createKey({ scopes: ['files:read'] });
    const b = await app.createKey({ scopes: ['files:read'] });
    const remaining: Record<string, string[]> = { a: [], b: [] };
    for (let i = 0; i < 3; i++) {
      remaining.a.push((await listFiles(a.key)).headers.get('x-ratelimit-remaining')!);
      remaining.b.push((await listFiles(b.key)).headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual({ a: ['4', '3', '2'], b: ['4', '3', '2'] });
    // A's last two, then A is out while B still has two left.
    expect((await listFiles(a.key)).status).toBe(200);
    expect((await listFiles(a.key)).status).toBe(200);
    expect((await listFiles(a.key)).status).toBe(429);
    expect((await listFiles(b.key)).headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('counts concurrent requests exactly', async () => {
    await startOfUsableWindow();
    const { key } = await app.createKey({ scopes: ['files:read'] });
    const responses = await Promise.all(Array.from({ length: LIMIT + 3 }, () => listFiles(key)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('does not limit or count public routes', async () => {
    await startOfUsableWindow();
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await app.call(healthRoute.GET, { path: '/health', key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});

describe('consumeRateLimit', () => {
  it('allows the limit per window, refuses the next, and starts over in a new window', async () => {
    const keyId = 'key_direct_window_test';
    const windowStart = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    const t = windowStart + 1_000;

    for (let i = 1; i <= LIMIT; i++) {
      const state = await consumeRateLimit(app.db, keyId, LIMIT, t + i * 100);
      expect(state).toMatchObject({ allowed: true, limit: LIMIT, remaining: LIMIT - i, reset: (windowStart + 60_000) / 1000 });
    }
    const refused = await consumeRateLimit(app.db, keyId, LIMIT, t + 50_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, reset: (windowStart + 60_000) / 1000 });
    expect(refused.headers).toEqual({
      'X-RateLimit-Limit': String(LIMIT),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String((windowStart + 60_000) / 1000),
    });
    const error = rateLimitError(refused, t + 50_000);
    expect(error.status).toBe(429);
    // 51 s into the window: 9 s left.
    expect(error.extra).toEqual({ retry_after: 9 });
    expect(error.headers?.['Retry-After']).toBe('9');
    expect(rateLimitError(refused, windowStart + 50_500).extra).toEqual({ retry_after: 10 });
    // Never 0, even in the last instant of a window.
    expect(rateLimitError(refused, windowStart + 59_999).extra).toEqual({ retry_after: 1 });

    // A different key in the same window has its own count.
    expect(await consumeRateLimit(app.db, 'key_direct_other', LIMIT, t)).toMatchObject({ allowed: true, remaining: LIMIT - 1 });

    // The next window starts from zero and drops the finished one.
    const next = await consumeRateLimit(app.db, keyId, LIMIT, windowStart + 60_000);
    expect(next).toMatchObject({ allowed: true, remaining: LIMIT - 1, reset: (windowStart + 120_000) / 1000 });
    const rows = await app.db.select().from(rateLimitWindows).where(eq(rateLimitWindows.keyId, keyId));
    expect(rows).toEqual([{ keyId, windowStart: windowStart + 60_000, count: 1 }]);

    // The last millisecond of a window still belongs to it.
    const late = await consumeRateLimit(app.db, keyId, LIMIT, windowStart + 119_999);
    expect(late).toMatchObject({ allowed: true, remaining: LIMIT - 2 });
  });
});
