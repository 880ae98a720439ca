import { z } from 'zod';
import { getConfig } from '@/lib/config';
import { defineWorkflow } from '@/lib/workflows/types';
import { failIndexing, runDocumentIndexing, startIndexing } from './indexing';

/** Index one knowledge-base document: mark it indexing, chunk and embed its Markdown, store the chunks. */
export const indexingWorkflow = defineWorkflow({
  name: 'index-document',
  event: 'quarry/document.index.requested',
  input: z.object({ document_id: z.string().min(1) }),
  concurrency: () => getConfig().knowledgeBases.indexingConcurrency,
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
