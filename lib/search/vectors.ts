import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';

/*
 * Vectors of every dimension share one `vector` column of kb_chunks. Each dimension in use has
 * its own partial HNSW index over a cast expression (`embedding::vector(384)`, predicate
 * `dimensions = 384 AND vector_indexed`), so knowledge bases with different embedders coexist.
 * pgvector indexes `vector` up to 2,000 dimensions; larger ones (up to 4,000) are indexed as
 * `halfvec`. Rows are written unmarked and enter the index in the background (vector-backlog.ts).
 */

export const MAX_VECTOR_INDEX_DIMENSIONS = 4000;
const MAX_FULL_PRECISION_DIMENSIONS = 2000;

function checkedDimensions(dimensions: number): number {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_VECTOR_INDEX_DIMENSIONS) {
    throw new RangeError(`Embedding dimensions must be an integer from 1 to ${MAX_VECTOR_INDEX_DIMENSIONS}`);
  }
  return dimensions;
}

/** `vector(D)` or, above 2,000 dimensions, `halfvec(D)`: the type the index of that dimension uses. */
export function indexedVectorType(dimensions: number): string {
  const d = checkedDimensions(dimensions);
  return d > MAX_FULL_PRECISION_DIMENSIONS ? `halfvec(${d})` : `vector(${d})`;
}

/** The indexed expression for one dimension (a literal: partial-index predicates need constants). */
export function indexedEmbedding(dimensions: number, column = 'embedding'): SQL {
  return sql.raw(`(${column}::${indexedVectorType(dimensions)})`);
}

/** Cosine distance between the chunk's embedding and a query vector given as text, using the index's form. */
export function cosineDistance(dimensions: number, queryLiteral: string, column = 'embedding'): SQL {
  return sql`${indexedEmbedding(dimensions, column)} <=> (${queryLiteral}::${sql.raw(indexedVectorType(dimensions))})`;
}

/** Text form of a vector for pgvector: `[0.1,-0.2,…]` with float4 precision. */
export function toVectorLiteral(vector: ArrayLike<number>): string {
  let out = '[';
  for (let i = 0; i < vector.length; i++) {
    const v = vector[i];
    if (!Number.isFinite(v)) throw new RangeError('Embedding values must be finite numbers');
    out += (i ? ',' : '') + (v === 0 ? '0' : v.toPrecision(7));
  }
  return out + ']';
}

export function vectorIndexName(dimensions: number): string {
  return `kb_chunks_embedding_${checkedDimensions(dimensions)}_hnsw_idx`;
}

/** Creates the HNSW index for a dimension when it does not exist yet. */
export async function ensureVectorIndex(db: DbOrTx, dimensions: number): Promise<void> {
  const d = checkedDimensions(dimensions);
  const opclass = d > MAX_FULL_PRECISION_DIMENSIONS ? 'halfvec_cosine_ops' : 'vector_cosine_ops';
  try {
    await db.execute(
      sql.raw(
        `CREATE INDEX IF NOT EXISTS ${vectorIndexName(d)} ON kb_chunks USING hnsw ((embedding::${indexedVectorType(d)}) ${opclass}) WHERE dimensions = ${d} AND vector_indexed`,
      ),
    );
  } catch (err) {
    // Two first knowledge bases of a new dimension at once: the other one created it.
    if (!/already exists|duplicate key/i.test(String((err as Error).message))) throw err;
  }
}
