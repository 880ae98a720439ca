import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx, Db } from '@/lib/db/client';
import { paginate, type Page } from '@/lib/db/paginate';
import { events, type EventRow } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { fanOutEvent } from '@/lib/webhooks/fanout';
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
  const [row] = await tx
    .insert(events)
    .values({ id: newId('event'), type, data, requestId: requestId ?? null })
    .returning();
  const view = toEventView(row);
  await fanOutEvent(tx, view);
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
