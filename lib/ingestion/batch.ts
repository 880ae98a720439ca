import type { ServiceContext } from '@/lib/context';
import { isApiError } from '@/lib/errors';
import { createExtraction, type CreateExtractionInput } from '@/lib/extraction/service';
import { findKnowledgeBase } from '@/lib/knowledge-bases/service';
import { addDocumentToKnowledgeBase, type AddDocumentRequest, type ExtractRequest } from './add-document';

/** What became of one item of a batch: its result, or the error it alone got. */
type ItemOutcome<K extends string, T> = { index: number; file_id: string } & ({ [key in K]: T } | { error: { code: string; message: string; details?: Record<string, unknown> } });

/**
 * Runs `one` for every item, each in its own transaction, so that one bad item never blocks the
 * rest: API errors are reported per item; anything else (the database gone) stops the batch.
 */
async function eachItem<I extends { file_id: string }, K extends string, T>(items: I[], key: K, one: (item: I) => Promise<T>) {
  const results: ItemOutcome<K, T>[] = [];
  for (const [index, item] of items.entries()) {
    try {
      results.push({ index, file_id: item.file_id, [key]: await one(item) } as ItemOutcome<K, T>);
    } catch (err) {
      if (!isApiError(err)) throw err;
      results.push({ index, file_id: item.file_id, error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } });
    }
  }
  const failed = results.filter((r) => 'error' in r).length;
  return { created: results.length - failed, failed, results };
}

/** POST /v1/knowledge-bases/{kb_id}/documents/batch: up to 100 files, each added as by the single call. */
export async function addDocumentsBatch(ctx: ServiceContext, kbId: string, body: { items: Omit<AddDocumentRequest, 'extract'>[]; extract?: ExtractRequest }) {
  // An unknown knowledge base fails the whole request, not each item.
  await findKnowledgeBase(ctx.db, ctx.principal, kbId);
  return eachItem(body.items, 'document', (item) => addDocumentToKnowledgeBase(ctx, kbId, { ...item, extract: body.extract }));
}

/** POST /v1/extractions/batch: an extraction of each of up to 100 files, as by the single call. */
export function createExtractionsBatch(ctx: ServiceContext, body: { file_ids: string[] } & Omit<CreateExtractionInput, 'file_id'>) {
  return eachItem(
    body.file_ids.map((file_id) => ({ file_id })),
    'extraction',
    (item) => createExtraction(ctx, { file_id: item.file_id, mode: body.mode, options: body.options }),
  );
}
