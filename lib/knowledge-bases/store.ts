import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '@/lib/db/client';
import { StatementPacer, StatementPipeline } from '@/lib/db/pacing';
import { newId } from '@/lib/ids';
import type { ChunkRow, ChunkSource } from './prepare';
import { forgetTails, keepTails, PostingsWriter, removePostings, takeTails } from './postings-store';
import { requestVectorIndexing } from './vector-index-workflow';

/*
 * Chunks of one document in one index generation, with what BM25 keeps beside them
 * (kb_index_stats: chunk and term totals and the next chunk ordinal; kb_postings: which chunks
 * hold each term, how often, and their lengths; a term's document frequency is its number of
 * postings). Callers hold the knowledge base's row lock, so these change in step with the chunks
 * and postings are appended in ordinal order.
 *
 * A large document is written and deleted in many short statements (lib/db/pacing.ts): on the
 * embedded database, maintaining the HNSW index alone costs several milliseconds per row, all on
 * the server's main thread. On PostgreSQL the inserts are pipelined instead (InsertOptions). The statements are written to be planned well without table
 * statistics, which the embedded database never gathers: rows are deleted by key, and postings
 * change through upserts (a join of the chunks' terms with kb_postings can otherwise be planned
 * as a nested loop over both).
 */

const FIRST_INSERT_ROWS = 8;
/** Well under PostgreSQL's 65,535 parameters (13 per row). */
const MAX_INSERT_ROWS = 500;
/** Rows fetched from the indexing thread at a time. */
const FETCH_ROWS = 128;
const FIRST_DELETE_ROWS = 50;
const MAX_DELETE_ROWS = 5000;

/** A document's prepared chunks, fetched a batch at a time (from the indexing thread). */
export interface ChunkTarget {
  kbId: string;
  documentId: string;
  generation: number;
  dimensions: number;
}

/**
 * Reserves `count` chunk ordinals of the generation (creating its statistics row), returning the
 * first, and the id of the transaction that last wrote the statistics row before (null when it
 * is new). Ordinals are never reused within a generation; a re-index starts a new one at 0.
 */
async function reserveOrdinals(tx: DbOrTx, kbId: string, generation: number, count: number): Promise<{ first: number; previousXmin: string | null }> {
  const [row] = await queryRows<{ next_ordinal: string | number; previous_xmin: string | null }>(
    tx,
    sql`with previous as (select xmin::text as xmin from kb_index_stats where kb_id = ${kbId} and generation = ${generation})
        insert into kb_index_stats (kb_id, generation, chunk_total, term_total, next_ordinal) values (${kbId}, ${generation}, 0, 0, ${count})
        on conflict (kb_id, generation) do update set next_ordinal = kb_index_stats.next_ordinal + excluded.next_ordinal
        returning next_ordinal, (select xmin from previous) as previous_xmin`,
  );
  const end = Number(row.next_ordinal);
  if (end > MAX_ORDINAL) {
    throw new Error(`This knowledge base's index has numbered ${end.toLocaleString('en-US')} chunks, more than it can: re-index the knowledge base to number them again`);
  }
  return { first: end - count, previousXmin: row.previous_xmin };
}

const MAX_ORDINAL = 2 ** 31 - 1;

export interface InsertOptions {
  /** Reports chunks written so far. */
  onProgress?: (written: number, total: number) => void;
  /**
   * PostgreSQL: statements go out without waiting for the previous ones (StatementPipeline), in
   * the largest sizes, so the server builds the next while the database runs the last. Without it
   * (the embedded database) they are paced.
   */
  pipelined?: boolean;
}

/**
 * Inserts a document's chunks in short statements and adds them to the generation's statistics and
 * postings. The chunks go into the HNSW index in the background (lib/search/vector-backlog.ts),
 * whose run this queues.
 */
export async function insertChunks(tx: DbOrTx, target: ChunkTarget, source: ChunkSource, options: InsertOptions = {}): Promise<void> {
  if (source.count === 0) return;
  await requestVectorIndexing(tx);
  const { first, previousXmin } = await reserveOrdinals(tx, target.kbId, target.generation, source.count);
  const pipeline = options.pipelined ? new StatementPipeline() : null;
  const pacer = new StatementPacer(pipeline ? MAX_INSERT_ROWS : FIRST_INSERT_ROWS, MAX_INSERT_ROWS);
  const postings = new PostingsWriter(tx, target.kbId, target.generation, takeTails(target.kbId, target.generation, previousXmin), pipeline);
  let buffer: ChunkRow[] = [];
  let fetched = 0;
  for (let index = 0; index < source.count; ) {
    if (buffer.length < pacer.rows && fetched < source.count) {
      const more = await source.rows(fetched, Math.max(FETCH_ROWS, pacer.rows - buffer.length));
      fetched += more.length;
      buffer = buffer.concat(more);
    }
    const batch = buffer.splice(0, pacer.rows);
    if (batch.length === 0) throw new Error(`The indexing thread returned no rows from ${fetched} of ${source.count}`);
    const values = batch.map(
      (c, i) =>
        sql`(${newId('chunk')}, ${target.kbId}, ${target.documentId}, ${target.generation}, ${index + i}, ${first + index + i}, ${c.content},
             ${c.metadata}::jsonb, ${c.tokenCount}, ${c.termCount}, ${c.lexemes}::tsvector, ${target.dimensions}, ${c.vector}::vector, false)`,
    );
    const insert = () =>
      tx.execute(
        sql`insert into kb_chunks (id, kb_id, document_id, generation, chunk_index, ordinal, content, metadata, token_count, term_count, terms, dimensions, embedding, vector_indexed)
            values ${sql.join(values, sql`, `)}`,
      );
    const written = index + batch.length;
    // Before the INSERT: with a pipeline, the batch's new terms are looked up ahead of it.
    postings.add(batch, first + index);
    if (pipeline) {
      await pipeline.send(async () => {
        await insert();
        options.onProgress?.(written, source.count);
      });
    } else {
      await pacer.run(batch.length, insert);
      options.onProgress?.(written, source.count);
    }
    if (postings.full) await postings.flush();
    index = written;
  }
  await postings.flush();
  await pipeline?.drain();
  const [stats] = await queryRows<{ xmin: string }>(
    tx,
    sql`update kb_index_stats set chunk_total = chunk_total + ${source.count}, term_total = term_total + ${source.termTotal}
        where kb_id = ${target.kbId} and generation = ${target.generation} returning xmin::text as xmin`,
  );
  if (stats) keepTails(target.kbId, target.generation, stats.xmin, postings.tails);
}

let cursors = 0;

/**
 * Deletes, in short statements, the rows whose keys `keys` selects (as `key`); `remove` deletes
 * the rows of a batch of keys (an SQL text array) and whatever goes with them. The keys are read
 * through a cursor: looking them up again for every batch would walk over the index entries of
 * all rows deleted before in this transaction (they stay until it ends), which makes deleting a
 * large document take time quadratic in its size. Returns how many keys there were.
 */
async function deleteByKeys(tx: DbOrTx, keys: SQL, remove: (batch: SQL) => SQL): Promise<number> {
  const cursor = sql.raw(`quarry_delete_${++cursors}`);
  await tx.execute(sql`declare ${cursor} no scroll cursor for ${keys}`);
  const pacer = new StatementPacer(FIRST_DELETE_ROWS, MAX_DELETE_ROWS);
  let total = 0;
  for (;;) {
    const limit = pacer.rows;
    const found = await pacer.run(limit, async () => {
      const rows = await queryRows<{ key: string }>(tx, sql`fetch forward ${sql.raw(String(limit))} from ${cursor}`);
      if (rows.length > 0) {
        await tx.execute(remove(sql`array(select jsonb_array_elements_text(${JSON.stringify(rows.map((r) => r.key))}::jsonb))`));
      }
      return rows.length;
    });
    total += found;
    if (found < limit) break;
  }
  await tx.execute(sql`close ${cursor}`);
  return total;
}

/** Deletes a document's chunks of one generation and takes them out of its statistics. Returns how many went. */
export async function deleteChunks(tx: DbOrTx, target: Omit<ChunkTarget, 'dimensions'>): Promise<number> {
  // No chunks (the usual case: indexing makes sure a crashed attempt left none): nothing to delete.
  if ((await removePostings(tx, target)) === 0) return 0;
  return deleteByKeys(
    tx,
    sql`select id as key from kb_chunks where document_id = ${target.documentId} and generation = ${target.generation}`,
    (batch) =>
      sql`with gone as (
            delete from kb_chunks where id = any(${batch}) returning term_count
          )
          update kb_index_stats set chunk_total = chunk_total - (select count(*) from gone),
            term_total = term_total - (select coalesce(sum(term_count), 0) from gone)
          where kb_id = ${target.kbId} and generation = ${target.generation}`,
  );
}

/** Drops a whole generation of a knowledge base: its chunks, statistics and postings. */
export async function dropGeneration(tx: DbOrTx, kbId: string, generation: number): Promise<void> {
  forgetTails(kbId, generation);
  const where = sql`kb_id = ${kbId} and generation = ${generation}`;
  await deleteByKeys(tx, sql`select id as key from kb_chunks where ${where}`, (batch) => sql`delete from kb_chunks where id = any(${batch})`);
  await deleteByKeys(
    tx,
    sql`select distinct term as key from kb_postings where ${where}`,
    (batch) => sql`delete from kb_postings where ${where} and term = any(${batch})`,
  );
  await tx.execute(sql`delete from kb_index_stats where ${where}`);
}
