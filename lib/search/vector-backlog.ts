import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '@/lib/db/client';
import { StatementPacer } from '@/lib/db/pacing';

/*
 * Chunks are written unmarked (`vector_indexed = false`) and so stay out of their dimension's
 * HNSW index: pgvector's insert costs several milliseconds per row at 100,000 rows, which would
 * make indexing a large document wait minutes. Searches compare unmarked chunks with the query
 * exactly (query.ts), so a document is searchable as soon as it is indexed. Marking the rows here
 * rewrites them, and pgvector adds the new versions to the index: the same cost, paid in the
 * background, in short statements (pacing.ts: on the embedded database they run on the server's
 * main thread).
 */

const FIRST_ROWS = 8;
const MAX_ROWS = 500;

/** Marks up to `limit` unmarked chunks (skipping rows another transaction holds); returns how many. */
export async function markVectorsIndexed(db: DbOrTx, limit: number): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`with picked as (select id from kb_chunks where not vector_indexed limit ${limit} for update skip locked),
        marked as (update kb_chunks c set vector_indexed = true from picked where c.id = picked.id returning 1)
        select count(*) as n from marked`,
  );
  return Number(row?.n ?? 0);
}

/** Chunks not yet in their HNSW index, counted up to `upTo` when given. */
export async function pendingVectorCount(db: DbOrTx, upTo?: number): Promise<number> {
  const rows = upTo === undefined ? sql`select 1 from kb_chunks where not vector_indexed` : sql`select 1 from kb_chunks where not vector_indexed limit ${upTo}`;
  const [row] = await queryRows<{ n: number | string }>(db, sql`select count(*) as n from (${rows}) pending`);
  return Number(row?.n ?? 0);
}

export interface BacklogPass {
  /** Rows marked in this pass. */
  indexed: number;
  /** Whether unmarked rows were left when the time was up. */
  more: boolean;
}

/** Marks unmarked chunks in paced statements for up to `budgetMs`, or until none are left. */
export async function indexVectorBacklog(db: DbOrTx, budgetMs: number): Promise<BacklogPass> {
  const pacer = new StatementPacer(FIRST_ROWS, MAX_ROWS);
  const started = performance.now();
  let indexed = 0;
  for (;;) {
    const limit = pacer.rows;
    const marked = await pacer.run(limit, () => markVectorsIndexed(db, limit));
    indexed += marked;
    if (marked < limit) return { indexed, more: false };
    if (performance.now() - started >= budgetMs) return { indexed, more: true };
  }
}
