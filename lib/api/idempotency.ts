import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import { decryptSecret, encryptSecret } from '@/lib/crypto/secret-box';
import type { Db } from '@/lib/db/client';
import { idempotencyKeys } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim still "processing" after this long belongs to a request that died; it may be taken over. */
const ABANDONED_MS = 2 * 60 * 1000;
/** How long a concurrent duplicate waits for the first request to finish. */
const WAIT_MS = 30_000;
const POLL_MS = 50;
const MAX_KEY_LENGTH = 255;

export interface IdempotencyScope {
  db: Db;
  principal: string;
  key: string;
  method: string;
  path: string;
}

export function fingerprintOf(...parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const p of parts) {
    hash.update(p);
    hash.update('\u0000');
  }
  return hash.digest('hex');
}

export function validateIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError('INVALID_REQUEST', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`, {
      field: 'Idempotency-Key',
      reason: 'invalid format',
    });
  }
}

function replay(status: number, sealedBody: string | null): Response {
  const body = sealedBody === null ? null : decryptSecret(sealedBody);
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' },
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `effect` at most once per (principal, key) within 24 hours. A repeat with the same
 * fingerprint gets the stored response; a different request under the same key gets 409.
 * Concurrent duplicates wait for the first one instead of running the effect again.
 * Only successful (2xx) responses are stored: after an error the client may retry with the same key.
 * Stored bodies are encrypted (a created API key's secret is in one) and purged after 24 hours.
 */
export async function runIdempotent(
  scope: IdempotencyScope,
  fingerprint: string,
  effect: () => Promise<Response>,
): Promise<Response> {
  const { db, principal, key } = scope;
  const match = and(eq(idempotencyKeys.principal, principal), eq(idempotencyKeys.key, key));
  const deadline = Date.now() + WAIT_MS;

  for (;;) {
    const now = Date.now();
    // Purge expired records (all of them: they may hold secrets), and this key's record if it was
    // abandoned by a request that never finished.
    await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_TTL_MS)));
    await db
      .delete(idempotencyKeys)
      .where(and(match, eq(idempotencyKeys.state, 'processing'), lt(idempotencyKeys.createdAt, new Date(now - ABANDONED_MS))));

    const claimed = await db
      .insert(idempotencyKeys)
      .values({ principal, key, method: scope.method, path: scope.path, fingerprint, state: 'processing' })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });

    if (claimed.length === 1) {
      let response: Response;
      try {
        response = await effect();
      } catch (err) {
        await db.delete(idempotencyKeys).where(match);
        throw err;
      }
      if (response.status >= 200 && response.status < 300) {
        const body = await response.text();
        await db
          .update(idempotencyKeys)
          .set({ state: 'completed', responseStatus: response.status, responseBody: encryptSecret(body), completedAt: new Date() })
          .where(match);
        return new Response(body, { status: response.status, headers: response.headers });
      }
      await db.delete(idempotencyKeys).where(match);
      return response;
    }

    const [existing] = await db.select().from(idempotencyKeys).where(match).limit(1);
    if (!existing) continue; // released between our insert and select: try to claim again
    if (existing.method !== scope.method || existing.path !== scope.path || existing.fingerprint !== fingerprint) {
      throw new ApiError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different request; use a new key for a new request',
        { idempotency_key: key },
      );
    }
    if (existing.state === 'completed') return replay(existing.responseStatus ?? 200, existing.responseBody);
    if (Date.now() > deadline) {
      throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly', {
        idempotency_key: key,
      });
    }
    await sleep(POLL_MS);
  }
}
