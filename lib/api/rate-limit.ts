import { lt, sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/lib/db/client';
import { rateLimits } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors';

/**
 * A sliding window counted in whole seconds: a request arriving in second s is admitted when fewer
 * than `limit` requests were admitted in seconds s−60 … s. Counting those 61 buckets, not 60, is
 * what makes the promise hold: any 60-second span ending at a request lies inside the buckets that
 * request looks at, so no 60-second span ever admits more than the limit (a fixed window admits up
 * to twice as many across its boundary; GCRA or a token bucket with a full burst does too). The
 * price is that a request holds its slot for 60–61 s rather than exactly 60. Per-second buckets
 * keep a key's state at 61 small integers whatever the limit, where a log of timestamps would grow
 * with it and be rewritten on every request.
 */
const WINDOW_BUCKETS = 61;

/** Idle keys are forgotten after this long: past the window, with a margin for servers whose clocks differ. */
const IDLE_SECONDS = 120;

export interface WindowState {
  /** Unix second of the newest bucket. */
  second: number;
  /** Admitted requests per second, oldest first; the last one belongs to `second`. */
  counts: number[];
}

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  /** Requests that would still be admitted right now. */
  remaining: number;
  /**
   * Unix second from which `remaining` grows if no other request arrives: when the oldest counted
   * requests leave the window (after a refusal, when the next request will be admitted).
   */
  reset: number;
  headers: Record<string, string>;
}

const total = (counts: number[]): number => counts.reduce((sum, c) => sum + c, 0);

/**
 * Moves a key's window to `now` and admits one request if there is room. The in-memory limiter
 * runs this; the database upsert below is the same steps in SQL. Refused requests are not counted,
 * so a client that keeps retrying while limited does not push its own retry time back.
 */
export function advanceWindow(prev: WindowState | undefined, now: number, limit: number): { window: WindowState; allowed: boolean } {
  const at = Math.floor(now / 1000);
  // A clock that steps back (or a server running behind another) counts into the newest bucket
  // instead of rewriting buckets that were already counted.
  const second = prev ? Math.max(prev.second, at) : at;
  const shift = prev ? Math.min(second - prev.second, WINDOW_BUCKETS) : WINDOW_BUCKETS;
  const counts = prev ? prev.counts.slice(shift) : [];
  while (counts.length < WINDOW_BUCKETS) counts.push(0);
  const allowed = total(counts) < limit;
  if (allowed) counts[WINDOW_BUCKETS - 1] += 1;
  return { window: { second, counts }, allowed };
}

/** Remaining and reset of a window just advanced; memory and the database share it. */
function rateLimitState(window: WindowState, allowed: boolean, limit: number): RateLimitState {
  let counted = total(window.counts);
  const remaining = Math.max(0, limit - counted);
  // Bucket i holds second `window.second − 60 + i` and stops counting 61 s after it began.
  let reset = window.second + 1;
  for (let i = 0; i < window.counts.length; i++) {
    counted -= window.counts[i];
    if (window.counts[i] > 0 && counted < limit) {
      reset = window.second + 1 + i;
      break;
    }
  }
  return {
    allowed,
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

const lastSweeps = new WeakMap<Db, number>();

/** At most once a minute per process: deletes the rows of keys that sent nothing for two minutes. */
async function sweepIdleKeys(db: Db, now: number): Promise<void> {
  const last = lastSweeps.get(db);
  if (last !== undefined && Math.abs(now - last) < 60_000) return;
  lastSweeps.set(db, now);
  await db.delete(rateLimits).where(lt(rateLimits.second, Math.floor(now / 1000) - IDLE_SECONDS));
}

const BUCKETS = sql.raw(String(WINDOW_BUCKETS));

/**
 * Counts one request for `keyId` in the database, so the limit holds across every server process
 * sharing it. One statement: the upsert takes the key's row lock and computes the new window from
 * the row as it stands under that lock, so concurrent requests from any process queue on the row
 * and each sees the previous one's count.
 */
export async function consumeRateLimit(db: Db, keyId: string, limit: number, now = Date.now()): Promise<RateLimitState> {
  await sweepIdleKeys(db, now);
  // The row a key's first request inserts is what advanceWindow makes of no history.
  const first = advanceWindow(undefined, now, limit);
  const [row] = await queryRows<{ second: string | number; counts: (string | number)[]; admitted: boolean }>(
    db,
    sql`insert into rate_limits as r (key_id, second, counts, admitted)
      values (${keyId}, ${first.window.second}, ${`{${first.window.counts.join(',')}}`}::integer[], ${first.allowed})
      on conflict (key_id) do update set (second, counts, admitted) = (
        select s.second,
          case when w.total < ${limit}::integer
            then s.counts[1:${BUCKETS} - 1] || (s.counts[${BUCKETS}] + 1)
            else s.counts end,
          w.total < ${limit}::integer
        from (select least(greatest(excluded.second - r.second, 0), ${BUCKETS})::integer as shift) d
        cross join lateral (
          select greatest(r.second, excluded.second) as second,
            r.counts[d.shift + 1 : ${BUCKETS}] || array_fill(0, array[d.shift]) as counts
        ) s
        cross join lateral (select coalesce(sum(c), 0) as total from unnest(s.counts) c) w
      )
      returning second, counts, admitted`,
  );
  const window = { second: Number(row.second), counts: row.counts.map(Number) };
  return rateLimitState(window, row.admitted, limit);
}

interface MemoryWindows {
  windows: Map<string, WindowState>;
  lastSweep: number;
}
const memory = globalThis as unknown as { __quarrySlidingRateLimits?: MemoryWindows };

/**
 * The same sliding window kept in this process's memory. Exact when only one process serves the
 * data (the embedded database allows just one), and needs no database round trip.
 */
export function consumeRateLimitInMemory(keyId: string, limit: number, now = Date.now()): RateLimitState {
  const store = (memory.__quarrySlidingRateLimits ??= { windows: new Map(), lastSweep: now });
  if (Math.abs(now - store.lastSweep) >= 60_000) {
    store.lastSweep = now;
    const idleBefore = Math.floor(now / 1000) - IDLE_SECONDS;
    for (const [id, w] of store.windows) if (w.second < idleBefore) store.windows.delete(id);
  }
  const { window, allowed } = advanceWindow(store.windows.get(keyId), now, limit);
  store.windows.set(keyId, window);
  return rateLimitState(window, allowed, limit);
}

export function resetInMemoryRateLimits(): void {
  memory.__quarrySlidingRateLimits = undefined;
}

/** Keys whose windows this process holds in memory (tests check that idle ones are dropped). */
export function inMemoryRateLimitKeys(): string[] {
  return [...(memory.__quarrySlidingRateLimits?.windows.keys() ?? [])];
}

/** The 429 for a refused request; Retry-After is the whole seconds from `now` until `reset`. */
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
