import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import { ApiError, notFound } from '@/lib/errors';
import { parseIp } from '@/lib/auth/ip';
import { getConfig } from '@/lib/config';
import type { ServiceContext } from '@/lib/context';
import { encryptSecret } from '@/lib/crypto/secret-box';
import type { DbOrTx } from '@/lib/db/client';
import { paginate } from '@/lib/db/paginate';
import { webhookAttempts, webhookDeliveries, webhooks, type WebhookDeliveryRow, type WebhookRow } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { notifyWorkflows } from '@/lib/workflows/dispatch';
import { recordAttempt, sendDelivery, webhookLookup } from './delivery';
import { countRecentFailures } from './failures';
import { envelopeBody, queueDelivery } from './fanout';
import { isLocalName, isPublicAddress, normaliseHostname } from './ssrf';

export const TEST_EVENT_TYPE = 'webhook.test';

export interface CreateWebhookInput {
  url: string;
  events: string[];
  secret: string;
}

export interface UpdateWebhookInput {
  url?: string;
  events?: string[];
  enabled?: boolean;
  secret?: string;
}

/** How long a check waits for the target's name to resolve before accepting it unchecked. */
const LOOKUP_TIMEOUT_MS = 3000;

/** The addresses a name resolves to, or null when it does not resolve within the timeout. */
async function lookupWithin(host: string, ms: number): Promise<{ address: string }[] | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([webhookLookup()(host).catch(() => null), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Checks a target URL: https (http only in insecure mode), no credentials, and, unless insecure
 * mode is on, no host that is a private, loopback or link-local address or a local name, nor a
 * name that resolves to one now (delivery would refuse it). A name that does not resolve yet is
 * accepted: every attempt resolves and checks again.
 */
async function checkWebhookUrl(raw: string): Promise<string> {
  const insecure = getConfig().webhooks.allowInsecure;
  const invalid = (reason: string) => new ApiError('INVALID_REQUEST', `Invalid body: url: ${reason}`, { field: 'url', reason });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('not a valid URL');
  }
  if (url.protocol !== 'https:' && !(insecure && url.protocol === 'http:')) {
    throw invalid(insecure ? 'must be an http or https URL' : 'must be an https URL (set QUARRY_WEBHOOK_ALLOW_INSECURE=true in development for http)');
  }
  if (url.username || url.password) throw invalid('must not contain credentials; sign deliveries with the secret instead');
  if (!insecure) {
    const host = normaliseHostname(url.hostname);
    const literal = parseIp(host);
    if (literal && !isPublicAddress(host)) throw invalid(`${host} is not a public address`);
    if (!literal && isLocalName(host)) throw invalid(`${host} is not a public host name`);
    const blocked = literal ? undefined : (await lookupWithin(host, LOOKUP_TIMEOUT_MS))?.find((a) => !isPublicAddress(a.address));
    if (blocked) throw invalid(`${host} resolves to ${blocked.address}, which is not a public address`);
  }
  return url.toString();
}

export function toWebhookView(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    last_delivery_at: row.lastDeliveryAt ? row.lastDeliveryAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toWebhookListItem(row: WebhookRow) {
  return { id: row.id, url: row.url, events: row.events, enabled: row.enabled, created_at: row.createdAt.toISOString() };
}

async function findWebhook(db: DbOrTx, id: string): Promise<WebhookRow> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id)).limit(1);
  if (!row) throw notFound('WEBHOOK_NOT_FOUND', 'Webhook', id);
  return row;
}

/** Event types with duplicates removed, "*" alone when present. */
function normaliseEvents(events: string[]): string[] {
  const unique = [...new Set(events)];
  return unique.includes('*') ? ['*'] : unique;
}

export async function createWebhook(ctx: ServiceContext, input: CreateWebhookInput) {
  const url = await checkWebhookUrl(input.url);
  const now = new Date();
  const [row] = await ctx.db
    .insert(webhooks)
    .values({
      id: newId('webhook'),
      url,
      events: normaliseEvents(input.events),
      secretCiphertext: encryptSecret(input.secret),
      enabled: true,
      createdByKey: ctx.principal?.keyId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const { last_delivery_at: _l, updated_at: _u, ...created } = toWebhookView(row);
  // A new webhook is always enabled.
  return { ...created, enabled: true as const };
}

/** A page of webhooks, each with how many of its latest deliveries failed in a row. */
export async function listWebhooks(ctx: ServiceContext, input: { limit: number; offset: number; order: 'asc' | 'desc' }) {
  const dir = input.order === 'asc' ? asc : desc;
  const page = await paginate(
    ctx.db,
    { from: webhooks, orderBy: [dir(webhooks.createdAt), dir(webhooks.id)], limit: input.limit, offset: input.offset },
    toWebhookListItem,
  );
  const failures = await countRecentFailures(ctx.db, page.items.map((item) => item.id));
  return { ...page, items: page.items.map((item) => ({ ...item, recent_failures: failures.get(item.id) ?? 0 })) };
}

export async function getWebhook(ctx: ServiceContext, id: string) {
  return toWebhookView(await findWebhook(ctx.db, id));
}

/** Updates events and enabled (the contract's fields), and url and secret (rotation). */
export async function updateWebhook(ctx: ServiceContext, id: string, input: UpdateWebhookInput) {
  await findWebhook(ctx.db, id);
  const patch: Partial<WebhookRow> = { updatedAt: new Date() };
  if (input.url !== undefined) patch.url = await checkWebhookUrl(input.url);
  if (input.events !== undefined) patch.events = normaliseEvents(input.events);
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  if (input.secret !== undefined) patch.secretCiphertext = encryptSecret(input.secret);
  const [row] = await ctx.db.update(webhooks).set(patch).where(eq(webhooks.id, id)).returning();
  if (!row) throw notFound('WEBHOOK_NOT_FOUND', 'Webhook', id);
  if (input.enabled === false) {
    // Pending retries end now rather than at their next attempt.
    const now = new Date();
    await ctx.db
      .update(webhookDeliveries)
      .set({ status: 'cancelled', lastError: 'The webhook was disabled', nextAttemptAt: null, completedAt: now, updatedAt: now })
      .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.status, 'pending')));
  }
  return toWebhookView(row);
}

/** Deletes a webhook with its delivery history; runs still waiting find nothing to send. */
export async function deleteWebhook(ctx: ServiceContext, id: string): Promise<void> {
  const [row] = await ctx.db.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id });
  if (!row) throw notFound('WEBHOOK_NOT_FOUND', 'Webhook', id);
}

function toDeliveryListItem(row: WebhookDeliveryRow) {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    attempt_count: row.attemptCount,
    last_response_status: row.lastResponseStatus,
    last_error: row.lastError,
    next_attempt_at: row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
    redelivery_of: row.redeliveryOf,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt ? row.completedAt.toISOString() : null,
  };
}

export async function listDeliveries(
  ctx: ServiceContext,
  webhookId: string,
  input: { limit: number; offset: number; status?: WebhookDeliveryRow['status']; event_type?: string },
) {
  await findWebhook(ctx.db, webhookId);
  const filters: SQL[] = [eq(webhookDeliveries.webhookId, webhookId)];
  if (input.status) filters.push(eq(webhookDeliveries.status, input.status));
  if (input.event_type) filters.push(eq(webhookDeliveries.eventType, input.event_type));
  return paginate(
    ctx.db,
    {
      from: webhookDeliveries,
      where: and(...filters),
      orderBy: [desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)],
      limit: input.limit,
      offset: input.offset,
    },
    toDeliveryListItem,
  );
}

async function findDelivery(db: DbOrTx, webhookId: string, deliveryId: string): Promise<WebhookDeliveryRow> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)))
    .limit(1);
  if (!row) throw notFound('DELIVERY_NOT_FOUND', 'Delivery', deliveryId);
  return row;
}

async function deliveryView(db: DbOrTx, row: WebhookDeliveryRow) {
  const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id)).orderBy(asc(webhookAttempts.number));
  return {
    ...toDeliveryListItem(row),
    payload: JSON.parse(row.payload) as unknown,
    attempts: attempts.map((a) => ({
      number: a.number,
      attempted_at: a.startedAt.toISOString(),
      duration_ms: a.durationMs,
      response_status: a.responseStatus,
      response_excerpt: a.responseExcerpt,
      error: a.error,
    })),
  };
}

export async function getDelivery(ctx: ServiceContext, webhookId: string, deliveryId: string) {
  await findWebhook(ctx.db, webhookId);
  return deliveryView(ctx.db, await findDelivery(ctx.db, webhookId, deliveryId));
}

/** Sends a delivery's payload again as a new delivery (new id, same event and bytes, full schedule). */
export async function redeliver(ctx: ServiceContext, webhookId: string, deliveryId: string) {
  const webhook = await findWebhook(ctx.db, webhookId);
  const original = await findDelivery(ctx.db, webhookId, deliveryId);
  if (!webhook.enabled) throw new ApiError('WEBHOOK_DISABLED', `Webhook ${webhookId} is disabled; enable it to redeliver`, { webhook_id: webhookId });
  const row = await ctx.db.transaction((tx) =>
    queueDelivery(tx, { webhookId, eventId: original.eventId, eventType: original.eventType, payload: original.payload, redeliveryOf: original.id }),
  );
  notifyWorkflows();
  return deliveryView(ctx.db, row);
}

/**
 * Sends a signed `webhook.test` event now, once, and answers with the recorded delivery and its
 * attempt (no retries), whether the receiver accepted it or not.
 */
export async function sendTestEvent(ctx: ServiceContext, webhookId: string) {
  const webhook = await findWebhook(ctx.db, webhookId);
  const now = new Date();
  const eventId = newId('event');
  const body = envelopeBody({
    id: eventId,
    type: TEST_EVENT_TYPE,
    created_at: now.toISOString(),
    data: { webhook_id: webhookId, message: 'A test event sent from Quarry' },
  });
  const deliveryId = newId('delivery');
  const result = await sendDelivery(webhook, { id: deliveryId, eventId, eventType: TEST_EVENT_TYPE, payload: body }, now);
  const done = new Date();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(webhookDeliveries)
      .values({
        id: deliveryId,
        webhookId,
        eventId,
        eventType: TEST_EVENT_TYPE,
        payload: body,
        status: result.ok ? 'succeeded' : 'failed',
        attemptCount: 1,
        lastAttemptAt: now,
        lastResponseStatus: result.status,
        lastError: result.error,
        createdAt: now,
        updatedAt: done,
        completedAt: done,
      })
      .returning();
    await recordAttempt(tx, webhookId, deliveryId, 1, now, result);
    return created;
  });
  return deliveryView(ctx.db, row);
}
