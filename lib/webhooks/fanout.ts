import { and, arrayOverlaps, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { webhookDeliveries, webhooks, type WebhookDeliveryRow } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { enqueueWorkflow } from '@/lib/workflows/dispatch';
import { webhookDeliveryWorkflow } from './delivery-workflow';

export interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** The delivery body: the event envelope, serialised once so every attempt sends the same bytes. */
export function envelopeBody(event: EventEnvelope): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: event.data });
}

/**
 * One delivery per enabled webhook subscribed to the event's type (or to "*"), written in the
 * transaction that records the event, each with its delivery workflow.
 */
export async function fanOutEvent(tx: DbOrTx, event: EventEnvelope, now = new Date()): Promise<string[]> {
  const targets = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.enabled, true), arrayOverlaps(webhooks.events, [event.type, '*'])));
  if (targets.length === 0) return [];
  const payload = envelopeBody(event);
  const ids: string[] = [];
  for (const target of targets) {
    const row = await queueDelivery(tx, { webhookId: target.id, eventId: event.id, eventType: event.type, payload }, now);
    ids.push(row.id);
  }
  return ids;
}

/** A pending delivery (new `del_` id) with the workflow run that sends it, in the caller's transaction. */
export async function queueDelivery(
  tx: DbOrTx,
  message: { webhookId: string; eventId: string; eventType: string; payload: string; redeliveryOf?: string },
  now = new Date(),
): Promise<WebhookDeliveryRow> {
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ id: newId('delivery'), ...message, status: 'pending', nextAttemptAt: now, createdAt: now, updatedAt: now })
    .returning();
  await enqueueWorkflow(tx, webhookDeliveryWorkflow, { delivery_id: row.id, webhook_id: row.webhookId }, now);
  return row;
}
