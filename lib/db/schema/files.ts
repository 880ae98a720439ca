import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Where a file synced from a source came from (the source item's identity never changes). */
export interface FileSourceValue {
  source_id: string;
  item_id: string;
  /** The item's key in the source: an object key, a URL. */
  key: string;
  /** Where it can be opened: s3://bucket/key, https://… */
  url: string;
}

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
    /** 1 for an upload; a source item that changed becomes the next version of the same file. */
    version: integer('version').notNull().default(1),
    /** For a file a source keeps in step: which item of which source it is (null for uploads). */
    source: jsonb('source').$type<FileSourceValue>(),
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
