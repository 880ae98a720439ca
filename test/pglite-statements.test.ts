import { PGlite, type Transaction } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { drizzleClient } from '@/lib/db/pglite-client';
import { MAX_PREPARED, MAX_PREPARED_TEXT, PgliteStatements } from '@/lib/db/pglite-statements';

/** Statements kept prepared by PostgreSQL's session, read past the client under test. */
async function preparedNames(pg: PGlite): Promise<string[]> {
  const result = await pg.query<{ name: string }>('select name from pg_prepared_statements order by name');
  return result.rows.map((r) => r.name);
}

describe('statements run from prepared statements on PGlite', () => {
  let pg: PGlite;
  let client: PGlite;

  beforeAll(async () => {
    pg = await PGlite.create({ extensions: { vector } });
    await pg.exec(`
      create extension vector;
      create table items (
        id text primary key, n int8, price numeric, meta jsonb, tags text[], at timestamptz,
        raw bytea, flag boolean, v vector(3)
      );
    `);
    client = drizzleClient(pg);
  });
  afterAll(() => pg.close());

  it('parses a statement once and runs it again with one call into the database', async () => {
    const exec = vi.spyOn(pg, 'execProtocolStream');
    const text = 'select $1::int + 1 as next';
    const first = await client.query<{ next: number }>(text, [1]);
    expect(first.rows).toEqual([{ next: 2 }]);
    expect(exec).toHaveBeenCalledTimes(2);
    for (let i = 2; i <= 4; i++) expect((await client.query<{ next: number }>(text, [i])).rows[0].next).toBe(i + 1);
    expect(exec).toHaveBeenCalledTimes(5);
    exec.mockRestore();
    expect((await preparedNames(pg)).filter((n) => n.startsWith('quarry_')).length).toBeGreaterThan(0);
  });

  it('returns what PGlite returns itself, in both row modes, for every kind of value', async () => {
    const at = new Date('2026-05-06T07:08:09.123Z');
    const insert = 'insert into items (id, n, price, meta, tags, at, raw, flag, v) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id, n';
    const values = ['a', 9007199254740993n, '12.50', JSON.stringify({ k: [1, 'x'] }), ['x', 'y,z', 'q"r'], at, new Uint8Array([0, 1, 255]), true, '[1,2,3]'];
    const viaClient = await client.query(insert, values);
    const viaPglite = await pg.query(insert, ['b', ...values.slice(1)]);
    expect(viaClient.affectedRows).toBe(1);
    expect(viaClient.fields).toEqual(viaPglite.fields);
    await client.query('insert into items (id, n, meta) values ($1, $2, $3)', ['c', null, undefined]);
    const select = 'select id, n, price, meta, tags, at, raw, flag, v from items where id = any($1) order by id';
    for (const rowMode of ['object', 'array'] as const) {
      const ours = await client.query(select, [['a', 'b', 'c']], { rowMode });
      const theirs = await pg.query(select, [['a', 'b', 'c']], { rowMode });
      expect(ours.rows.length).toBe(3);
      expect(ours).toEqual(theirs);
    }
    const [row] = (await client.query<Record<string, unknown>>(select, [['a']])).rows;
    expect(row.meta).toEqual({ k: [1, 'x'] });
    expect(row.tags).toEqual(['x', 'y,z', 'q"r']);
    // The client reads timestamps as text, as drizzle asks (pglite-client.ts).
    expect(new Date(row.at as string).toISOString()).toBe(at.toISOString());
    expect(Array.from(row.raw as Uint8Array)).toEqual([0, 1, 255]);
    const update = await client.query('update items set flag = $1 where id <> $2', [false, 'zz']);
    expect(update.affectedRows).toBe(3);
  });

  it('reports database errors as PGlite does, with the statement attached, and keeps working', async () => {
    const insert = 'insert into items (id) values ($1)';
    await client.query(insert, ['dup']);
    const err = await client.query(insert, ['dup']).catch((e: unknown) => e as { code?: string; query?: string; params?: unknown[] });
    expect(err).toMatchObject({ code: '23505', query: insert, params: ['dup'] });
    await expect(client.query('selec 1')).rejects.toMatchObject({ code: '42601' });
    await expect(client.query('select $1::int', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    expect((await client.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('waits for an open transaction instead of running inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query('insert into items (id) values ($1)', ['in-tx']);
      inserted();
      await held;
    });
    await didInsert;
    let seen: number | undefined;
    const outside = client
      .query<{ count: number }>('select count(*)::int as count from items where id = $1', ['in-tx'])
      .then((r) => (seen = r.rows[0].count));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toBeUndefined();
    release();
    await transaction;
    await outside;
    expect(seen).toBe(1);
  });

  it('rolls a transaction back and refuses a closed one', async () => {
    let kept: Transaction | undefined;
    await expect(
      client.transaction(async (tx) => {
        kept = tx;
        await tx.query('insert into items (id) values ($1)', ['rolled-back']);
        await tx.query('insert into items (id) values ($1)', ['dup']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await client.query('select id from items where id = $1', ['rolled-back'])).rows).toEqual([]);
    await expect(kept!.query('select 1')).rejects.toThrow('Transaction is closed');
  });

  it('prepares a statement again when its table changes shape or its statement is gone', async () => {
    await pg.exec('create table shapes (id int primary key, a text)');
    const text = 'select * from shapes where id = $1';
    await client.query(text, [1]);
    await pg.exec("insert into shapes values (1, 'x'); alter table shapes add column b text default 'y'");
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, a: 'x', b: 'y' }]);
    await pg.exec('deallocate all');
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, a: 'x', b: 'y' }]);
    await pg.exec('alter table shapes add column c int');
    await expect(client.transaction((tx) => tx.query(text, [1]))).rejects.toMatchObject({ code: '0A000' });
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, a: 'x', b: 'y', c: null }]);
  });

  it('keeps at most its limit of statements prepared, closing the least recently used', async () => {
    const keep = 'select $1::text as kept';
    await client.query(keep, ['k']);
    for (let i = 0; i < MAX_PREPARED + 20; i++) {
      await client.query(`select $1::int + ${i} as n`, [i]);
      if (i % 50 === 0) await client.query(keep, ['k']);
    }
    const names = (await preparedNames(pg)).filter((n) => n.startsWith('quarry_'));
    expect(names.length).toBeLessThanOrEqual(MAX_PREPARED);
    expect(names.length).toBeGreaterThan(MAX_PREPARED - 5);
    const exec = vi.spyOn(pg, 'execProtocolStream');
    await client.query(keep, ['k']);
    expect(exec).toHaveBeenCalledTimes(1);
    exec.mockRestore();
  });

  it('runs very long statements unnamed, and shares one set of statements per database', async () => {
    const statements = vi.spyOn(PgliteStatements.prototype, 'run');
    const before = (await preparedNames(pg)).length;
    const long = `select $1::int as n -- ${'x'.repeat(MAX_PREPARED_TEXT)}`;
    expect((await client.query<{ n: number }>(long, [7])).rows).toEqual([{ n: 7 }]);
    expect((await preparedNames(pg)).length).toBe(before);
    const another = drizzleClient(pg);
    expect((await another.query<{ n: number }>('select $1::int + 1 as next', [41])).rows).toEqual([{ next: 42 }]);
    expect(statements).toHaveBeenCalledTimes(2);
    statements.mockRestore();
  });
});
