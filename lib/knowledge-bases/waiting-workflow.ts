import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { extractions, kbDocuments } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events';
import { cleanLabel } from '@/lib/text/clean';
import { enqueueWorkflow, notifyWorkflows } from '@/lib/workflows/dispatch';
import { defineWorkflow } from '@/lib/workflows/types';
import { MAX_TITLE_LENGTH } from './add-document';
import { indexingWorkflow } from './indexing-workflow';

/*
 * Documents added while their extraction still ran wait for it (awaiting_extraction). These two
 * workflows start on the extraction's own events, recorded in the transaction that ends it; the
 * document was committed before that transaction could run (adding it holds a share lock on the
 * extraction), so every waiting document is found.
 */

/**
 * Starts the indexing of the documents waiting for a completed extraction; returns how many. A
 * document whose title fell back to the filename takes the title the extraction found, if any.
 */
export async function releaseWaitingDocuments(ctx: ServiceContext, extractionId: string): Promise<number> {
  const released = await ctx.db.transaction(async (tx) => {
    const [extraction] = await tx.select({ metadata: extractions.metadata }).from(extractions).where(eq(extractions.id, extractionId));
    const found = cleanLabel(typeof extraction?.metadata?.title === 'string' ? extraction.metadata.title : '').slice(0, MAX_TITLE_LENGTH);
    const waiting = and(eq(kbDocuments.extractionId, extractionId), eq(kbDocuments.awaitingExtraction, true), eq(kbDocuments.status, 'pending'));
    if (found) {
      await tx
        .update(kbDocuments)
        .set({ title: found })
        .where(and(waiting, eq(kbDocuments.titleFromFilename, true)));
    }
    const docs = await tx
      .update(kbDocuments)
      .set({ awaitingExtraction: false, titleFromFilename: false, updatedAt: new Date() })
      .where(waiting)
      .returning({ id: kbDocuments.id, kbId: kbDocuments.kbId });
    for (const doc of docs) await enqueueWorkflow(tx, indexingWorkflow, { document_id: doc.id, kb_id: doc.kbId });
    return docs.length;
  });
  if (released > 0) notifyWorkflows();
  return released;
}

/** Fails the documents waiting for an extraction that failed, with EXTRACTION_FAILED and its error. */
export async function failWaitingDocuments(ctx: ServiceContext, extractionId: string): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const [extraction] = await tx
      .select({ code: extractions.errorCode, message: extractions.errorMessage })
      .from(extractions)
      .where(eq(extractions.id, extractionId));
    const reason = extraction?.message ?? 'The extraction failed';
    const message = `The file could not be turned into text (${extraction?.code ?? 'INTERNAL_ERROR'}): ${reason}`.slice(0, 2000);
    const docs = await tx
      .update(kbDocuments)
      .set({ status: 'failed', awaitingExtraction: false, errorCode: 'EXTRACTION_FAILED', errorMessage: message, updatedAt: new Date() })
      .where(and(eq(kbDocuments.extractionId, extractionId), eq(kbDocuments.awaitingExtraction, true), eq(kbDocuments.status, 'pending')))
      .returning();
    for (const doc of docs) {
      await recordEvent(
        tx,
        'document.index_failed',
        { document_id: doc.id, kb_id: doc.kbId, file_id: doc.fileId, status: 'failed', error: { code: 'EXTRACTION_FAILED', message } },
        ctx.requestId,
      );
    }
    return docs.length;
  });
}

const extractionEvent = z.object({ extraction_id: z.string().min(1) });

/**
 * Whether any document waits for the extraction. Asked in the transaction that ends it, after its
 * row was updated: a document being added holds a share lock on that row, so it has committed
 * by now and is seen (the same reasoning as above).
 */
async function anyWaiting(tx: DbOrTx, { extraction_id }: { extraction_id: string }): Promise<boolean> {
  const found = await tx
    .select({ id: kbDocuments.id })
    .from(kbDocuments)
    .where(and(eq(kbDocuments.extractionId, extraction_id), eq(kbDocuments.awaitingExtraction, true), eq(kbDocuments.status, 'pending')))
    .limit(1);
  return found.length > 0;
}

export const releaseWaitingDocumentsWorkflow = defineWorkflow({
  name: 'release-waiting-documents',
  event: 'extraction.completed',
  input: extractionEvent,
  when: anyWaiting,
  concurrency: () => 4,
  retries: 3,
  async run({ extraction_id }, step, { services }) {
    return { released: await step.run('release', () => releaseWaitingDocuments(services, extraction_id)) };
  },
});

export const failWaitingDocumentsWorkflow = defineWorkflow({
  name: 'fail-waiting-documents',
  event: 'extraction.failed',
  input: extractionEvent,
  when: anyWaiting,
  concurrency: () => 4,
  retries: 3,
  async run({ extraction_id }, step, { services }) {
    return { failed: await step.run('fail', () => failWaitingDocuments(services, extraction_id)) };
  },
});
