import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { forgetCachedKeys, type Principal } from '@/lib/auth/api-keys';
import { checkKnowledgeBaseReach, knowledgeBasesInReach, refuseLimitedKey, removeKnowledgeBaseFromKeys } from '@/lib/auth/reach';
import { notFound } from '@/lib/errors';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { paginate } from '@/lib/db/paginate';
import { forgetFileRows } from '@/lib/files/row-cache';
import { files, kbDocuments, knowledgeBases, sources, type KnowledgeBaseRow } from '@/lib/db/schema';
import { configuredEmbeddingSpec } from '@/lib/embeddings';
import { recordEvent } from '@/lib/events';
import { newId } from '@/lib/ids';
import { ensureVectorIndex } from '@/lib/search/vectors';
import { enqueueWorkflow, notifyWorkflows } from '@/lib/workflows/dispatch';
import { reindexWorkflow } from './reindex-workflow';
import { embeddingApiError } from './embedder';
import { dropGeneration } from './store';
import { checkStrategy, mergeStrategy, sameStrategy, withStrategyDefaults, type ChunkingStrategy } from './types';
import { toKnowledgeBaseListItem, toKnowledgeBaseView, type KnowledgeBaseCounts } from './views';

export interface CreateKnowledgeBaseInput {
  name: string;
  description?: string;
  chunking_strategy?: Partial<ChunkingStrategy>;
  metadata?: Record<string, unknown>;
}

export interface UpdateKnowledgeBaseInput {
  name?: string;
  description?: string;
  chunking_strategy?: Partial<ChunkingStrategy>;
  metadata?: Record<string, unknown>;
}

/** Document and chunk counts, computed from the documents themselves so they are always exact. */
export async function countsOf(db: DbOrTx, ids: string[]): Promise<Map<string, KnowledgeBaseCounts>> {
  const out = new Map<string, KnowledgeBaseCounts>();
  for (const id of ids) out.set(id, { document_count: 0, chunk_count: 0 });
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      kbId: kbDocuments.kbId,
      documents: sql<number>`count(*)::int`,
      chunks: sql<number>`coalesce(sum(${kbDocuments.chunkCount}), 0)::int`,
    })
    .from(kbDocuments)
    .where(inArray(kbDocuments.kbId, ids))
    .groupBy(kbDocuments.kbId);
  for (const r of rows) out.set(r.kbId, { document_count: Number(r.documents), chunk_count: Number(r.chunks) });
  return out;
}

/**
 * The knowledge base `id` as `caller` may see it: every request path looks knowledge bases up here,
 * so one outside a limited key's list answers 404 as if it did not exist (null caller: background work).
 */
export async function findKnowledgeBase(db: DbOrTx, caller: Principal | null, id: string, opts: { forUpdate?: boolean } = {}): Promise<KnowledgeBaseRow> {
  checkKnowledgeBaseReach(caller, id);
  const query = db.select().from(knowledgeBases).where(eq(knowledgeBases.id, id)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('KNOWLEDGE_BASE_NOT_FOUND', 'Knowledge base', id);
  return row;
}

async function view(db: DbOrTx, row: KnowledgeBaseRow) {
  const counts = (await countsOf(db, [row.id])).get(row.id)!;
  let done: number | undefined;
  if (row.pendingGeneration !== null) {
    const [r] = await db
      .select({ n: count() })
      .from(kbDocuments)
      .where(and(eq(kbDocuments.kbId, row.id), isNotNull(kbDocuments.pendingChunkCount)));
    done = Number(r.n);
  }
  return toKnowledgeBaseView(row, counts, done);
}

export async function createKnowledgeBase(ctx: ServiceContext, input: CreateKnowledgeBaseInput) {
  refuseLimitedKey(ctx.principal, 'create knowledge bases', { knowledge_base_ids: ctx.principal?.knowledgeBaseIds });
  const strategy = checkStrategy(withStrategyDefaults(input.chunking_strategy));
  let spec;
  try {
    spec = await configuredEmbeddingSpec();
  } catch (err) {
    throw embeddingApiError(err);
  }
  await ensureVectorIndex(ctx.db, spec.dimensions);
  const row = await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const [created] = await tx
      .insert(knowledgeBases)
      .values({
        id: newId('knowledgeBase'),
        name: input.name,
        description: input.description ?? '',
        chunkingStrategy: strategy,
        metadata: input.metadata ?? {},
        embeddingProvider: spec.provider,
        embeddingModel: spec.model,
        embeddingDimensions: spec.dimensions,
        createdByKey: ctx.principal?.keyId ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordEvent(
      tx,
      'knowledge_base.created',
      { kb_id: created.id, name: created.name, chunking_strategy: created.chunkingStrategy },
      ctx.requestId,
    );
    return created;
  });
  return toKnowledgeBaseView(row, { document_count: 0, chunk_count: 0 });
}

export const KB_SORT_COLUMNS = { created_at: knowledgeBases.createdAt, name: knowledgeBases.name } as const;

export async function listKnowledgeBases(
  ctx: ServiceContext,
  input: { limit: number; offset: number; sort_by: keyof typeof KB_SORT_COLUMNS; order: 'asc' | 'desc' },
) {
  const dir = input.order === 'asc' ? asc : desc;
  const page = await paginate(
    ctx.db,
    {
      from: knowledgeBases,
      where: knowledgeBasesInReach(ctx.principal, knowledgeBases.id),
      orderBy: [dir(KB_SORT_COLUMNS[input.sort_by]), dir(knowledgeBases.id)],
      limit: input.limit,
      offset: input.offset,
    },
    (row) => row,
  );
  // Document and chunk counts come from a second query over this page's rows only.
  const counts = await countsOf(
    ctx.db,
    page.items.map((r) => r.id),
  );
  return { ...page, items: page.items.map((r) => toKnowledgeBaseListItem(r, counts.get(r.id)!)) };
}

export async function getKnowledgeBase(ctx: ServiceContext, id: string) {
  return view(ctx.db, await findKnowledgeBase(ctx.db, ctx.principal, id));
}

/**
 * Updates name, description and metadata at once. A changed chunking strategy starts a re-index
 * into a new generation: searches keep reading the current chunks until every document is
 * re-chunked, then the generations swap in one transaction (see reindex.ts).
 */
export async function updateKnowledgeBase(ctx: ServiceContext, id: string, input: UpdateKnowledgeBaseInput) {
  let startedGeneration: number | null = null;
  const row = await ctx.db.transaction(async (tx) => {
    const kb = await findKnowledgeBase(tx, ctx.principal, id, { forUpdate: true });
    const patch: Partial<KnowledgeBaseRow> = { updatedAt: new Date() };
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description;
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    if (input.chunking_strategy !== undefined) {
      const target = kb.pendingChunkingStrategy ?? kb.chunkingStrategy;
      const requested = checkStrategy(mergeStrategy(target, input.chunking_strategy));
      if (!sameStrategy(requested, target)) {
        // A re-index already under way for another strategy is abandoned.
        if (kb.pendingGeneration !== null) await dropGeneration(tx, kb.id, kb.pendingGeneration);
        await tx.update(kbDocuments).set({ pendingChunkCount: null }).where(eq(kbDocuments.kbId, kb.id));
        if (sameStrategy(requested, kb.chunkingStrategy)) {
          patch.pendingGeneration = null;
          patch.pendingChunkingStrategy = null;
        } else {
          const [{ n }] = await tx.select({ n: count() }).from(kbDocuments).where(eq(kbDocuments.kbId, kb.id));
          if (Number(n) === 0) {
            patch.chunkingStrategy = requested;
            patch.pendingGeneration = null;
            patch.pendingChunkingStrategy = null;
          } else {
            const generation = Math.max(kb.generation, kb.pendingGeneration ?? 0) + 1;
            patch.pendingGeneration = generation;
            patch.pendingChunkingStrategy = requested;
            await enqueueWorkflow(tx, reindexWorkflow, { kb_id: kb.id, generation });
            startedGeneration = generation;
          }
        }
      }
    }
    const [updated] = await tx.update(knowledgeBases).set(patch).where(eq(knowledgeBases.id, id)).returning();
    return updated;
  });
  if (startedGeneration !== null) notifyWorkflows();
  return view(ctx.db, row);
}

/**
 * Deletes a knowledge base; its documents, chunks and statistics go with it (ON DELETE CASCADE),
 * and it leaves the lists of the keys limited to it.
 */
export async function deleteKnowledgeBase(ctx: ServiceContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const kb = await findKnowledgeBase(tx, ctx.principal, id, { forUpdate: true });
    const counts = (await countsOf(tx, [id])).get(id)!;
    // Chunks first, in short statements (see store.ts); the cascade then has only documents left.
    for (const generation of [kb.generation, kb.pendingGeneration]) if (generation !== null) await dropGeneration(tx, id, generation);
    // Its sources go with it (cascade); the files they kept stay as plain files, as uploads do.
    await tx
      .update(files)
      .set({ source: null })
      .where(sql`${files.source}->>'source_id' in (select ${sources.id} from ${sources} where ${sources.kbId} = ${id})`);
    await tx.delete(knowledgeBases).where(eq(knowledgeBases.id, id));
    await removeKnowledgeBaseFromKeys(tx, id);
    await recordEvent(
      tx,
      'knowledge_base.deleted',
      { kb_id: id, name: kb.name, document_count: counts.document_count, chunk_count: counts.chunk_count },
      ctx.requestId,
    );
  });
  forgetCachedKeys();
  forgetFileRows();
}
