import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import { databaseKind, type DbOrTx } from '@/lib/db/client';
import { ProgressWriter } from '@/lib/db/pacing';
import { isExtractionLayout, type ExtractionLayout } from '@/lib/document/layout';
import { extractionDocuments, extractionLayouts, extractions, files, kbDocuments, kbIndexingProgress, knowledgeBases, sources, type KbDocumentRow, type KnowledgeBaseRow } from '@/lib/db/schema';
import { EmbeddingError } from '@/lib/embeddings';
import { recordEvent } from '@/lib/events';
import { embedderRecipeOf } from './embedder';
import { IndexingError } from './errors';
import { withPreparer, type Preparer } from './preparer';
import type { ChunkSource } from './prepare';
import { deleteChunks, insertChunks } from './store';
import type { ChunkingStrategy } from './types';

/*
 * Indexing of one document: pending → indexing → indexed | failed. The document's Markdown is
 * chunked and embedded in an indexing thread, outside any transaction; the chunks are then stored
 * in one transaction holding the knowledge base's row lock, for the active generation and, while
 * a re-index runs, for the generation being built too. When the knowledge base's generations
 * changed in between (a re-index started or swapped), the chunks are prepared again.
 */

export { IndexingError } from './errors';

const MAX_PREPARE_ROUNDS = 5;

/** pending → indexing with its document.indexing event. False when there is nothing to do. */
export async function startIndexing(ctx: ServiceContext, documentId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(kbDocuments)
      .set({ status: 'indexing', updatedAt: now })
      .where(and(eq(kbDocuments.id, documentId), eq(kbDocuments.status, 'pending')))
      .returning();
    if (!row) {
      const [current] = await tx.select({ status: kbDocuments.status }).from(kbDocuments).where(eq(kbDocuments.id, documentId));
      return current?.status === 'indexing'; // resumed after a restart
    }
    await recordEvent(tx, 'document.indexing', { document_id: row.id, kb_id: row.kbId, file_id: row.fileId, status: 'indexing' }, ctx.requestId);
    return true;
  });
}

/** Ends indexing as failed (unless it already ended) and records document.index_failed. */
export async function failIndexing(ctx: ServiceContext, documentId: string, code: string, message: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(kbDocuments)
      .set({ status: 'failed', errorCode: code, errorMessage: message.slice(0, 2000), updatedAt: new Date() })
      .where(and(eq(kbDocuments.id, documentId), inArray(kbDocuments.status, ['pending', 'indexing'])))
      .returning();
    if (!row) return false;
    await recordEvent(
      tx,
      'document.index_failed',
      { document_id: row.id, kb_id: row.kbId, file_id: row.fileId, status: 'failed', error: { code, message } },
      ctx.requestId,
    );
    return true;
  });
}

/** The extraction's document model as JSON text (read as text, it is parsed where it is used). */
export const documentText = sql<string | null>`${extractionDocuments.document}::text`;

interface Source {
  markdown: string;
  layout: ExtractionLayout | null;
  /** The document model as JSON text: parsed in the indexing thread, not on the server's. */
  document: string | null;
}

/**
 * The extraction's Markdown, its document model (which chunking reads the Markdown by), and
 * where its text sits on the pages when that was recorded (citations).
 */
async function sourceOf(ctx: ServiceContext, doc: KbDocumentRow): Promise<Source> {
  const [extraction] = await ctx.db
    .select({ markdown: extractions.markdown, status: extractions.status, layout: extractionLayouts.layout, document: documentText })
    .from(extractions)
    .leftJoin(extractionLayouts, eq(extractionLayouts.extractionId, extractions.id))
    .leftJoin(extractionDocuments, eq(extractionDocuments.extractionId, extractions.id))
    .where(eq(extractions.id, doc.extractionId));
  if (!extraction || extraction.status !== 'completed') {
    throw new IndexingError('EXTRACTION_NOT_COMPLETED', 'The extraction this document was added from is no longer available');
  }
  return {
    markdown: extraction.markdown ?? '',
    layout: isExtractionLayout(extraction.layout) ? extraction.layout : null,
    document: extraction.document ?? null,
  };
}

interface Plan {
  generation: number;
  pendingGeneration: number | null;
  active: ChunkSource;
  pending: ChunkSource | null;
}

async function prepareFor(preparer: Preparer, kb: KnowledgeBaseRow, source: Source, doc: KbDocumentRow, own: ChunkingStrategy | null): Promise<Plan> {
  if (own) {
    // Chunked its source's way in every generation: a change of the knowledge base's strategy leaves it as it is.
    const [active] = await preparer.prepare({ ...source, strategies: [own], embedder: embedderRecipeOf(kb), metadata: doc.metadata });
    return { generation: kb.generation, pendingGeneration: kb.pendingGeneration, active, pending: kb.pendingGeneration !== null ? active : null };
  }
  const pendingStrategy = kb.pendingGeneration !== null ? (kb.pendingChunkingStrategy as ChunkingStrategy | null) : null;
  const strategies = pendingStrategy ? [kb.chunkingStrategy, pendingStrategy] : [kb.chunkingStrategy];
  const [active, pending] = await preparer.prepare({ ...source, strategies, embedder: embedderRecipeOf(kb), metadata: doc.metadata });
  return { generation: kb.generation, pendingGeneration: kb.pendingGeneration, active, pending: pending ?? null };
}

/**
 * The chunking a document's source asks for instead of the knowledge base's (sources.chunking),
 * or null: files synced from a source name it in files.source.
 */
export async function ownChunking(db: DbOrTx, fileId: string): Promise<ChunkingStrategy | null> {
  const [row] = await db
    .select({ chunking: sources.chunking })
    .from(files)
    .innerJoin(sources, sql`${sources.id} = ${files.source}->>'source_id'`)
    .where(eq(files.id, fileId));
  return (row?.chunking as ChunkingStrategy | null | undefined) ?? null;
}

export type IndexOutcome = { status: 'indexed' | 'failed' | 'skipped'; chunk_count?: number };

/**
 * Indexes one document whose status is indexing. Problems with the document or with the
 * knowledge base's embedder configuration end it as failed; transient ones (an embedding
 * service that is down) are thrown so the workflow retries. Safe to run again after a crash.
 */
export async function runDocumentIndexing(ctx: ServiceContext, documentId: string): Promise<IndexOutcome> {
  try {
    return await withPreparer((preparer) => indexWith(ctx, preparer, documentId));
  } catch (err) {
    if (err instanceof IndexingError) {
      await failIndexing(ctx, documentId, err.code, err.message);
      return { status: 'failed' };
    }
    if (err instanceof EmbeddingError && !err.retryable) {
      await failIndexing(ctx, documentId, err.code, err.message);
      return { status: 'failed' };
    }
    throw err;
  }
}

async function indexWith(ctx: ServiceContext, preparer: Preparer, documentId: string): Promise<IndexOutcome> {
  for (let round = 0; round < MAX_PREPARE_ROUNDS; round++) {
    const [doc] = await ctx.db.select().from(kbDocuments).where(eq(kbDocuments.id, documentId));
    if (!doc || doc.status !== 'indexing') return { status: 'skipped' };
    const [kb] = await ctx.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, doc.kbId));
    if (!kb) return { status: 'skipped' };
    const plan = await prepareFor(preparer, kb, await sourceOf(ctx, doc), doc, await ownChunking(ctx.db, doc.fileId));
    const progress = await progressReporter(ctx, documentId);
    const pipelined = (await databaseKind(ctx.db)) === 'postgres';
    const outcome = await ctx.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, doc.kbId)).for('update');
      if (!locked) return { status: 'skipped' } as const;
      if (locked.generation !== plan.generation || locked.pendingGeneration !== plan.pendingGeneration) return null;
      const [current] = await tx.select().from(kbDocuments).where(eq(kbDocuments.id, documentId)).for('update');
      if (!current || current.status !== 'indexing') return { status: 'skipped' } as const;
      const target = { kbId: kb.id, documentId, dimensions: kb.embeddingDimensions };
      // A run that stored chunks and then crashed before its result was recorded: start over.
      await deleteChunks(tx, { ...target, generation: plan.generation });
      await insertChunks(tx, { ...target, generation: plan.generation }, plan.active, { onProgress: progress.report, pipelined });
      if (plan.pendingGeneration !== null && plan.pending) {
        await deleteChunks(tx, { ...target, generation: plan.pendingGeneration });
        await insertChunks(tx, { ...target, generation: plan.pendingGeneration }, plan.pending, { pipelined });
      }
      const now = new Date();
      await tx
        .update(kbDocuments)
        .set({
          status: 'indexed',
          chunkCount: plan.active.count,
          pendingChunkCount: plan.pending ? plan.pending.count : null,
          errorCode: null,
          errorMessage: null,
          indexedAt: now,
          // What these chunks were made from, written with them: search cites what it serves.
          indexedExtractionId: current.extractionId,
          indexedFileVersion: sql`(select ${extractions.fileVersion} from ${extractions} where ${extractions.id} = ${current.extractionId})`,
          updatedAt: now,
        })
        .where(eq(kbDocuments.id, documentId));
      await recordEvent(
        tx,
        'document.indexed',
        { document_id: documentId, kb_id: kb.id, file_id: doc.fileId, chunk_count: plan.active.count },
        ctx.requestId,
      );
      return { status: 'indexed', chunk_count: plan.active.count } as const;
    }).finally(() => progress.stop());
    if (outcome) return outcome;
  }
  throw new Error('The knowledge base kept changing its index generation while this document was being indexed');
}

const PROGRESS_EVERY_MS = 1_000;

/**
 * Records, about once a second, how many of a document's chunks are written, from outside the
 * writing transaction (which holds the document's row) so that every process sees it. Only on
 * PostgreSQL: the embedded database has one connection, busy with that transaction.
 */
async function progressReporter(ctx: ServiceContext, documentId: string) {
  const shared = (await databaseKind(ctx.db)) === 'postgres';
  const writer = new ProgressWriter<{ written: number; total: number }>(async ({ written, total }) => {
    const updatedAt = new Date();
    await ctx.db
      .insert(kbIndexingProgress)
      .values({ documentId, chunksWritten: written, chunkTotal: total, updatedAt })
      .onConflictDoUpdate({ target: kbIndexingProgress.documentId, set: { chunksWritten: written, chunkTotal: total, updatedAt } });
  }, PROGRESS_EVERY_MS);
  return {
    report: (written: number, total: number) => {
      if (shared && written < total) writer.report({ written, total });
    },
    /** No more reports; the record goes (the document is indexed, failed, gone, or starts over). */
    stop: async () => {
      await writer.stop();
      if (shared) await ctx.db.delete(kbIndexingProgress).where(eq(kbIndexingProgress.documentId, documentId)).catch(() => undefined);
    },
  };
}

/** Documents of a knowledge base still to be re-chunked into the pending generation. */
export async function documentsAwaitingReindex(ctx: ServiceContext, kbId: string, limit: number): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: kbDocuments.id })
    .from(kbDocuments)
    .where(and(eq(kbDocuments.kbId, kbId), eq(kbDocuments.status, 'indexed'), isNull(kbDocuments.pendingChunkCount)))
    .orderBy(kbDocuments.id)
    .limit(limit);
  return rows.map((r) => r.id);
}
