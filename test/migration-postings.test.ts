import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase, queryRows, type DatabaseHandle } from '@/lib/db/client';
import { keywordCandidates, prepareKeywordQuery } from '@/lib/search/keyword';
import { BLOCK_SPAN, ordinalAt, postingList } from '@/lib/search/postings';
import { termVector } from '@/lib/search/analyze';
import { lexemesLiteral } from '@/lib/search/tsvector';

/*
 * An installation indexed before keyword postings existed: chunks kept their term frequencies as
 * jsonb. Migrating numbers the chunks and builds their postings from those frequencies, so
 * keyword search works at once, without a re-index.
 */

const dirs: string[] = [];
let handle: DatabaseHandle | null = null;
afterAll(async () => {
  await handle?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The migrations up to and including `tag`, in a folder of their own. */
function migrationsUpTo(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-migrations-'));
  dirs.push(dir);
  const source = migrationsFolder();
  fs.cpSync(source, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const end = journal.entries.findIndex((e) => e.tag === tag);
  expect(end).toBeGreaterThanOrEqual(0);
  journal.entries = journal.entries.slice(0, end + 1);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const TEXTS = [
  ['doc_a', ['Lighthouse keepers record the tide tables every night.', 'The tide rises twice a day; keepers note each tide.']],
  ['doc_b', ['Invoices are approved by the finance team.', 'Refunds need a second approval from finance.', 'Tide tables are not invoices.']],
] as const;

describe('upgrading an index without postings', () => {
  it('numbers the chunks and builds postings equal to their stored term frequencies', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-upgrade-'));
    dirs.push(dataDir);
    handle = await openDatabase({ dataDir, skipMigrations: true });
    const db = handle.db;
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(db as never, { migrationsFolder: migrationsUpTo('0010_document_title_from_extraction') });
    await db.execute(sql`insert into knowledge_bases (id, name, chunking_strategy, embedding_provider, embedding_model, embedding_dimensions)
                         values ('kb_old', 'old', '{"type":"paragraph","chunk_size":512,"overlap":0}', 'builtin', 'm', 3)`);
    const expected: string[] = [];
    let termTotal = 0;
    let chunkTotal = 0;
    const df = new Map<string, number>();
    for (const [doc, texts] of TEXTS) {
      await db.execute(sql`insert into files (id, filename, content_type, extension, size, sha256, storage_key)
                           values (${`file_${doc}`}, 'a.md', 'text/markdown', '.md', 1, 'x', 'k')`);
      await db.execute(sql`insert into extractions (id, file_id, status, mode) values (${`ext_${doc}`}, ${`file_${doc}`}, 'completed', 'normal')`);
      await db.execute(sql`insert into kb_documents (id, kb_id, file_id, extraction_id, title, status)
                           values (${doc}, 'kb_old', ${`file_${doc}`}, ${`ext_${doc}`}, 't', 'indexed')`);
      for (const [i, text] of texts.entries()) {
        const v = termVector(text);
        termTotal += v.length;
        chunkTotal++;
        for (const t of v.frequencies.keys()) df.set(t, (df.get(t) ?? 0) + 1);
        for (const [t, f] of v.frequencies) expected.push(`${t} ${doc} ${i} ${f} ${v.length}`);
        await db.execute(sql`insert into kb_chunks (id, kb_id, document_id, generation, chunk_index, content, metadata, token_count, term_count, terms, term_freqs, dimensions, embedding)
                             values (${`chunk_${doc}_${i}`}, 'kb_old', ${doc}, 1, ${i}, ${text}, '{}', 10, ${v.length}, ${lexemesLiteral(v.frequencies.keys())}::tsvector,
                                     ${JSON.stringify(Object.fromEntries(v.frequencies))}::jsonb, 3, '[1,0,0]')`);
      }
    }
    await db.execute(sql`insert into kb_index_stats (kb_id, generation, chunk_total, term_total) values ('kb_old', 1, ${chunkTotal}, ${termTotal})`);
    for (const [t, n] of df) await db.execute(sql`insert into kb_term_stats (kb_id, generation, term, df) values ('kb_old', 1, ${t}, ${n})`);
    await handle.close();

    // Started again by this version: the remaining migrations run.
    handle = await openDatabase({ dataDir });
    const chunks = await queryRows<{ id: string; document_id: string; chunk_index: number; ordinal: number }>(
      handle.db,
      sql`select id, document_id, chunk_index, ordinal from kb_chunks order by ordinal`,
    );
    expect(chunks.map((c) => c.ordinal)).toEqual([0, 1, 2, 3, 4]);
    const byOrdinal = new Map(chunks.map((c) => [c.ordinal, c]));
    const rows = await queryRows<{ term: string; block: number; data: Uint8Array }>(handle.db, sql`select term, block, data from kb_postings where kb_id = 'kb_old'`);
    const actual: string[] = [];
    for (const r of rows) {
      const list = postingList([r]);
      for (let i = 0; i < list.count; i++) {
        const ordinal = ordinalAt(list, i);
        expect(ordinal - r.block).toBeGreaterThanOrEqual(0);
        expect(ordinal - r.block).toBeLessThanOrEqual(BLOCK_SPAN);
        const c = byOrdinal.get(ordinal)!;
        actual.push(`${r.term} ${c.document_id} ${c.chunk_index} ${list.tfs[i]} ${list.lengths[i]}`);
      }
    }
    expect(actual.sort()).toEqual(expected.sort());
    const [stats] = await queryRows<{ next_ordinal: string | number }>(handle.db, sql`select next_ordinal from kb_index_stats where kb_id = 'kb_old'`);
    expect(Number(stats.next_ordinal)).toBe(5);
    const columns = await queryRows<{ column_name: string }>(handle.db, sql`select column_name from information_schema.columns where table_name = 'kb_chunks'`);
    expect(columns.map((c) => c.column_name)).not.toContain('term_freqs');

    const scope = { kbId: 'kb_old', generation: 1, dimensions: 3, conditions: [] };
    const q = (await prepareKeywordQuery(handle.db, scope, 'tide tables'))!;
    const hits = await keywordCandidates(handle.db, scope, q, 5);
    expect(hits.map((h) => h.id).sort()).toEqual(['chunk_doc_a_0', 'chunk_doc_a_1', 'chunk_doc_b_2']);
  });
});
