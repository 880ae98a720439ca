import { eq } from 'drizzle-orm';
import { hasScope } from '@/lib/auth/scopes';
import type { ServiceContext } from '@/lib/context';
import { extractions, files, kbDocuments } from '@/lib/db/schema';
import { isApiError } from '@/lib/errors';
import { checkExtractable, insertExtraction } from '@/lib/extraction/service';
import type { ExtractionOptions } from '@/lib/extraction/types';
import { failedDocuments, requeueDocument, type ExtractionStarter } from '@/lib/knowledge-bases/add-document';
import { documentView } from '@/lib/knowledge-bases/documents';

/** At most this many failed documents are retried by one retry-failed call. */
export const MAX_RETRY_BATCH = 500;

/**
 * For a document whose file has no usable extraction left (its extraction failed): a new one with
 * the mode and options of the extraction the document had, when the caller may start extractions.
 * Read inside the re-queueing transaction, which holds the document's row lock.
 */
function extractAgain(ctx: ServiceContext, documentId: string): ExtractionStarter | undefined {
  const scopes = ctx.principal?.scopes;
  if (scopes !== undefined && !hasScope(scopes, 'extractions:write')) return undefined;
  return async (tx, fileId) => {
    const [previous] = await tx
      .select({ mode: extractions.mode, options: extractions.options })
      .from(kbDocuments)
      .innerJoin(extractions, eq(extractions.id, kbDocuments.extractionId))
      .where(eq(kbDocuments.id, documentId));
    const [file] = await tx.select().from(files).where(eq(files.id, fileId));
    const request = { mode: previous?.mode ?? 'normal', options: (previous?.options ?? {}) as unknown as ExtractionOptions };
    checkExtractable(file, request);
    return (await insertExtraction(tx, ctx, fileId, request)).id;
  };
}

/** POST …/documents/{id}/retry: a failed document goes through its pipeline again (extracting anew when its extraction failed). */
export async function retryDocument(ctx: ServiceContext, kbId: string, documentId: string) {
  const row = await requeueDocument(ctx, kbId, documentId, { onlyFailed: true }, extractAgain(ctx, documentId));
  return documentView(ctx, row);
}

/** POST …/documents/{id}/reindex: index again from the latest completed extraction, or the one given. */
export async function reindexDocument(ctx: ServiceContext, kbId: string, documentId: string, extractionId?: string) {
  return documentView(ctx, await requeueDocument(ctx, kbId, documentId, { onlyFailed: false, extractionId }));
}

/** POST …/retry-failed: every failed document of the knowledge base, each on its own; what happened to each. */
export async function retryFailedDocuments(ctx: ServiceContext, kbId: string) {
  const failed = await failedDocuments(ctx, kbId, MAX_RETRY_BATCH);
  const results = [];
  for (const doc of failed) {
    try {
      const row = await requeueDocument(ctx, kbId, doc.id, { onlyFailed: true }, extractAgain(ctx, doc.id));
      results.push({ document_id: doc.id, status: row.status });
    } catch (err) {
      if (!isApiError(err)) throw err;
      results.push({ document_id: doc.id, status: doc.status, error: { code: err.code, message: err.message } });
    }
  }
  return { retried: results.filter((r) => !('error' in r)).length, results };
}
