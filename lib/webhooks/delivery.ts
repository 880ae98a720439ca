import { and, eq } from 'drizzle-orm';
import { getConfig } from '@/lib/config';
import type { ServiceContext } from '@/lib/context';
import { decryptSecret } from '@/lib/crypto/secret-box';
import type { DbOrTx } from '@/lib/db/client';
import { webhookAttempts, webhookDeliveries, webhooks, type WebhookDeliveryRow, type WebhookRow } from '@/lib/db/schema';
import { sendWebhook, type SendResult } from './send';
import { deliveryHeaders } from './signing';
import { systemLookup, type LookupFunction } from './ssrf';

/*
 * Delivery schedule: attempt 1 at once, then 1 minute, 5 minutes, 30 minutes and 2 hours after the
 * previous failure; after the fifth failed attempt the delivery is failed. The waits are durable
 * sleeps of the delivery workflow, so a restart neither loses nor repeats an attempt.
 */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export type AttemptOutcome = { outcome: 'succeeded' | 'retry' | 'failed' | 'cancelled' | 'skipped'; status?: number | null };

/** Test seam: how host names are resolved (the system resolver by default). */
let lookupOverride: LookupFunction | undefined;
export function setWebhookLookup(lookup: LookupFunction | undefined): void {
  lookupOverride = lookup;
}

export function webhookLookup(): LookupFunction {
  return lookupOverride ?? systemLookup;
}

/** One attempt of a delivery: its payload POSTed to the webhook, signed with the webhook's secret. */
export function sendDelivery(
  webhook: WebhookRow,
  delivery: Pick<WebhookDeliveryRow, 'id' | 'eventId' | 'eventType' | 'payload'>,
  startedAt: Date,
): Promise<SendResult> {
  return sendWebhook({
    url: webhook.url,
    body: delivery.payload,
    headers: deliveryHeaders({
      secret: decryptSecret(webhook.secretCiphertext),
      body: delivery.payload,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      deliveryId: delivery.id,
      timestamp: Math.floor(startedAt.getTime() / 1000),
    }),
    allowPrivate: getConfig().webhooks.allowInsecure,
    lookup: lookupOverride,
  });
}

/** Stores an attempt's outcome (once per number) and the webhook's latest delivery time. */
export async function recordAttempt(
  tx: DbOrTx,
  webhookId: string,
  deliveryId: string,
  number: number,
  startedAt: Date,
  result: SendResult,
): Promise<void> {
  await tx
    .insert(webhookAttempts)
    .values({
      deliveryId,
      number,
      startedAt,
      durationMs: result.durationMs,
      responseStatus: result.status,
      responseExcerpt: result.excerpt,
      error: result.error,
    })
    .onConflictDoNothing();
  await tx.update(webhooks).set({ lastDeliveryAt: startedAt }).where(eq(webhooks.id, webhookId));
}

async function finishDelivery(ctx: ServiceContext, deliveryId: string, status: 'failed' | 'cancelled', error: string) {
  const now = new Date();
  await ctx.db
    .update(webhookDeliveries)
    .set({ status, lastError: error, nextAttemptAt: null, completedAt: now, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending')));
}

/**
 * Makes attempt `number` of a delivery and records it. An attempt already recorded (the step ran
 * but its result was lost in a crash) is not sent again: its recorded result is used.
 */
export async function attemptDelivery(ctx: ServiceContext, deliveryId: string, number: number): Promise<AttemptOutcome> {
  const [row] = await ctx.db
    .select({ delivery: webhookDeliveries, webhook: webhooks })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row || row.delivery.status !== 'pending') return { outcome: 'skipped' };
  const { delivery, webhook } = row;
  if (!webhook.enabled) {
    await finishDelivery(ctx, deliveryId, 'cancelled', 'The webhook was disabled');
    return { outcome: 'cancelled' };
  }
  const [recorded] = await ctx.db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.deliveryId, deliveryId), eq(webhookAttempts.number, number)));
  let ok: boolean;
  let status: number | null;
  let error: string | null;
  if (recorded) {
    status = recorded.responseStatus;
    error = recorded.error;
    ok = status !== null && status >= 200 && status < 300;
  } else {
    const startedAt = new Date();
    const result = await sendDelivery(webhook, delivery, startedAt);
    ({ ok, status, error } = result);
    await ctx.db.transaction((tx) => recordAttempt(tx, webhook.id, deliveryId, number, startedAt, result));
  }
  const now = new Date();
  const last = number >= MAX_ATTEMPTS;
  await ctx.db
    .update(webhookDeliveries)
    .set({
      attemptCount: number,
      lastAttemptAt: now,
      lastResponseStatus: status,
      lastError: ok ? null : error,
      status: ok ? 'succeeded' : last ? 'failed' : 'pending',
      nextAttemptAt: ok || last ? null : new Date(now.getTime() + RETRY_DELAYS_MS[number - 1]),
      completedAt: ok || last ? now : null,
      updatedAt: now,
    })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending')));
  return { outcome: ok ? 'succeeded' : last ? 'failed' : 'retry', status };
}
