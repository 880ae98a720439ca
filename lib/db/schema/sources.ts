import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { EXTRACTION_MODES, SOURCE_ITEM_OUTCOMES, SOURCE_RUN_STATUSES, SOURCE_RUN_TRIGGERS } from './enums';
import { files } from './files';
import { knowledgeBases, type ChunkingStrategyValue } from './knowledge-bases';

export { SOURCE_ITEM_OUTCOMES, SOURCE_RUN_STATUSES, SOURCE_RUN_TRIGGERS, type SourceItemOutcome, type SourceRunStatus, type SourceRunTrigger } from './enums';

/** When a source syncs by itself: a cron expression (in a time zone) or a fixed interval. */
export type SourceScheduleValue = { cron: string; timezone: string } | { interval_seconds: number };

/** An item's version as its source describes it (lib/sources/types.ts Fingerprint). */
export interface FingerprintValue {
  etag?: string | null;
  last_modified?: string | null;
  size?: number | null;
  sha256?: string | null;
}

/** A place documents live (a bucket prefix, a website, one URL) that one knowledge base is kept in step with. */
export const sources = pgTable(
  'sources',
  {
    id: text('id').primaryKey(),
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    /** The type's settings, as validated by its schema (never secrets). */
    config: jsonb('config').$type<Record<string, unknown>>().notNull(),
    /** The type's credentials as JSON, encrypted with AES-256-GCM (lib/crypto/secret-box.ts); write-only. */
    credentialsCiphertext: text('credentials_ciphertext'),
    schedule: jsonb('schedule').$type<SourceScheduleValue>(),
    extractionMode: text('extraction_mode', { enum: EXTRACTION_MODES }).notNull().default('normal'),
    /** How this source's documents are chunked, instead of the knowledge base's strategy. */
    chunking: jsonb('chunking').$type<ChunkingStrategyValue>(),
    /** A disabled source keeps its documents and syncs only when asked. */
    enabled: boolean('enabled').notNull().default(true),
    /** When the schedule next starts a sync (null: no schedule, or disabled). */
    nextSyncAt: timestamp('next_sync_at', { withTimezone: true }),
    lastRunId: text('last_run_id'),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    createdByKey: text('created_by_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sources_kb_created_at_idx').on(t.kbId, t.createdAt),
    index('sources_created_at_idx').on(t.createdAt),
    index('sources_next_sync_at_idx').on(t.nextSyncAt).where(sql`${t.nextSyncAt} is not null`),
  ],
);

/** Each thing a source held at its last sync, and what it became in the knowledge base. */
export const sourceItems = pgTable(
  'source_items',
  {
    id: text('id').primaryKey(),
    sourceId: text('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    url: text('url').notNull(),
    /** The file it is stored as (null once that file was deleted). */
    fileId: text('file_id').references(() => files.id, { onDelete: 'set null' }),
    fingerprint: jsonb('fingerprint').$type<FingerprintValue>().notNull().default({}),
    /** Keys of the items it links to (crawls): what a "not modified" answer still leads to. */
    links: text('links').array().notNull().default([]),
    /** present, or gone: no longer in the source but kept (config.keep_deleted). */
    state: text('state', { enum: ['present', 'gone'] }).notNull().default('present'),
    lastRunId: text('last_run_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When its content last changed (a new version was stored). */
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a sync last found it in the source. */
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('source_items_source_key_idx').on(t.sourceId, t.key), index('source_items_file_id_idx').on(t.fileId)],
);

/** One sync of a source: its progress, counts and outcome. */
export const sourceRuns = pgTable(
  'source_runs',
  {
    id: text('id').primaryKey(),
    sourceId: text('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    status: text('status', { enum: SOURCE_RUN_STATUSES }).notNull(),
    trigger: text('trigger', { enum: SOURCE_RUN_TRIGGERS }).notNull(),
    /** Listing finished (its items are all in source_run_items): a resumed run does not list again. */
    listedAt: timestamp('listed_at', { withTimezone: true }),
    /** Items not found were removed (or there was nothing to remove). */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    /** The source had more items than one sync takes (a crawl's page limit): nothing was removed. */
    limitReached: boolean('limit_reached').notNull().default(false),
    added: integer('added').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    deleted: integer('deleted').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    createdByKey: text('created_by_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('source_runs_source_created_at_idx').on(t.sourceId, t.createdAt),
    // Two syncs of one source never run at once: at most one run is not finished.
    uniqueIndex('source_runs_one_active_idx').on(t.sourceId).where(sql`${t.status} in ('queued', 'running', 'indexing')`),
  ],
);

/** What one sync found and did, item by item: the work list a resumed run carries on from. */
export const sourceRunItems = pgTable(
  'source_run_items',
  {
    runId: text('run_id')
      .notNull()
      .references(() => sourceRuns.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    url: text('url').notNull(),
    /** Order of discovery: items are done breadth first. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    depth: integer('depth').notNull().default(0),
    /** The version the listing reported, when it reports one. */
    listed: jsonb('listed').$type<FingerprintValue>(),
    /** Null while still to do. */
    outcome: text('outcome', { enum: SOURCE_ITEM_OUTCOMES }),
    /** Why it failed or was skipped. */
    reason: text('reason'),
    fileId: text('file_id'),
    documentId: text('document_id'),
    /** The file version stored by this sync (added or updated). */
    fileVersion: integer('file_version'),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.key] }),
    index('source_run_items_todo_idx').on(t.runId, t.depth, t.seq).where(sql`${t.outcome} is null`),
    index('source_run_items_document_idx').on(t.documentId).where(sql`${t.documentId} is not null`),
  ],
);

export type SourceRow = typeof sources.$inferSelect;
export type SourceItemRow = typeof sourceItems.$inferSelect;
export type SourceRunRow = typeof sourceRuns.$inferSelect;
export type SourceRunItemRow = typeof sourceRunItems.$inferSelect;
