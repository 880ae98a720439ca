import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { rateLimitWindows } from '@/lib/db/schema';
import { ApiError } from './errors';

const WINDOW_MS = 60_000;

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the current window ends. */
  reset: number;
  headers: Record<string, string>;
}

function stateFor(count: number, windowStart: number, limit: number): RateLimitState {
  const reset = Math.ceil((windowStart + WINDOW_MS) / 1000);
  const remaining = Math.max(0, limit - count);
  return {
    allowed: count <= limit,
    limit,
    remaining,
    reset,
    headers: {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(reset),
    },
  };
}

/**
 * Counts one request for `keyId` in the current one-minute window. The counter lives in the
 * database, so the limit holds across every server process sharing it.
 */
export async function consumeRateLimit(db: Db, keyId: string, limit: number, now = Date.now()): Promise<RateLimitState> {
  const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  const [{ count }] = await db
    .insert(rateLimitWindows)
    .values({ keyId, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitWindows.keyId, rateLimitWindows.windowStart],
      set: { count: sql`${rateLimitWindows.count} + 1` },
    })
    .returning({ count: rateLimitWindows.count });
  if (count === 1) {
    // First request of a new window: drop this key's finished windows.
    await db.delete(rateLimitWindows).where(and(eq(rateLimitWindows.keyId, keyId), lt(rateLimitWindows.windowStart, windowStart)));
  }
  return stateFor(count, windowStart, limit);
}

const memory = globalThis as unknown as { __quarryRateLimits?: Map<string, { windowStart: number; count: number }> };

/**
 * The same fixed windows counted in this process's memory. Exact when only one process serves the
 * data (the embedded database allows just one), and needs no database round trip.
 */
export function consumeRateLimitInMemory(keyId: string, limit: number, now = Date.now()): RateLimitState {
  const windows = (memory.__quarryRateLimits ??= new Map());
  const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  let entry = windows.get(keyId);
  if (!entry || entry.windowStart !== windowStart) {
    if (!entry && windows.size > 100_000) {
      for (const [id, e] of windows) if (e.windowStart < windowStart) windows.delete(id);
    }
    entry = { windowStart, count: 0 };
    windows.set(keyId, entry);
  }
  entry.count += 1;
  return stateFor(entry.count, windowStart, limit);
}

export function resetInMemoryRateLimits(): void {
  memory.__quarryRateLimits = undefined;
}

export function rateLimitError(state: RateLimitState, now = Date.now()): ApiError {
  const retryAfter = Math.max(1, Math.ceil((state.reset * 1000 - now) / 1000));
  return new ApiError(
    'RATE_LIMIT_EXCEEDED',
    `Rate limit of ${state.limit} requests per minute exceeded; retry in ${retryAfter} s`,
    undefined,
    { retry_after: retryAfter },
    { ...state.headers, 'Retry-After': String(retryAfter) },
  );
}
