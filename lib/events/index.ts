import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx, type Db } from '@/lib/db/client';
import { paginate, type Page } from '@/lib/db/paginate';
import { events, type EventRow } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { fanOutEvent, subscribedWebhookIds } from '@/lib/webhooks/fanout';
import { startEventWorkflows } from '@/lib/workflows/triggers';

export const EVENT_TYPES = [
  'file.uploaded',
  'file.deleted',
  'extraction.started',
  'extraction.completed',
  'extraction.failed',
  'document.indexing',
  'document.indexed',
  'document.index_failed',
  'document.deleted',
  'knowledge_base.created',
  'knowledge_base.deleted',
  'source.sync.completed',
  'source.sync.failed',
  'user.created',
  'user.updated',
  'user.password_reset',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface EventView {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export function toEventView(row: EventRow): EventView {
  return { id: row.id, type: row.type, created_at: row.createdAt.toISOString(), data: row.data };
}

/**
 * Appends an event to the log and queues its webhook deliveries and the workflows it starts. Call
 * it inside the transaction that makes the change, so the event (and what it causes) exist
 * exactly when the change does.
 */
export async function recordEvent(
  tx: DbOrTx,
  type: EventType,
  data: Record<string, unknown>,
  requestId?: string | null,
): Promise<EventView> {
  // The event and the webhooks it goes to in one statement (it is recorded for most changes).
  const [row] = await queryRows<{ id: string; type: string; data: Record<string, unknown>; created_at: Date | string; webhook_ids: string[] }>(
    tx,
    sql`with inserted as (
        insert into ${events} (id, type, data, request_id)
        values (${newId('event')}, ${type}, ${JSON.stringify(data)}::jsonb, ${requestId ?? null})
        returning id, type, data, created_at
      )
      select inserted.*, ${subscribedWebhookIds(type)} as webhook_ids from inserted`,
  );
  // The data as stored (jsonb orders keys), like the event list shows it.
  const view: EventView = { id: row.id, type: row.type, created_at: new Date(row.created_at).toISOString(), data: row.data };
  await fanOutEvent(tx, view, row.webhook_ids);
  await startEventWorkflows(tx, type, data);
  return view;
}

export async function listEvents(
  db: Db,
  opts: { limit: number; offset: number; type?: string },
): Promise<Page<EventView>> {
  const filters: SQL[] = [];
  if (opts.type) filters.push(eq(events.type, opts.type));
  return paginate(
    db,
    {
      from: events,
      where: filters.length ? and(...filters) : undefined,
      orderBy: [desc(events.createdAt), desc(events.id)],
      limit: opts.limit,
      offset: opts.offset,
    },
    toEventView,
  );
}
