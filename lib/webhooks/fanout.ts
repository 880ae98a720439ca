import { sql, type SQL } from 'drizzle-orm';
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
 * The ids of the enabled webhooks subscribed to events of `type` (or to "*"), as an expression
 * (a text array) for the statement that records the event: the event and its targets in one
 * round trip.
 */
export function subscribedWebhookIds(type: string): SQL {
  return sql`coalesce((select array_agg(w.id order by w.id) from ${webhooks} w where w.enabled and w.events && array[${type}, '*']::text[]), '{}'::text[])`;
}

/**
 * One delivery per webhook in `targets` (the enabled webhooks subscribed to the event's type, as
 * subscribedWebhookIds found them in the statement that recorded the event), written in that
 * transaction, each with its delivery workflow.
 */
export async function fanOutEvent(tx: DbOrTx, event: EventEnvelope, targets: readonly string[], now = new Date()): Promise<string[]> {
  if (targets.length === 0) return [];
  const payload = envelopeBody(event);
  const deliveries: string[] = [];
  for (const webhookId of targets) {
    const row = await queueDelivery(tx, { webhookId, eventId: event.id, eventType: event.type, payload }, now);
    deliveries.push(row.id);
  }
  return deliveries;
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
