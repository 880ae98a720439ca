import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    extension: text('extension').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    tags: text('tags').array().notNull().default([]),
    createdByKey: text('created_by_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('files_created_at_idx').on(t.createdAt),
    index('files_content_type_idx').on(t.contentType),
    index('files_tags_idx').using('gin', t.tags),
    index('files_sha256_idx').on(t.sha256),
  ],
);

export type FileRow = typeof files.$inferSelect;
