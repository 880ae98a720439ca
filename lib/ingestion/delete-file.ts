import { eq } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import { files } from '@/lib/db/schema';
import { notFound } from '@/lib/errors';
import { recordEvent } from '@/lib/events';
import { removeDocumentsOfFile } from '@/lib/knowledge-bases/documents';

/**
 * Deletes a file everywhere, then its bytes: its knowledge-base documents first (with their
 * chunks, statistics and document.deleted events), then the file row. Extractions reference the
 * file with ON DELETE CASCADE, so they go in the same transaction. It spans files and knowledge
 * bases, so it lives above both.
 */
export async function deleteFile(ctx: ServiceContext, id: string): Promise<void> {
  const row = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: files.id }).from(files).where(eq(files.id, id));
    if (!existing) throw notFound('FILE_NOT_FOUND', 'File', id);
    await removeDocumentsOfFile(tx, id, ctx.requestId);
    const [deleted] = await tx.delete(files).where(eq(files.id, id)).returning();
    if (!deleted) throw notFound('FILE_NOT_FOUND', 'File', id);
    await recordEvent(tx, 'file.deleted', { file_id: id, filename: deleted.filename }, ctx.requestId);
    return deleted;
  });
  await ctx.storage.delete(row.storageKey);
}
