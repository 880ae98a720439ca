import { z } from 'zod';
import { getConfig } from '@/lib/config';
import { defineWorkflow } from '@/lib/workflows/types';
import { failIndexing, runDocumentIndexing, startIndexing } from './indexing';

/** Index one knowledge-base document: mark it indexing, chunk and embed its Markdown, store the chunks. */
export const indexingWorkflow = defineWorkflow({
  name: 'index-document',
  event: 'quarry/document.index.requested',
  // kb_id is absent from runs queued before it was added; they count only toward the total.
  input: z.object({ document_id: z.string().min(1), kb_id: z.string().min(1).optional() }),
  concurrency: () => getConfig().knowledgeBases.indexingConcurrency,
  // With three slots or more, a bulk upload into one knowledge base leaves one for the others; with
  // fewer, one knowledge base may use them all (its throughput matters more than fairness there).
  concurrencyKey: { field: 'kb_id', limit: () => perKnowledgeBase(getConfig().knowledgeBases.indexingConcurrency) },
  retries: 3,
  async run({ document_id }, step, { services: ctx }) {
    const started = await step.run('start', () => startIndexing(ctx, document_id));
    if (!started) return { status: 'skipped' };
    return step.run('index', () => runDocumentIndexing(ctx, document_id));
  },
  async onFailure({ document_id }, error, ctx) {
    await failIndexing(ctx, document_id, 'INDEXING_FAILED', `Indexing failed after several attempts: ${error.message}`);
  },
});

function perKnowledgeBase(total: number): number {
  return total >= 3 ? total - 1 : total;
}
