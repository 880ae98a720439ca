import { z } from 'zod';
import { EXTRACTION_MODES, SOURCE_ITEM_OUTCOMES, SOURCE_RUN_STATUSES, SOURCE_RUN_TRIGGERS } from '@/lib/db/schema';
import { SOURCE_TYPE_NAMES } from '@/lib/sources/registry';
import { idParam, label, listOf, paginationQuery, timestamp } from './common';
import { chunkingStrategyInput, chunkingStrategySchema } from './knowledge-bases';

const jsonObject = (what: string) =>
  z.record(z.string(), z.unknown(), { error: `${what} must be a JSON object` });

const type = z
  .enum(SOURCE_TYPE_NAMES, { error: `type must be one of: ${SOURCE_TYPE_NAMES.join(', ')}` })
  .meta({ description: 's3: a bucket and prefix on any S3-compatible server; web: a site crawled from a start URL or a sitemap; url: one URL re-checked on each sync' });

const name = label('name').min(1, 'name must not be empty').max(200, 'name must be at most 200 characters');

export const scheduleInput = z
  .union(
    [
      z
        .object({
          cron: z.string({ error: 'schedule.cron must be a string' }).trim().min(1).max(200).meta({ description: 'A cron expression (5 fields, or 6 with seconds), parsed by croner', example: '0 3 * * *' }),
          timezone: z.string().trim().min(1).max(100).optional().meta({ description: 'IANA time zone the expression is read in; UTC when omitted', example: 'Europe/Paris' }),
        })
        .strict(),
      z
        .object({
          interval: z
            .string({ error: 'schedule.interval must be a string such as "30m", "6h" or "1d"' })
            .trim()
            .regex(/^\d+\s*(m|min|h|d)$/i, 'schedule.interval must be a number of minutes, hours or days, such as "30m", "6h" or "1d"')
            .meta({ description: 'Sync this long after the previous sync began (at least 5 minutes)', example: '6h' }),
        })
        .strict(),
    ],
    { error: 'schedule must be {"cron": "…"} (with an optional "timezone"), {"interval": "6h"}, or null' },
  )
  .nullable()
  .meta({ id: 'SourceScheduleInput', description: 'When the source syncs by itself; null: only when asked' });

const extractionMode = z
  .enum(EXTRACTION_MODES, { error: `extraction_mode must be one of: ${EXTRACTION_MODES.join(', ')}` })
  .meta({ description: 'How its documents are extracted (as in POST /v1/extractions). Default normal' });

export const createSourceBody = z
  .object({
    type,
    knowledge_base_id: z.string({ error: 'knowledge_base_id is required and must be a string' }).min(1).max(100).meta({ example: 'kb_01jd0000000000000000000000' }),
    name: name.optional().meta({ description: 'A name for people; from the config when omitted (the bucket and prefix, the site)' }),
    config: jsonObject('config').meta({ description: "The type's settings (see the README's Sources section); validated by type" }),
    credentials: jsonObject('credentials')
      .optional()
      .meta({ description: 's3 only: {access_key_id, secret_access_key, session_token?}, kept encrypted and never returned. Without them the standard AWS variables are used' }),
    schedule: scheduleInput.optional(),
    extraction_mode: extractionMode.optional(),
    chunking: chunkingStrategyInput.nullable().optional().meta({ description: "How this source's documents are chunked instead of the knowledge base's strategy; null: the knowledge base's" }),
    enabled: z.boolean({ error: 'enabled must be a boolean' }).optional().meta({ description: 'A disabled source keeps its documents and does not sync on its schedule. Default true' }),
    sync: z.boolean({ error: 'sync must be a boolean' }).optional().meta({ description: 'Start the first sync now. Default true' }),
  })
  .strict()
  .meta({ id: 'CreateSource' });

export const updateSourceBody = z
  .object({
    name: name.optional(),
    config: jsonObject('config').optional().meta({ description: 'The whole new config (fields left out take their defaults)' }),
    credentials: jsonObject('credentials').nullable().optional().meta({ description: 'New credentials; null removes them' }),
    schedule: scheduleInput.optional(),
    extraction_mode: extractionMode.optional(),
    chunking: chunkingStrategyInput.nullable().optional(),
    enabled: z.boolean({ error: 'enabled must be a boolean' }).optional(),
  })
  .strict()
  .meta({ id: 'UpdateSource' });

export const testSourceBody = z
  .object({ type, config: jsonObject('config'), credentials: jsonObject('credentials').optional() })
  .strict()
  .meta({ id: 'TestSource' });

export const sourceIdParams = idParam('source_id', 'src_01jd0000000000000000000000');
export const sourceRunIdParams = sourceIdParams.extend(idParam('run_id', 'srun_01jd0000000000000000000000').shape);

export const sourceListQuery = paginationQuery.extend({
  knowledge_base_id: z.string().max(100).optional().meta({ description: 'Only the sources of this knowledge base' }),
});

export const deleteSourceQuery = z.object({
  keep_documents: z
    .enum(['true', 'false'], { error: 'keep_documents must be true or false' })
    .optional()
    .meta({ description: 'true: keep the documents (as plain files no longer synced); by default they are deleted with the source' }),
});

export const runListQuery = paginationQuery;

export const countsSchema = z
  .object(Object.fromEntries(SOURCE_ITEM_OUTCOMES.map((o) => [o, z.number().int().min(0)])) as Record<(typeof SOURCE_ITEM_OUTCOMES)[number], z.ZodNumber>)
  .meta({ id: 'SourceSyncCounts', description: 'Items by what the sync did with them' });

const runBase = {
  id: z.string().meta({ example: 'srun_01jd0000000000000000000000' }),
  source_id: z.string(),
  status: z.enum(SOURCE_RUN_STATUSES).meta({ description: 'queued, running (listing and fetching), indexing (waiting for its documents), completed or failed' }),
  trigger: z.enum(SOURCE_RUN_TRIGGERS),
  counts: countsSchema,
  items_total: z.number().int().min(0).meta({ description: 'Items found so far' }),
  items_done: z.number().int().min(0).meta({ description: 'Items done so far' }),
  limit_reached: z.boolean().meta({ description: 'The source had more items than one sync takes (max_pages): nothing was removed' }),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: timestamp,
  started_at: timestamp.nullable(),
  completed_at: timestamp.nullable(),
};

export const sourceRunSchema = z.object(runBase).meta({ id: 'SourceRun' });
export const sourceRunListSchema = listOf(sourceRunSchema, 'SourceRunList');
export const sourceRunDetailSchema = z
  .object({
    ...runBase,
    failures: z
      .array(z.object({ key: z.string(), url: z.string(), reason: z.string() }))
      .meta({ description: 'The items that failed, with why (at most 200)' }),
  })
  .meta({ id: 'SourceRunDetail' });

export const sourceSchema = z
  .object({
    id: z.string().meta({ example: 'src_01jd0000000000000000000000' }),
    type,
    knowledge_base_id: z.string(),
    name: z.string(),
    config: z.record(z.string(), z.unknown()).meta({ description: 'The settings with their defaults filled in (never credentials)' }),
    has_credentials: z.boolean().meta({ description: 'Credentials are stored (they are never returned)' }),
    schedule: z
      .union([z.object({ cron: z.string(), timezone: z.string() }), z.object({ interval: z.string(), interval_seconds: z.number().int() })])
      .nullable(),
    schedule_description: z.string().nullable().meta({ description: 'The schedule in plain words', example: 'At 03:00 AM (UTC)' }),
    next_sync_at: timestamp.nullable(),
    extraction_mode: z.enum(EXTRACTION_MODES),
    chunking: chunkingStrategySchema.nullable(),
    enabled: z.boolean(),
    item_count: z.number().int().min(0).meta({ description: 'Items the source holds as of its last sync' }),
    last_run: sourceRunSchema.nullable().meta({ description: 'The newest sync (running or ended)' }),
    last_synced_at: timestamp.nullable().meta({ description: 'When a sync last completed' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Source' });

export const sourceListSchema = listOf(sourceSchema, 'SourceList');

export const sourceTestSchema = z
  .object({
    ok: z.boolean(),
    items: z.array(z.object({ key: z.string(), url: z.string(), size: z.number().int().nullable() })).meta({ description: 'The first items found (at most 10)' }),
    more: z.boolean().meta({ description: 'More items than those shown were found' }),
    error: z.object({ code: z.string(), message: z.string() }).nullable().meta({ description: 'Why the source could not be listed' }),
  })
  .meta({ id: 'SourceTest' });

const citationInput = z
  .object({
    chunk_id: z.string().min(1).max(100).optional().meta({ description: 'A chunk id from a search result. Send its document_id too: a chunk replaced by re-indexing is then stale rather than gone', example: 'chunk_01jd0000000000000000000000' }),
    document_id: z.string().min(1).max(100).optional().meta({ description: 'The document cited (with file_version, when the chunk id is not kept)' }),
    file_version: z.number({ error: 'file_version must be an integer' }).int().min(1).optional().meta({ description: "The file version the passage came from (a search result's file_version)" }),
  })
  .strict()
  .refine((c) => c.chunk_id !== undefined || c.document_id !== undefined, { message: 'each citation needs a chunk_id or a document_id' });

export const verifyCitationsBody = z
  .object({
    citations: z.array(citationInput, { error: 'citations must be an array' }).min(1, 'citations must hold at least one citation').max(100, 'at most 100 citations at once'),
    check_source: z
      .boolean({ error: 'check_source must be a boolean' })
      .optional()
      .meta({ description: 'Ask each source for its item’s version now (HEAD, HeadObject: no download). Default true' }),
  })
  .strict()
  .meta({ id: 'VerifyCitations' });

export const verifyCitationsSchema = z
  .object({
    results: z.array(
      z
        .object({
          chunk_id: z.string().nullable(),
          document_id: z.string().nullable(),
          status: z.enum(['current', 'stale', 'gone']).meta({
            description:
              'current: the knowledge base serves the version cited and, where the source tells without a download, it is the version there; stale: a newer version is stored, being indexed or waiting at the source; gone: the document or the item no longer exists',
          }),
          reason: z.string(),
          cited_file_version: z.number().int().nullable(),
          current_file_version: z.number().int().nullable(),
          source_checked: z.boolean().meta({ description: 'The source was asked for the item’s version now' }),
          source_item: z.object({ id: z.string(), source_id: z.string(), key: z.string(), url: z.string() }).nullable(),
        })
        .meta({ id: 'CitationVerdict' }),
    ),
  })
  .meta({ id: 'CitationVerdicts' });
