import { and, asc, between, eq } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import { kbChunks, kbDocuments } from '@/lib/db/schema';
import { notFound } from '@/lib/errors';
import { getKnowledgeBase } from './service';

export const MAX_PASSAGE_NEIGHBOURS = 5;

export interface PassageChunk {
  id: string;
  chunk_index: number;
  content: string;
  page: number | null;
  section: string | null;
}

function pageOf(metadata: Record<string, unknown>): number | null {
  return typeof metadata.page === 'number' ? metadata.page : null;
}

function sectionOf(metadata: Record<string, unknown>): string | null {
  return typeof metadata.section === 'string' && metadata.section !== '' ? metadata.section : null;
}

/**
 * A chunk of a knowledge base with up to `around` chunks before and after it in its document, in
 * document order: the context around a search hit. Read from the generation searches read.
 */
export async function getPassage(ctx: ServiceContext, kbId: string, chunkId: string, around: number) {
  const kb = await getKnowledgeBase(ctx, kbId);
  const [chunk] = await ctx.db
    .select({ documentId: kbChunks.documentId, generation: kbChunks.generation, chunkIndex: kbChunks.chunkIndex })
    .from(kbChunks)
    .innerJoin(kbDocuments, eq(kbDocuments.id, kbChunks.documentId))
    .where(and(eq(kbChunks.id, chunkId), eq(kbChunks.kbId, kb.id), eq(kbDocuments.status, 'indexed')))
    .limit(1);
  if (!chunk) throw notFound('NOT_FOUND', 'Chunk', chunkId);
  const [doc] = await ctx.db
    .select({ id: kbDocuments.id, title: kbDocuments.title, fileId: kbDocuments.fileId, extractionId: kbDocuments.extractionId })
    .from(kbDocuments)
    .where(eq(kbDocuments.id, chunk.documentId));
  const rows = await ctx.db
    .select({ id: kbChunks.id, chunkIndex: kbChunks.chunkIndex, content: kbChunks.content, metadata: kbChunks.metadata })
    .from(kbChunks)
    .where(
      and(
        eq(kbChunks.documentId, chunk.documentId),
        eq(kbChunks.generation, chunk.generation),
        between(kbChunks.chunkIndex, Math.max(0, chunk.chunkIndex - around), chunk.chunkIndex + around),
      ),
    )
    .orderBy(asc(kbChunks.chunkIndex));
  const chunks: PassageChunk[] = rows.map((r) => {
    const metadata = (r.metadata ?? {}) as Record<string, unknown>;
    return { id: r.id, chunk_index: r.chunkIndex, content: r.content, page: pageOf(metadata), section: sectionOf(metadata) };
  });
  return {
    kb_id: kb.id,
    document_id: doc.id,
    document_title: doc.title,
    file_id: doc.fileId,
    extraction_id: doc.extractionId,
    chunk_id: chunkId,
    chunks,
  };
}
