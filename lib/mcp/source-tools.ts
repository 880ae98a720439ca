import { z } from 'zod';
import { sourceIdParams, sourceListQuery, sourceRunIdParams, verifyCitationsBody } from '@/lib/api/schemas/sources';
import { ApiError, isApiError } from '@/lib/errors';
import { verifyCitations } from '@/lib/sources/citations';
import { getRun, getSource, listRuns, listSources, syncSource } from '@/lib/sources/service';
import { nextOffset, pageInput, tool, type Tool } from './tool';

/*
 * Sources (a bucket, a site or a URL kept in step with a knowledge base) and citation checks.
 * Scopes are the REST endpoints' own: sources:read to look, sources:write to sync, kb:search or
 * kb:read to verify citations. Creating, changing and deleting sources stays with REST and the
 * console, as knowledge bases do: the MCP tools read, search, add documents and sync.
 */

const sourceId = sourceIdParams.shape.source_id.meta({ description: 'A source id (src_…) from list_sources' });
const runId = sourceRunIdParams.shape.run_id.meta({ description: 'A sync run id (srun_…) from list_source_runs or a source’s last_run' });

export const SOURCE_TOOLS: Tool<any>[] = [
  tool({
    name: 'list_sources',
    title: 'List sources',
    description:
      'Lists the sources that keep knowledge bases in step with an S3 bucket, a crawled site or a single URL, newest first: type, name, settings (never credentials), schedule in words, item count, when it last synced and its newest sync run. Optionally only those of one knowledge_base_id.',
    scopes: ['sources:read'],
    readOnly: true,
    input: z.object({ knowledge_base_id: sourceListQuery.shape.knowledge_base_id, ...pageInput }),
    async run(ctx, { knowledge_base_id, limit, offset }) {
      const page = await listSources(ctx, { limit, offset, knowledge_base_id });
      return { sources: page.items, total: page.total, next_offset: nextOffset(offset, page.items.length, page.total) };
    },
  }),
  tool({
    name: 'get_source',
    title: 'Get a source',
    description:
      "A source's settings, schedule, item count, last_synced_at, next_sync_at and last_run: its newest sync (queued, running, indexing, completed or failed) with counts added, updated, unchanged, deleted, failed and skipped. get_source_run gives that run's failures.",
    scopes: ['sources:read'],
    readOnly: true,
    input: z.object({ source_id: sourceId }),
    run: (ctx, { source_id }) => getSource(ctx, source_id),
  }),
  tool({
    name: 'sync_source',
    title: 'Sync a source now',
    description:
      'Starts a sync of a source now: fetches what changed at the source, adds what is new and removes what is gone from its knowledge base. Returns the queued run at once; follow it with get_source_run. A source already syncing answers SOURCE_BUSY with the run_id to follow instead.',
    scopes: ['sources:write'],
    readOnly: false,
    input: z.object({ source_id: sourceId }),
    async run(ctx, { source_id }) {
      try {
        return await syncSource(ctx, source_id);
      } catch (err) {
        if (isApiError(err) && err.code === 'SOURCE_BUSY') {
          const runId = String(err.details?.run_id ?? '');
          throw new ApiError('SOURCE_BUSY', `${err.message}: call get_source_run with source_id ${source_id} and run_id ${runId} to follow it, then sync again if needed`, err.details);
        }
        throw err;
      }
    },
  }),
  tool({
    name: 'list_source_runs',
    title: "List a source's syncs",
    description:
      "A source's sync history, newest first: each run's status, trigger (created, manual, schedule, retry), counts added, updated, unchanged, deleted, failed and skipped, items found and done, error, and when it started and ended.",
    scopes: ['sources:read'],
    readOnly: true,
    input: z.object({ source_id: sourceId, ...pageInput }),
    async run(ctx, { source_id, limit, offset }) {
      const page = await listRuns(ctx, source_id, { limit, offset });
      return { runs: page.items, total: page.total, next_offset: nextOffset(offset, page.items.length, page.total) };
    },
  }),
  tool({
    name: 'get_source_run',
    title: 'Get a sync run',
    description:
      'One sync of a source: status, counts, progress (items_done of items_total), error, and failures: each item that failed with its key, url and reason (at most 200).',
    scopes: ['sources:read'],
    readOnly: true,
    input: z.object({ source_id: sourceId, run_id: runId }),
    run: (ctx, { source_id, run_id }) => getRun(ctx, source_id, run_id),
  }),
  tool({
    name: 'verify_citations',
    title: 'Check citations are still true',
    description:
      'Before acting on or repeating a passage found earlier with search_knowledge_base, ask whether it still holds. Pass up to 100 citations, each with the chunk_id, document_id and file_version of a search result. Each answer, in order, is current (the knowledge base serves the version cited and, where its source tells without a download, the source still has that version), stale (a newer version is stored, being indexed or waiting at the source: search again for the current text) or gone (the passage, document or source item no longer exists: do not rely on it), with a reason, the cited and current file versions and the source item. check_source=false skips asking the sources (HEAD, HeadObject).',
    scopes: ['kb:search', 'kb:read'],
    readOnly: true,
    input: z.object({
      citations: verifyCitationsBody.shape.citations.meta({
        description: 'The passages to check: {chunk_id, document_id, file_version} as search_knowledge_base returned them (chunk_id or document_id at least)',
      }),
      check_source: verifyCitationsBody.shape.check_source,
    }),
    run: (ctx, args) => verifyCitations(ctx, args),
  }),
];
