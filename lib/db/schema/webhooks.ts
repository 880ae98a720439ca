import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { DELIVERY_STATUSES } from './enums';

export { DELIVERY_STATUSES, type DeliveryStatus } from './enums';

export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    url: text('url').notNull(),
    /** Event types, or "*" for all. */
    events: text('events').array().notNull(),
    /** The signing secret, encrypted with AES-256-GCM (lib/crypto/secret-box.ts). */
    secretCiphertext: text('secret_ciphertext').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    lastDeliveryAt: timestamp('last_delivery_at', { withTimezone: true }),
    createdByKey: text('created_by_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_created_at_idx').on(t.createdAt), index('webhooks_events_idx').using('gin', t.events)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The exact request body, sent unchanged on every attempt. */
    payload: text('payload').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastResponseStatus: integer('last_response_status'),
    lastError: text('last_error'),
    /** The delivery this one re-sends, for redeliveries. */
    redeliveryOf: text('redelivery_of'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_webhook_created_at_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_status_idx').on(t.status),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    responseStatus: integer('response_status'),
    /** At most 1 KB of the response body. */
    responseExcerpt: text('response_excerpt'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.number] })],
);

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
