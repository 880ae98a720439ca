import { z } from 'zod';
import { getConfig } from '@/lib/config';
import { defineWorkflow } from '@/lib/workflows/types';
import { failExtraction, runExtractionTask, startExtraction } from './task';

/** Extract one document: mark it processing, run the extractor in a worker process, record the outcome. */
export const extractionWorkflow = defineWorkflow({
  name: 'extract-document',
  event: 'quarry/extraction.requested',
  input: z.object({ extraction_id: z.string().min(1) }),
  concurrency: () => getConfig().extraction.concurrency,
  retries: 2,
  async run({ extraction_id }, step, { services: ctx }) {
    const started = await step.run('start', () => startExtraction(ctx, extraction_id));
    if (!started) return { status: 'skipped' };
    return step.run('extract', () => runExtractionTask(ctx, extraction_id));
  },
  async onFailure({ extraction_id }, error, ctx) {
    await failExtraction(ctx, extraction_id, 'INTERNAL_ERROR', `The extraction failed after several attempts: ${error.message}`);
  },
});
