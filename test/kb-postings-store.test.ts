import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseKind, queryRows, type DbOrTx } from '@/lib/db/client';
import { kbPostings, knowledgeBases } from '@/lib/db/schema';
import type { ChunkRow, ChunkSource } from '@/lib/knowledge-bases/prepare';
import { keepTails, takeTails, type Tail } from '@/lib/knowledge-bases/postings-store';
import { deleteChunks, insertChunks } from '@/lib/knowledge-bases/store';
import { StatementPipeline } from '@/lib/db/pacing';
import { BLOCK_RECORDS, postingList } from '@/lib/search/postings';
import { lexemesLiteral } from '@/lib/search/tsvector';
import { toVectorLiteral } from '@/lib/search/vectors';
import { useTestApp } from '@/test/support/app';
import { addDoc, createKb, extractedFile } from '@/test/support/knowledge-bases';

/*
 * Writing postings with the last blocks this process remembers (postings-store.ts): whatever
 * happened in between (a write the cache did not see, a transaction rolled back, a deletion in
 * the same transaction), every term's blocks must hold exactly the ordinals of the chunks that
 * contain it, in order, at most BLOCK_RECORDS per block, and the remembered tails must be the
 * real ones.
 */

const app = useTestApp();

interface Kb {
  id: string;
  generation: number;
  dimensions: number;
}

async function newKb(): Promise<Kb> {
  const id = await createKb(app);
  const [row] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, id));
  return { id, generation: row.generation, dimensions: row.embeddingDimensions };
}

/** A pending document of the knowledge base (its indexing is never run: the tests write its chunks). */
async function newDocument(kb: Kb, name: string): Promise<string> {
  const { fileId } = await extractedFile(app, `${name}.md`, `# ${name}\n\ntext`);
  const res = await addDoc(app, kb.id, { file_id: fileId });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** A new knowledge base with three pending documents a, b and c. */
async function kbWithThreeDocuments(): Promise<{ kb: Kb; a: string; b: string; c: string }> {
  const kb = await newKb();
  return { kb, a: await newDocument(kb, 'a'), b: await newDocument(kb, 'b'), c: await newDocument(kb, 'c') };
}

/** `count` chunks, each holding the term `common` and one of its own. */
function source(kb: Kb, name: string, count: number, badRow = -1): ChunkSource {
  const vector = toVectorLiteral(Array.from({ length: kb.dimensions }, (_, i) => (i === 0 ? 1 : 0)));
  const rows: ChunkRow[] = Array.from({ length: count }, (_, i) => {
    const terms = { common: 2, [`${name}${i}`]: 1 };
    return {
      content: `common common ${name}${i}`,
      metadata: '{}',
      tokenCount: 3,
      termCount: 3,
      lexemes: lexemesLiteral(Object.keys(terms)),
      terms: Object.keys(terms).join('\n'),
      termCounts: Uint32Array.from(Object.values(terms)),
      vector: i === badRow ? '[1,2' : vector,
    };
  });
  return { count, termTotal: count * 3, rows: async (start, n) => rows.slice(start, start + n) };
}

let writes = 0;

/** Writes a document's chunks, every other time with its statements pipelined (as on PostgreSQL). */
async function write(tx: DbOrTx, kb: Kb, documentId: string, name: string, count: number, pipelined = writes++ % 2 === 1) {
  await insertChunks(tx, { kbId: kb.id, documentId, generation: kb.generation, dimensions: kb.dimensions }, source(kb, name, count), { pipelined });
}

async function statsXmin(kb: Kb): Promise<string> {
  const [row] = await queryRows<{ xmin: string }>(
    app.db,
    sql`select xmin::text as xmin from kb_index_stats where kb_id = ${kb.id} and generation = ${kb.generation}`,
  );
  return row.xmin;
}

/** Every term's postings against the chunks, and the remembered tails against the last blocks. */
async function expectConsistent(kb: Kb): Promise<void> {
  const chunks = await queryRows<{ ordinal: number; term: string }>(
    app.db,
    sql`select c.ordinal, u.lexeme as term from kb_chunks c, unnest(c.terms) u where c.kb_id = ${kb.id} and c.generation = ${kb.generation}`,
  );
  const expected = new Map<string, number[]>();
  for (const c of chunks) expected.set(c.term, [...(expected.get(c.term) ?? []), Number(c.ordinal)]);
  const rows = await app.db
    .select()
    .from(kbPostings)
    .where(and(eq(kbPostings.kbId, kb.id), eq(kbPostings.generation, kb.generation)))
    .orderBy(kbPostings.term, kbPostings.block);
  const byTerm = new Map<string, { block: number; data: Uint8Array }[]>();
  for (const r of rows) byTerm.set(r.term, [...(byTerm.get(r.term) ?? []), { block: r.block, data: new Uint8Array(r.data) }]);
  expect([...byTerm.keys()].sort()).toEqual([...expected.keys()].sort());
  const last = new Map<string, Tail>();
  for (const [term, blocks] of byTerm) {
    for (const b of blocks) expect(b.data.byteLength / 6, `${term} block ${b.block}`).toBeLessThanOrEqual(BLOCK_RECORDS);
    expect([...postingList(blocks).ordinals], term).toEqual(expected.get(term)!.sort((a, b) => a - b));
    const end = blocks[blocks.length - 1];
    last.set(term, { block: end.block, count: end.data.byteLength / 6 });
  }
  const remembered = takeTails(kb.id, kb.generation, await statsXmin(kb));
  for (const [term, tail] of remembered) expect(tail, term).toEqual(last.get(term));
  keepTails(kb.id, kb.generation, await statsXmin(kb), remembered);
}

describe('postings written with the remembered last blocks', () => {
  it('remembers every written term’s last block across documents written one after another', async () => {
    const kb = await newKb();
    for (const name of ['a', 'b', 'c']) {
      const doc = await newDocument(kb, name);
      await app.db.transaction((tx) => write(tx, kb, doc, name, 50));
    }
    const remembered = takeTails(kb.id, kb.generation, await statsXmin(kb));
    // 150 records of `common`: blocks at 0 and 64 full, the last at 128 holding 22.
    expect(remembered.get('common')).toEqual({ block: 128, count: 22 });
    expect(remembered.size).toBe(151);
    keepTails(kb.id, kb.generation, await statsXmin(kb), remembered);
    await expectConsistent(kb);
  });

  it('does not use what it remembers after a write it did not see', async () => {
    const { kb, a, b, c } = await kbWithThreeDocuments();
    await app.db.transaction((tx) => write(tx, kb, a, 'a', 50));
    const xminAfterA = await statsXmin(kb);
    const afterA = takeTails(kb.id, kb.generation, xminAfterA);
    expect(afterA.get('common')).toEqual({ block: 0, count: 50 });
    // Another process writes b: it knows nothing of a's tails and looks them up.
    await app.db.transaction((tx) => write(tx, kb, b, 'b', 50));
    // This process still holds what it knew after a.
    keepTails(kb.id, kb.generation, xminAfterA, new Map([...afterA].map(([t, tail]) => [t, { ...tail }])));
    await app.db.transaction((tx) => write(tx, kb, c, 'c', 50));
    await expectConsistent(kb);
  });

  it('does not use what a rolled-back transaction wrote', async () => {
    const { kb, a, b, c } = await kbWithThreeDocuments();
    await app.db.transaction((tx) => write(tx, kb, a, 'a', 50));
    await expect(
      app.db.transaction(async (tx) => {
        await write(tx, kb, b, 'b', 50);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await app.db.transaction((tx) => write(tx, kb, c, 'c', 50));
    await expectConsistent(kb);
  });

  it('forgets the tails when a deletion in the same transaction changed the blocks', async () => {
    const { kb, a, b, c } = await kbWithThreeDocuments();
    await app.db.transaction((tx) => write(tx, kb, a, 'a', 50));
    await app.db.transaction(async (tx) => {
      await write(tx, kb, b, 'b', 50);
      await deleteChunks(tx, { kbId: kb.id, documentId: b, generation: kb.generation });
      await write(tx, kb, c, 'c', 50);
    });
    await expectConsistent(kb);
    const remembered = takeTails(kb.id, kb.generation, await statsXmin(kb));
    // a's 50 records, b's taken out, then c's 50 from ordinal 100: block 0 holds 64 (a's and c's first 14), block 114 the rest.
    expect(remembered.get('common')).toEqual({ block: 114, count: 36 });
  });
});

describe('pipelined statements', () => {
  it('starts statements in the order sent with at most `depth` in flight (the database runs them in that order), and fails later sends and the drain with the first failure', async () => {
    const pipeline = new StatementPipeline(2);
    const started: number[] = [];
    let inFlight = 0;
    let most = 0;
    const statement = (n: number, fail = false) => async () => {
      started.push(n);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5 + (n % 3) * 5));
      inFlight--;
      if (fail) throw new Error(`statement ${n} failed`);
    };
    for (let n = 0; n < 6; n++) await pipeline.send(statement(n));
    await pipeline.drain();
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);

    await pipeline.send(statement(6, true));
    await pipeline.send(statement(7));
    await expect(pipeline.send(statement(8))).rejects.toThrow('statement 6 failed');
    await expect(pipeline.drain()).rejects.toThrow('statement 6 failed');
  });

  it('are used where the database the indexing is given is PostgreSQL', async () => {
    expect(await databaseKind(app.db)).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('fail the whole write when one pipelined statement fails, leaving nothing behind', async () => {
    const kb = await newKb();
    const [a, b] = [await newDocument(kb, 'a'), await newDocument(kb, 'b')];
    await app.db.transaction((tx) => write(tx, kb, a, 'a', 50));
    const target = { kbId: kb.id, documentId: b, generation: kb.generation, dimensions: kb.dimensions };
    await expect(
      app.db.transaction((tx) => insertChunks(tx, target, source(kb, 'b', 1200, 700), { pipelined: true })),
    ).rejects.toThrow();
    const [{ n }] = await queryRows<{ n: number }>(app.db, sql`select count(*)::int as n from kb_chunks where document_id = ${b}`);
    expect(n).toBe(0);
    await app.db.transaction((tx) => write(tx, kb, b, 'b', 50, true));
    await expectConsistent(kb);
  });
});
