import { z } from 'zod';
import { getConfig } from '@/lib/config';
import { defineWorkflow } from '@/lib/workflows/types';
import { attemptDelivery, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './delivery';

/** Deliver one event to one webhook: up to five attempts with durable waits between them. */
export const webhookDeliveryWorkflow = defineWorkflow({
  name: 'deliver-webhook',
  event: 'quarry/webhook.delivery.requested',
  // webhook_id is absent from runs queued before it was added; they count only toward the total.
  input: z.object({ delivery_id: z.string().min(1), webhook_id: z.string().min(1).optional() }),
  concurrency: () => getConfig().webhooks.concurrency,
  // A slow or flooded endpoint holds at most a quarter of the slots (at least one); the others keep being served.
  concurrencyKey: { field: 'webhook_id', limit: () => Math.floor(getConfig().webhooks.concurrency / 4) },
  // Attempts that reach the receiver are scheduled below; these retries cover Quarry's own errors.
  retries: 3,
  async run({ delivery_id }, step, { services: ctx }) {
    for (let number = 1; number <= MAX_ATTEMPTS; number++) {
      const result = await step.run(`attempt-${number}`, () => attemptDelivery(ctx, delivery_id, number));
      if (result.outcome !== 'retry') return result;
      await step.sleep(`wait-${number}`, RETRY_DELAYS_MS[number - 1]);
    }
    return { outcome: 'failed' };
  },
});
