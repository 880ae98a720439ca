import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { isExtractionLayout } from '@/lib/document/layout';
import type { ServiceContext } from '@/lib/context';
import { databaseKind } from '@/lib/db/client';
import { extractionDocuments, extractionLayouts, extractions, kbDocuments, knowledgeBases, type KnowledgeBaseRow } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events';
import { embedderRecipeOf } from './embedder';
import { IndexingError } from './errors';
import { documentText, documentsAwaitingReindex, ownChunking } from './indexing';
import { withPreparer, type Preparer } from './preparer';
import type { ChunkSource } from './prepare';
import { deleteChunks, dropGeneration, insertChunks } from './store';
import type { ChunkingStrategy } from './types';

/*
 * Re-indexing after a chunking-strategy change. Every indexed document is chunked again into the
 * pending generation while searches keep reading the active one; documents indexed meanwhile
 * write both (see indexing.ts). When none is left, one transaction makes the pending generation
 * active, moves the chunk counts over and drops the old chunks: a search sees the old index or
 * the new one, never a mix or a gap. A document that cannot be indexed with the new strategy (too
 * many chunks, or over the indexing thread's limits) ends failed and leaves the index at once, so
 * the re-index can still finish.
 */

export type ReindexProgress = 'superseded' | 'more' | 'ready';

/** Re-chunks up to `batch` documents into `generation`. */
export async function reindexBatch(ctx: ServiceContext, kbId: string, generation: number, batch = 10): Promise<ReindexProgress> {
  const [kb] = await ctx.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
  if (!kb || kb.pendingGeneration !== generation || !kb.pendingChunkingStrategy) return 'superseded';
  const ids = await documentsAwaitingReindex(ctx, kbId, batch);
  if (ids.length === 0) return 'ready';
  return withPreparer((preparer) => rechunkDocuments(ctx, preparer, kb, generation, ids));
}

async function rechunkDocuments(
  ctx: ServiceContext,
  preparer: Preparer,
  kb: KnowledgeBaseRow,
  generation: number,
  ids: string[],
): Promise<ReindexProgress> {
  const embedder = embedderRecipeOf(kb);
  const strategies = [kb.pendingChunkingStrategy as ChunkingStrategy];
  for (const documentId of ids) {
    const [doc] = await ctx.db
      .select({ doc: kbDocuments, markdown: extractions.markdown, layout: extractionLayouts.layout, document: documentText })
      .from(kbDocuments)
      .innerJoin(extractions, eq(extractions.id, kbDocuments.extractionId))
      .leftJoin(extractionLayouts, eq(extractionLayouts.extractionId, extractions.id))
      .leftJoin(extractionDocuments, eq(extractionDocuments.extractionId, extractions.id))
      .where(eq(kbDocuments.id, documentId));
    if (!doc) continue;
    let chunks: ChunkSource;
    try {
      const own = await ownChunking(ctx.db, doc.doc.fileId);
      [chunks] = await preparer.prepare({
        markdown: doc.markdown ?? '',
        layout: isExtractionLayout(doc.layout) ? doc.layout : null,
        document: doc.document ?? null,
        strategies: own ? [own] : strategies,
        embedder,
        metadata: doc.doc.metadata,
      });
    } catch (err) {
      if (!(err instanceof IndexingError)) throw err;
      if ((await failDocument(ctx, kb.id, generation, documentId, err)) === 'superseded') return 'superseded';
      continue;
    }
    const pipelined = (await databaseKind(ctx.db)) === 'postgres';
    const stored = await ctx.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, kb.id)).for('update');
      if (!locked || locked.pendingGeneration !== generation) return 'superseded' as const;
      const [current] = await tx
        .select()
        .from(kbDocuments)
        .where(and(eq(kbDocuments.id, documentId), eq(kbDocuments.status, 'indexed'), isNull(kbDocuments.pendingChunkCount)))
        .for('update');
      if (!current) return 'skipped' as const;
      const target = { kbId: kb.id, documentId, generation };
      await deleteChunks(tx, target);
      await insertChunks(tx, { ...target, dimensions: kb.embeddingDimensions }, chunks, { pipelined });
      await tx.update(kbDocuments).set({ pendingChunkCount: chunks.count }).where(eq(kbDocuments.id, documentId));
      return 'stored' as const;
    });
    if (stored === 'superseded') return 'superseded';
  }
  return 'more';
}

/** indexed → failed for a document the new strategy cannot index; its chunks go with it. */
async function failDocument(ctx: ServiceContext, kbId: string, generation: number, documentId: string, err: IndexingError) {
  return ctx.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId)).for('update');
    if (!locked || locked.pendingGeneration !== generation) return 'superseded' as const;
    const [doc] = await tx
      .update(kbDocuments)
      .set({ status: 'failed', chunkCount: 0, errorCode: err.code, errorMessage: err.message.slice(0, 2000), updatedAt: new Date() })
      .where(and(eq(kbDocuments.id, documentId), eq(kbDocuments.status, 'indexed'), isNull(kbDocuments.pendingChunkCount)))
      .returning();
    if (!doc) return 'skipped' as const;
    await deleteChunks(tx, { kbId, documentId, generation: locked.generation });
    const error = { code: err.code, message: err.message };
    await recordEvent(tx, 'document.index_failed', { document_id: doc.id, kb_id: kbId, file_id: doc.fileId, status: 'failed', error }, ctx.requestId);
    return 'failed' as const;
  });
}

/** Makes `generation` active once every indexed document has its chunks there. */
export async function swapGeneration(ctx: ServiceContext, kbId: string, generation: number): Promise<'superseded' | 'more' | 'swapped'> {
  return ctx.db.transaction(async (tx) => {
    const [kb] = await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId)).for('update');
    if (!kb || kb.pendingGeneration !== generation || !kb.pendingChunkingStrategy) return 'superseded';
    const [waiting] = await tx
      .select({ id: kbDocuments.id })
      .from(kbDocuments)
      .where(and(eq(kbDocuments.kbId, kbId), eq(kbDocuments.status, 'indexed'), isNull(kbDocuments.pendingChunkCount)))
      .limit(1);
    if (waiting) return 'more';
    const previous = kb.generation;
    await tx
      .update(knowledgeBases)
      .set({ generation, chunkingStrategy: kb.pendingChunkingStrategy, pendingGeneration: null, pendingChunkingStrategy: null, updatedAt: new Date() })
      .where(eq(knowledgeBases.id, kbId));
    // Documents not indexed (pending, indexing, failed) have no chunks in either generation.
    await tx
      .update(kbDocuments)
      .set({ chunkCount: 0 })
      .where(and(eq(kbDocuments.kbId, kbId), isNull(kbDocuments.pendingChunkCount)));
    await tx
      .update(kbDocuments)
      .set({ chunkCount: sql`${kbDocuments.pendingChunkCount}`, pendingChunkCount: null })
      .where(and(eq(kbDocuments.kbId, kbId), isNotNull(kbDocuments.pendingChunkCount)));
    await dropGeneration(tx, kbId, previous);
    return 'swapped';
  });
}
