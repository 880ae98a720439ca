import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { drizzleClient } from '@/lib/db/pglite-client';
import { PgliteStatements } from '@/lib/db/pglite-statements';

const events = pgTable('events', {
  id: text('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  plain: timestamp('plain').notNull(),
});

describe('the PGlite client given to drizzle', () => {
  let pg: PGlite;
  let db: ReturnType<typeof drizzle>;
  const at = new Date('2026-03-04T05:06:07.891Z');

  beforeAll(async () => {
    pg = await PGlite.create();
    await pg.exec('create table events (id text primary key, at timestamptz not null, plain timestamp not null)');
    db = drizzle({ client: drizzleClient(pg) });
  });
  afterAll(() => pg.close());

  it('sends drizzle queries without per-query parsers and still reads dates as drizzle expects', async () => {
    const spy = vi.spyOn(PgliteStatements.prototype, 'run');
    await db.insert(events).values({ id: 'a', at, plain: at });
    const [row] = await db.select().from(events).where(eq(events.id, 'a'));
    expect(row.at).toBeInstanceOf(Date);
    expect(row.at.toISOString()).toBe(at.toISOString());
    expect(row.plain.toISOString()).toBe(at.toISOString());
    expect(spy).toHaveBeenCalled();
    for (const call of spy.mock.calls) expect(call[2]?.parsers).toBeUndefined();
    spy.mockRestore();
  });

  it('returns timestamp arrays and intervals as their text, as drizzle asks', async () => {
    const result = await db.execute(sql`select array[${at.toISOString()}::timestamptz] as list, interval '90 minutes' as span`);
    const row = result.rows[0] as { list: unknown; span: unknown };
    expect(typeof row.list).toBe('string');
    expect(String(row.list)).toMatch(/^\{"2026-03-04 05:06:07\.891\+00"\}$/);
    expect(row.span).toBe('01:30:00');
  });

  it('keeps parsers that ask for more than text', async () => {
    const client = drizzleClient(pg);
    const result = await client.query<{ n: unknown }>('select 41 as n', [], { parsers: { 23: (v: string) => Number(v) + 1 } });
    expect(result.rows[0].n).toBe(42);
  });

  it('goes through transactions: commits, rolls back, and leans their queries too', async () => {
    const spy = vi.spyOn(pg, 'transaction');
    await db.transaction(async (tx) => {
      await tx.insert(events).values({ id: 'b', at, plain: at });
      const [row] = await tx.select().from(events).where(eq(events.id, 'b'));
      expect(row.at.toISOString()).toBe(at.toISOString());
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(events).values({ id: 'c', at, plain: at });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const ids = (await db.select({ id: events.id }).from(events)).map((r) => r.id).sort();
    expect(ids).toEqual(['a', 'b']);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it('passes everything else to the instance', async () => {
    const client = drizzleClient(pg);
    expect(client.ready).toBe(true);
    const [result] = await client.exec('select 1 as one');
    expect(result.rows[0]).toEqual({ one: 1 });
  });
});
