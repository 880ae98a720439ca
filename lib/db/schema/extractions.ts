import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { EXTRACTION_MODES, EXTRACTION_STATUSES } from './enums';
import { files } from './files';

export { EXTRACTION_MODES, EXTRACTION_STATUSES, type ExtractionMode, type ExtractionStatus } from './enums';

export const extractions = pgTable(
  'extractions',
  {
    id: text('id').primaryKey(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    status: text('status', { enum: EXTRACTION_STATUSES }).notNull(),
    /** The file's version this extraction reads (files.version when it was created). */
    fileVersion: integer('file_version').notNull().default(1),
    mode: text('mode', { enum: EXTRACTION_MODES }).notNull(),
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    progress: integer('progress').notNull().default(0),
    markdown: text('markdown'),
    totalPages: integer('total_pages'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    createdByKey: text('created_by_key'),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('extractions_file_id_created_at_idx').on(t.fileId, t.createdAt), index('extractions_status_idx').on(t.status)],
);

export type ExtractionRow = typeof extractions.$inferSelect;

/**
 * Where an extraction's Markdown text sits on its pages (format: lib/chunking/layout.ts), kept
 * apart from the extraction row so that reading a task never loads it. One row per completed
 * extraction of a PDF or image.
 */
export const extractionLayouts = pgTable('extraction_layouts', {
  extractionId: text('extraction_id')
    .primaryKey()
    .references(() => extractions.id, { onDelete: 'cascade' }),
  layout: jsonb('layout').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The document model of a completed extraction (lib/document/types.ts, as served: without source
 * lines), kept apart from the extraction row like the layout record, so that reading a task never
 * loads it. One row per completed extraction whose format produces the model.
 */
export const extractionDocuments = pgTable('extraction_documents', {
  extractionId: text('extraction_id')
    .primaryKey()
    .references(() => extractions.id, { onDelete: 'cascade' }),
  document: jsonb('document').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
