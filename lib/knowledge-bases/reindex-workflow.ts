import { z } from 'zod';
import { defineWorkflow } from '@/lib/workflows/types';
import { reindexBatch, swapGeneration } from './reindex';

/** Upper bound on batches, far beyond any knowledge base (documents × rounds). */
const MAX_ROUNDS = 100_000;

/**
 * Re-index a knowledge base into a new generation after its chunking strategy changed, then swap
 * generations atomically. A newer strategy change supersedes the run.
 */
export const reindexWorkflow = defineWorkflow({
  name: 'reindex-knowledge-base',
  event: 'quarry/knowledge-base.reindex.requested',
  input: z.object({ kb_id: z.string().min(1), generation: z.number().int().min(1) }),
  concurrency: () => 1,
  retries: 3,
  async run({ kb_id, generation }, step, { services: ctx }) {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const progress = await step.run(`batch-${round}`, () => reindexBatch(ctx, kb_id, generation));
      if (progress === 'superseded') return { status: 'superseded' };
      if (progress === 'more') continue;
      const swapped = await step.run(`swap-${round}`, () => swapGeneration(ctx, kb_id, generation));
      if (swapped === 'swapped') return { status: 'swapped' };
      if (swapped === 'superseded') return { status: 'superseded' };
    }
    throw new Error(`Re-indexing knowledge base ${kb_id} did not finish`);
  },
});
