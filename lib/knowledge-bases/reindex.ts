import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import { extractions, kbDocuments, knowledgeBases } from '@/lib/db/schema';
import { embedderFor } from './embedder';
import { documentsAwaitingReindex } from './indexing';
import { deleteChunks, dropGeneration, insertChunks, prepareChunks } from './store';
import type { ChunkingStrategy } from './types';

/*
 * Re-indexing after a chunking-strategy change. Every indexed document is chunked again into the
 * pending generation while searches keep reading the active one; documents indexed meanwhile
 * write both (see indexing.ts). When none is left, one transaction makes the pending generation
 * active, moves the chunk counts over and drops the old chunks: a search sees the old index or
 * the new one, never a mix or a gap.
 */

export type ReindexProgress = 'superseded' | 'more' | 'ready';

/** Re-chunks up to `batch` documents into `generation`. */
export async function reindexBatch(ctx: ServiceContext, kbId: string, generation: number, batch = 10): Promise<ReindexProgress> {
  const [kb] = await ctx.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
  if (!kb || kb.pendingGeneration !== generation || !kb.pendingChunkingStrategy) return 'superseded';
  const ids = await documentsAwaitingReindex(ctx, kbId, batch);
  if (ids.length === 0) return 'ready';
  const embedder = embedderFor(kb);
  for (const documentId of ids) {
    const [doc] = await ctx.db
      .select({ doc: kbDocuments, markdown: extractions.markdown })
      .from(kbDocuments)
      .innerJoin(extractions, eq(extractions.id, kbDocuments.extractionId))
      .where(eq(kbDocuments.id, documentId));
    if (!doc) continue;
    const chunks = await prepareChunks(doc.markdown ?? '', kb.pendingChunkingStrategy as ChunkingStrategy, embedder, doc.doc.metadata);
    const stored = await ctx.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId)).for('update');
      if (!locked || locked.pendingGeneration !== generation) return 'superseded' as const;
      const [current] = await tx
        .select()
        .from(kbDocuments)
        .where(and(eq(kbDocuments.id, documentId), eq(kbDocuments.status, 'indexed'), isNull(kbDocuments.pendingChunkCount)))
        .for('update');
      if (!current) return 'skipped' as const;
      const target = { kbId, documentId, generation };
      await deleteChunks(tx, target);
      await insertChunks(tx, { ...target, dimensions: kb.embeddingDimensions }, chunks);
      await tx.update(kbDocuments).set({ pendingChunkCount: chunks.length }).where(eq(kbDocuments.id, documentId));
      return 'stored' as const;
    });
    if (stored === 'superseded') return 'superseded';
  }
  return 'more';
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
