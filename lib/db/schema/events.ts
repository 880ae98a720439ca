import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The event log: written in the same transaction as the change it records (transactional outbox). */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_created_at_idx').on(t.createdAt), index('events_type_created_at_idx').on(t.type, t.createdAt)],
);

export type EventRow = typeof events.$inferSelect;
