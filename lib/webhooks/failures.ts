import { and, gt, inArray, lte, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { webhookDeliveries } from '@/lib/db/schema';

/** How many of a webhook's latest deliveries are looked at; the count never goes higher. */
export const RECENT_DELIVERIES = 10;

/**
 * For each webhook, how many of its latest attempted deliveries failed in a row, newest first,
 * counting up to RECENT_DELIVERIES: 0 when the latest one succeeded or nothing was attempted yet.
 * A delivery still waiting for a retry counts as failed (its last attempt failed); deliveries not
 * attempted yet and cancelled ones are left out, as they say nothing about the receiver.
 */
export async function countRecentFailures(db: DbOrTx, webhookIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(webhookIds.map((id) => [id, 0]));
  if (webhookIds.length === 0) return counts;
  const ranked = db
    .select({
      webhookId: webhookDeliveries.webhookId,
      status: webhookDeliveries.status,
      rank: sql<number>`(row_number() over (partition by ${webhookDeliveries.webhookId} order by ${webhookDeliveries.createdAt} desc, ${webhookDeliveries.id} desc))::int`.as(
        'rank',
      ),
    })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.webhookId, webhookIds), gt(webhookDeliveries.attemptCount, 0), ne(webhookDeliveries.status, 'cancelled')))
    .as('ranked');
  const rows = await db.select().from(ranked).where(lte(ranked.rank, RECENT_DELIVERIES));
  rows.sort((a, b) => Number(a.rank) - Number(b.rank));
  const settled = new Set<string>();
  for (const row of rows) {
    if (settled.has(row.webhookId)) continue;
    if (row.status === 'succeeded') settled.add(row.webhookId);
    else counts.set(row.webhookId, (counts.get(row.webhookId) ?? 0) + 1);
  }
  return counts;
}
