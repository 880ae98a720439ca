import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx } from '@/lib/db/client';
import { cosineDistance } from './vectors';

/*
 * The SQL of semantic and keyword search over one generation of one knowledge base's chunks.
 *
 * Semantic: cosine distance through the per-dimension HNSW index (vector_cosine_ops), with
 * pgvector's iterative scan so filters do not starve the result, and exactly for chunks the index
 * does not hold yet (vector-backlog.ts). Knowledge bases of up to
 * `exactMaxChunks` chunks are searched exactly instead (a scan of their rows is faster than the
 * index there and never misses). similarity = 1 − cosine distance.
 *
 * Keyword search (BM25 over postings) is lib/search/keyword.ts.
 */

const HNSW_MAX_EF_SEARCH = 1000;
const HNSW_MIN_EF_SEARCH = 100;

export interface SearchScope {
  kbId: string;
  generation: number;
  dimensions: number;
  /** Extra conditions on the chunk alias `c` (metadata filters). */
  conditions: SQL[];
}

/** `$1, $2, …` for an IN list of chunk ids. */
function idList(ids: string[]): SQL {
  return sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
}

export interface ScoredChunk {
  id: string;
  /** The chunk's number in its generation (how keyword postings name it). */
  ordinal: number;
  score: number;
}

export function scopeWhere(scope: SearchScope): SQL {
  return sql.join(
    [
      sql`c.kb_id = ${scope.kbId}`,
      sql`c.generation = ${scope.generation}`,
      sql.raw(`c.dimensions = ${Math.trunc(scope.dimensions)}`),
      ...scope.conditions,
    ],
    sql` and `,
  );
}

/**
 * The `limit` chunks most similar to the query vector (text form), best first, with their cosine
 * similarity. A zero vector (a query without words) has no direction and finds nothing.
 */
export async function vectorCandidates(
  db: DbOrTx,
  scope: SearchScope,
  queryVector: string,
  limit: number,
  opts: { exact: boolean },
): Promise<ScoredChunk[]> {
  if (!/[1-9]/.test(queryVector)) return [];
  const where = scopeWhere(scope);
  if (opts.exact) {
    // Not the indexed expression, so the planner reads the knowledge base's rows and sorts them.
    const rows = await queryRows<{ id: string; ordinal: number; distance: number }>(
      db,
      sql`select c.id, c.ordinal, (c.embedding <=> ${queryVector}::vector) as distance from kb_chunks c
          where ${where} order by distance, c.id limit ${limit}`,
    );
    return rows.map((r) => ({ id: r.id, ordinal: Number(r.ordinal), score: 1 - Number(r.distance) }));
  }
  const distance = cosineDistance(scope.dimensions, queryVector, 'c.embedding');
  const search = async (tx: DbOrTx) => {
    // Session settings for this transaction only: a wider candidate list, and iterative scans so
    // that filtered-out rows do not leave the result short.
    const efSearch = Math.min(HNSW_MAX_EF_SEARCH, Math.max(HNSW_MIN_EF_SEARCH, limit * 2));
    await tx.execute(sql`select set_config('hnsw.ef_search', ${String(efSearch)}, true), set_config('hnsw.iterative_scan', 'strict_order', true)`);
    // Chunks not yet in the index (vector-backlog.ts) are compared exactly, through their own
    // partial index: the index's candidates and theirs, best first.
    const rows = await queryRows<{ id: string; ordinal: number; distance: number }>(
      tx,
      sql`select id, ordinal, distance from (
            (select c.id, c.ordinal, ${distance} as distance from kb_chunks c where ${where} and c.vector_indexed order by ${distance} limit ${limit})
            union all
            (select c.id, c.ordinal, ${distance} as distance from kb_chunks c where ${where} and not c.vector_indexed order by ${distance} limit ${limit})
          ) found order by distance limit ${limit}`,
    );
    // The index returns equal distances in its own order; ties are ordered by id, as by the exact scan.
    return rows
      .map((r) => ({ id: r.id, ordinal: Number(r.ordinal), score: 1 - Number(r.distance) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };
  // Inside a transaction already (searches run on one snapshot): no savepoint needed.
  return isTransaction(db) ? search(db) : (db as Db).transaction(search);
}

function isTransaction(db: DbOrTx): boolean {
  return typeof (db as { rollback?: unknown }).rollback === 'function';
}

/** Cosine similarity of the given chunks to the query vector. */
export async function vectorScores(db: DbOrTx, ids: string[], queryVector: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (ids.length === 0 || !/[1-9]/.test(queryVector)) return out;
  const rows = await queryRows<{ id: string; distance: number }>(
    db,
    sql`select c.id, (c.embedding <=> ${queryVector}::vector) as distance from kb_chunks c
        where c.id in (${idList(ids)})`,
  );
  for (const r of rows) out.set(r.id, 1 - Number(r.distance));
  return out;
}

export type ChunkDetails = {
  id: string;
  document_id: string;
  document_title: string;
  file_id: string;
  extraction_id: string;
  content: string;
  metadata: Record<string, unknown>;
  /** The file version the chunk was made from (null for chunks indexed before versions were recorded). */
  file_version: number | null;
  /** Where a file kept in step with a source came from (files.source), or null. */
  source: { source_id: string; item_id: string; key: string; url: string } | null;
};

/** Content, metadata and document title of chunks. */
export async function chunkDetails(db: DbOrTx, ids: string[]): Promise<Map<string, ChunkDetails>> {
  const out = new Map<string, ChunkDetails>();
  if (ids.length === 0) return out;
  const rows = await queryRows<Omit<ChunkDetails, 'metadata' | 'source'> & { metadata: unknown; source: unknown }>(
    db,
    sql`select c.id, c.document_id, d.title as document_title, d.file_id,
               coalesce(d.indexed_extraction_id, d.extraction_id) as extraction_id, c.content, c.metadata,
               d.indexed_file_version as file_version, f.source
        from kb_chunks c join kb_documents d on d.id = c.document_id join files f on f.id = d.file_id
        where c.id in (${idList(ids)})`,
  );
  const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
  for (const r of rows) {
    out.set(r.id, {
      ...r,
      file_version: r.file_version === null ? null : Number(r.file_version),
      metadata: json(r.metadata) as Record<string, unknown>,
      source: (json(r.source) as ChunkDetails['source']) ?? null,
    });
  }
  return out;
}
