import { and, eq, notInArray } from 'drizzle-orm';
import { filesInReach, knowledgeBaseLimit, refuseLimitedKey } from '@/lib/auth/reach';
import type { ServiceContext } from '@/lib/context';
import { files, kbDocuments } from '@/lib/db/schema';
import { notFound } from '@/lib/errors';
import { recordEvent } from '@/lib/events';
import { forgetFileRow } from '@/lib/files/row-cache';
import { removeDocumentsOfFile } from '@/lib/knowledge-bases/documents';

/**
 * Deletes a file everywhere, then its bytes: its knowledge-base documents first (with their
 * chunks, statistics and document.deleted events), then the file row. Extractions reference the
 * file with ON DELETE CASCADE, so they go in the same transaction. It spans files and knowledge
 * bases, so it lives above both. A key limited to knowledge bases deletes only files that are
 * documents of its knowledge bases and of no other (it would reach into those).
 */
export async function deleteFile(ctx: ServiceContext, id: string): Promise<void> {
  // Forgotten before (a read under way keeps nothing) and after the commit (nothing read in between stays).
  forgetFileRow(id);
  const row = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: files.id }).from(files).where(and(eq(files.id, id), filesInReach(ctx.principal, files.id)));
    if (!existing) throw notFound('FILE_NOT_FOUND', 'File', id);
    const limit = knowledgeBaseLimit(ctx.principal);
    if (limit !== null) {
      const [elsewhere] = await tx
        .select({ id: kbDocuments.id })
        .from(kbDocuments)
        .where(and(eq(kbDocuments.fileId, id), notInArray(kbDocuments.kbId, [...limit])))
        .limit(1);
      if (elsewhere) refuseLimitedKey(ctx.principal, 'delete a file that is also a document of a knowledge base it cannot reach', { file_id: id });
    }
    await removeDocumentsOfFile(tx, id, ctx.requestId);
    const [deleted] = await tx.delete(files).where(eq(files.id, id)).returning();
    if (!deleted) throw notFound('FILE_NOT_FOUND', 'File', id);
    await recordEvent(tx, 'file.deleted', { file_id: id, filename: deleted.filename }, ctx.requestId);
    return deleted;
  });
  forgetFileRow(id);
  await ctx.storage.delete(row.storageKey);
}
