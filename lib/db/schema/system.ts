import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Stored responses of creation requests that carried an Idempotency-Key. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    principal: text('principal').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    fingerprint: text('fingerprint'),
    state: text('state', { enum: ['processing', 'completed'] }).notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.principal, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);

/**
 * The fixed one-minute windows of earlier versions, no longer read or written. Kept for one release
 * so that processes still running the previous version during a rolling upgrade keep answering
 * instead of failing on a missing table; drop it in the release after.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    keyId: text('key_id').notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
);

/**
 * Per API key, the admitted requests of each of the last 61 seconds (lib/api/rate-limit.ts), shared
 * by every server process. One row per key that the upsert rewrites in place, so it stays small
 * whatever the limit; rows of keys idle for two minutes are deleted.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    keyId: text('key_id').primaryKey(),
    /** Unix second of the newest bucket. */
    second: bigint('second', { mode: 'number' }).notNull(),
    /** Admitted requests per second, oldest first, ending with `second`. */
    counts: integer('counts').array().notNull(),
    /** Whether the latest request was admitted: the single upsert statement reports its decision through it. */
    admitted: boolean('admitted').notNull(),
  },
  (t) => [index('rate_limits_second_idx').on(t.second)],
);

/** Small service-wide settings (maintenance mode, bootstrap markers). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
