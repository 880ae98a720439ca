import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import * as searchRoute from '@/app/v1/knowledge-bases/[kb_id]/search/route';
import { resetConfig } from '@/lib/config';
import { migrationsFolder, openDatabase, queryRows, type DatabaseHandle, type DbOrTx } from '@/lib/db/client';
import { kbChunks, knowledgeBases, workflowRuns } from '@/lib/db/schema';
import { embedderFor } from '@/lib/knowledge-bases/embedder';
import { indexingWorkflow } from '@/lib/knowledge-bases/indexing-workflow';
import { requestVectorIndexing, sweepVectorBacklog, vectorIndexWorkflow } from '@/lib/knowledge-bases/vector-index-workflow';
import { vectorCandidates } from '@/lib/search/query';
import { indexVectorBacklog, markVectorsIndexed, pendingVectorCount } from '@/lib/search/vector-backlog';
import { toVectorLiteral, vectorIndexName } from '@/lib/search/vectors';
import { EmbeddedRunner } from '@/lib/workflows/embedded';
import { useTestApp } from '@/test/support/app';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';

const app = useTestApp();

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const TOPICS = ['lighthouse keepers and tide tables', 'invoices approved by the finance team', 'tomatoes that need full sun', 'servers reading their configuration'];
const markdown = (i: number) =>
  Array.from({ length: 6 }, (_, j) => `## Part ${j + 1}\n\nDocument ${i} part ${j + 1} is about ${TOPICS[(i + j) % TOPICS.length]}, told in a few sentences of its own.`).join('\n\n');

/**
 * A knowledge base of `documents` documents, indexed by the indexing runs only: the chunks are
 * written, the backlog run stays queued.
 */
async function indexedWithoutVectors(name: string, documents: number): Promise<string> {
  const kbId = await createKb(app, { name, chunking_strategy: { type: 'paragraph', chunk_size: 64 } });
  for (let i = 0; i < documents; i++) {
    const { fileId } = await extractedFile(app, `${name}-${i}.md`, markdown(i));
    await addDoc(app, kbId, { file_id: fileId });
  }
  await new EmbeddedRunner({ db: app.db, workflows: [indexingWorkflow], pollMs: 50 }).drain();
  return kbId;
}

async function marks(kbId: string): Promise<{ marked: number; unmarked: number }> {
  const rows = await app.db.select({ marked: kbChunks.vectorIndexed }).from(kbChunks).where(eq(kbChunks.kbId, kbId));
  return { marked: rows.filter((r) => r.marked).length, unmarked: rows.filter((r) => !r.marked).length };
}

async function queuedBacklogRuns(): Promise<number> {
  const rows = await app.db
    .select({ id: workflowRuns.id })
    .from(workflowRuns)
    .where(and(eq(workflowRuns.workflow, vectorIndexWorkflow.name), eq(workflowRuns.status, 'queued')));
  return rows.length;
}

describe('chunks enter the vector index in the background', () => {
  it('writes chunks outside the index, finds them exactly meanwhile, and indexes them in one background run', async () => {
    const kbId = await indexedWithoutVectors('backlog', 3);
    const before = await marks(kbId);
    expect(before.marked).toBe(0);
    expect(before.unmarked).toBeGreaterThanOrEqual(18);
    // Three documents written, one run queued for all of them.
    expect(await queuedBacklogRuns()).toBe(1);

    const [kb] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const scope = { kbId, generation: kb.generation, dimensions: kb.embeddingDimensions, conditions: [] };
    const vector = toVectorLiteral((await embedderFor(kb).embed(['finance team invoices']))[0]);
    const exact = await vectorCandidates(app.db, scope, vector, 10, { exact: true });
    expect(exact).toHaveLength(10);
    // The index path finds the unindexed chunks by comparing them exactly: the same hits.
    expect(await vectorCandidates(app.db, scope, vector, 10, { exact: false })).toEqual(exact);
    // And so does the API with the index path forced.
    process.env.QUARRY_SEARCH_EXACT_MAX_CHUNKS = '0';
    resetConfig();
    try {
      const res = await app.call(searchRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/search`, params: { kb_id: kbId }, body: { query: 'finance team invoices', top_k: 5 } });
      expect(res.status).toBe(200);
      expect(res.body.chunks.map((c: { id: string }) => c.id)).toEqual(exact.slice(0, 5).map((h) => h.id));
    } finally {
      delete process.env.QUARRY_SEARCH_EXACT_MAX_CHUNKS;
      resetConfig();
    }

    await drainWorkflows(app);
    expect(await marks(kbId)).toEqual({ marked: before.unmarked, unmarked: 0 });
    expect(await pendingVectorCount(app.db)).toBe(0);
    const [run] = await app.db.select().from(workflowRuns).where(eq(workflowRuns.workflow, vectorIndexWorkflow.name));
    expect(run.status).toBe('completed');
    // Now through the HNSW index: still the same hits (few rows, so the graph holds them all).
    expect(await vectorCandidates(app.db, scope, vector, 10, { exact: false })).toEqual(exact);
  });

  it('reads indexed chunks through the HNSW index and the others through their own partial index', async () => {
    const kbId = await createKb(app, { name: 'plans' });
    const { fileId } = await extractedFile(app, 'plans.md', markdown(7));
    await addDoc(app, kbId, { file_id: fileId });
    await drainWorkflows(app);
    const [kb] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const plan = async (tx: DbOrTx, indexed: boolean) => {
      const rows = await queryRows<Record<string, string>>(
        tx,
        sql.raw(`explain select c.id from kb_chunks c where c.kb_id = '${kbId}' and c.generation = ${kb.generation} and c.dimensions = ${kb.embeddingDimensions}
                 and ${indexed ? '' : 'not '}c.vector_indexed order by (c.embedding::vector(${kb.embeddingDimensions})) <=> (select embedding::vector(${kb.embeddingDimensions}) from kb_chunks limit 1) limit 5`),
      );
      return rows.map((r) => Object.values(r)[0]).join('\n');
    };
    await app.db.transaction(async (tx) => {
      // Sequential scans priced out, as on a large table.
      await tx.execute(sql`set local enable_seqscan = off`);
      const indexedPlan = await plan(tx, true);
      expect(indexedPlan).toContain(vectorIndexName(kb.embeddingDimensions));
      const pendingPlan = await plan(tx, false);
      expect(pendingPlan).toContain('kb_chunks_vector_pending_idx');
      expect(pendingPlan).not.toContain(vectorIndexName(kb.embeddingDimensions));
    });
  });

  it('queues one run while one is queued, and another once that one has started', async () => {
    await drainWorkflows(app);
    expect(await queuedBacklogRuns()).toBe(0);
    await app.db.transaction(async (tx) => {
      await requestVectorIndexing(tx);
      await requestVectorIndexing(tx);
    });
    expect(await queuedBacklogRuns()).toBe(1);
    // Started: it may have looked for unmarked chunks before new ones were written.
    await app.db.update(workflowRuns).set({ status: 'running' }).where(and(eq(workflowRuns.workflow, vectorIndexWorkflow.name), eq(workflowRuns.status, 'queued')));
    await app.db.transaction((tx) => requestVectorIndexing(tx));
    expect(await queuedBacklogRuns()).toBe(1);
    await app.db.update(workflowRuns).set({ status: 'completed' }).where(eq(workflowRuns.workflow, vectorIndexWorkflow.name));
  });

  it('queues a run from the sweep when chunks wait and no run is queued or under way', async () => {
    const kbId = await indexedWithoutVectors('sweep', 1);
    // The indexing queued one.
    expect(await sweepVectorBacklog(app.db)).toBe(false);
    // That run started and ended before the chunks were visible to it: none is left for them.
    await app.db.update(workflowRuns).set({ status: 'completed' }).where(eq(workflowRuns.workflow, vectorIndexWorkflow.name));
    expect(await pendingVectorCount(app.db, 1)).toBe(1);
    expect(await sweepVectorBacklog(app.db)).toBe(true);
    expect(await queuedBacklogRuns()).toBe(1);
    expect(await sweepVectorBacklog(app.db)).toBe(false);
    await drainWorkflows(app);
    expect((await marks(kbId)).unmarked).toBe(0);
    expect(await sweepVectorBacklog(app.db)).toBe(false);
    expect(await queuedBacklogRuns()).toBe(0);
  });

  it('marks in statements within a time budget, leaving the rest for the next step', async () => {
    const kbId = await indexedWithoutVectors('budget', 2);
    const { unmarked } = await marks(kbId);
    expect(unmarked).toBeGreaterThan(8);
    expect(await markVectorsIndexed(app.db, 3)).toBe(3);
    // A budget of zero: one statement (eight rows to start with), then it stops with rows left.
    const first = await indexVectorBacklog(app.db, 0);
    expect(first).toEqual({ indexed: 8, more: true });
    const rest = await indexVectorBacklog(app.db, 60_000);
    expect(rest).toEqual({ indexed: unmarked - 11, more: false });
    expect(await marks(kbId)).toEqual({ marked: unmarked, unmarked: 0 });
    await drainWorkflows(app);
  });
});

describe('upgrading', () => {
  it('builds existing HNSW indexes again over marked rows and marks every existing chunk', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-migrations-'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-upgrade-'));
    dirs.push(dir, dataDir);
    fs.cpSync(migrationsFolder(), dir, { recursive: true });
    const journalPath = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
    journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === '0016_api_key_knowledge_bases') + 1);
    fs.writeFileSync(journalPath, JSON.stringify(journal));

    let handle: DatabaseHandle = await openDatabase({ dataDir, skipMigrations: true });
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, { migrationsFolder: dir });
    await handle.db.execute(sql`insert into knowledge_bases (id, name, chunking_strategy, embedding_provider, embedding_model, embedding_dimensions)
                                values ('kb_old', 'old', '{"type":"paragraph","chunk_size":512,"overlap":0}', 'builtin', 'm', 3)`);
    await handle.db.execute(sql`insert into files (id, filename, content_type, extension, size, sha256, storage_key) values ('file_a', 'a.md', 'text/markdown', '.md', 1, 'x', 'k')`);
    await handle.db.execute(sql`insert into extractions (id, file_id, status, mode) values ('ext_a', 'file_a', 'completed', 'normal')`);
    await handle.db.execute(sql`insert into kb_documents (id, kb_id, file_id, extraction_id, title, status) values ('doc_a', 'kb_old', 'file_a', 'ext_a', 't', 'indexed')`);
    await handle.db.execute(sql`insert into kb_chunks (id, kb_id, document_id, generation, chunk_index, ordinal, content, metadata, token_count, term_count, terms, dimensions, embedding)
                                values ('chunk_a', 'kb_old', 'doc_a', 1, 0, 0, 'text', '{}', 1, 1, 'text'::tsvector, 3, '[1,0,0]')`);
    await handle.db.execute(sql.raw(`CREATE INDEX kb_chunks_embedding_3_hnsw_idx ON kb_chunks USING hnsw ((embedding::vector(3)) vector_cosine_ops) WHERE dimensions = 3`));
    await handle.close();

    handle = await openDatabase({ dataDir });
    try {
      const [index] = await queryRows<{ indexdef: string }>(handle.db, sql`select indexdef from pg_indexes where indexname = 'kb_chunks_embedding_3_hnsw_idx'`);
      expect(index.indexdef).toMatch(/USING hnsw \(\(\(embedding\)::vector\(3\)\) vector_cosine_ops\) WHERE \(\(dimensions = 3\) AND vector_indexed\)/);
      const [chunk] = await handle.db.select({ marked: kbChunks.vectorIndexed }).from(kbChunks).where(eq(kbChunks.id, 'chunk_a'));
      expect(chunk.marked).toBe(true);
    } finally {
      await handle.close();
    }
  });
});
