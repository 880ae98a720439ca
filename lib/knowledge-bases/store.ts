import { sql } from 'drizzle-orm';
import { chunkMarkdown } from '@/lib/chunking';
import { queryRows, type DbOrTx } from '@/lib/db/client';
import type { EmbeddingProvider } from '@/lib/embeddings/types';
import { newId } from '@/lib/ids';
import { termVector } from '@/lib/search/analyze';
import { lexemesLiteral } from '@/lib/search/tsvector';
import { toVectorLiteral } from '@/lib/search/vectors';
import type { ChunkingStrategy } from './types';

/*
 * Chunks of one document in one index generation, with the BM25 statistics kept beside them
 * (kb_index_stats: chunk and term totals; kb_term_stats: document frequency per term). Callers
 * hold the knowledge base's row lock, so statistics change in step with the chunks.
 */

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 500;
/** Texts embedded per call, so a long document's vectors are not all held at once with its text. */
const EMBED_BATCH = 256;

export interface PreparedChunk {
  content: string;
  metadata: Record<string, unknown>;
  tokenCount: number;
  termCount: number;
  terms: Map<string, number>;
  vector: string;
}

/** Chunks, embeds and analyses a document's Markdown. */
export async function prepareChunks(
  markdown: string,
  strategy: ChunkingStrategy,
  provider: EmbeddingProvider,
  documentMetadata: Record<string, unknown>,
): Promise<PreparedChunk[]> {
  const chunks = await chunkMarkdown(markdown, strategy, { embed: (texts) => provider.embed(texts) });
  const out: PreparedChunk[] = [];
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    const batch = chunks.slice(start, start + EMBED_BATCH);
    const vectors = await provider.embed(batch.map((c) => c.embedText));
    if (vectors.length !== batch.length) throw new Error(`The embedder returned ${vectors.length} vectors for ${batch.length} texts`);
    batch.forEach((chunk, i) => {
      if (vectors[i].length !== provider.dimensions) {
        throw new Error(`The embedder returned a vector of ${vectors[i].length} dimensions; this knowledge base uses ${provider.dimensions}`);
      }
      const terms = termVector(chunk.embedText);
      out.push({
        content: chunk.content,
        metadata: { ...documentMetadata, ...chunk.metadata },
        tokenCount: chunk.tokenCount,
        termCount: terms.length,
        terms: terms.frequencies,
        vector: toVectorLiteral(vectors[i]),
      });
    });
  }
  return out;
}

export interface ChunkTarget {
  kbId: string;
  documentId: string;
  generation: number;
  dimensions: number;
}

/** Inserts a document's chunks in batches and adds them to the generation's statistics. */
export async function insertChunks(tx: DbOrTx, target: ChunkTarget, chunks: PreparedChunk[]): Promise<void> {
  if (chunks.length === 0) return;
  for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
    const rows = chunks.slice(start, start + INSERT_BATCH).map(
      (c, i) =>
        sql`(${newId('chunk')}, ${target.kbId}, ${target.documentId}, ${target.generation}, ${start + i}, ${c.content},
             ${JSON.stringify(c.metadata)}::jsonb, ${c.tokenCount}, ${c.termCount},
             ${lexemesLiteral(c.terms.keys())}::tsvector, ${JSON.stringify(Object.fromEntries(c.terms))}::jsonb,
             ${target.dimensions}, ${c.vector}::vector)`,
    );
    await tx.execute(
      sql`insert into kb_chunks (id, kb_id, document_id, generation, chunk_index, content, metadata, token_count, term_count, terms, term_freqs, dimensions, embedding)
          values ${sql.join(rows, sql`, `)}`,
    );
  }
  const df = new Map<string, number>();
  let termTotal = 0;
  for (const c of chunks) {
    termTotal += c.termCount;
    for (const term of c.terms.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const entries = [...df].map(([term, n]) => ({ term, df: n }));
  for (let start = 0; start < entries.length; start += 5000) {
    await tx.execute(
      sql`insert into kb_term_stats (kb_id, generation, term, df)
          select ${target.kbId}, ${target.generation}, x.term, x.df
          from jsonb_to_recordset(${JSON.stringify(entries.slice(start, start + 5000))}::jsonb) as x(term text, df int)
          on conflict (kb_id, generation, term) do update set df = kb_term_stats.df + excluded.df`,
    );
  }
  await tx.execute(
    sql`insert into kb_index_stats (kb_id, generation, chunk_total, term_total)
        values (${target.kbId}, ${target.generation}, ${chunks.length}, ${termTotal})
        on conflict (kb_id, generation) do update set chunk_total = kb_index_stats.chunk_total + excluded.chunk_total,
          term_total = kb_index_stats.term_total + excluded.term_total`,
  );
}

/** Deletes a document's chunks of one generation and takes them out of its statistics. Returns how many went. */
export async function deleteChunks(tx: DbOrTx, target: Omit<ChunkTarget, 'dimensions'>): Promise<number> {
  const [row] = await queryRows<{ removed: number }>(
    tx,
    sql`with gone as (
          delete from kb_chunks where document_id = ${target.documentId} and generation = ${target.generation}
          returning terms, term_count
        ), per_term as (
          select u.lexeme as term, count(*)::int as n from gone, unnest(gone.terms) u group by u.lexeme
        ), terms_updated as (
          update kb_term_stats s set df = s.df - per_term.n from per_term
          where s.kb_id = ${target.kbId} and s.generation = ${target.generation} and s.term = per_term.term
          returning 1
        ), totals_updated as (
          update kb_index_stats set chunk_total = chunk_total - (select count(*) from gone),
            term_total = term_total - (select coalesce(sum(term_count), 0) from gone)
          where kb_id = ${target.kbId} and generation = ${target.generation}
          returning 1
        )
        select (select count(*) from gone)::int as removed, (select count(*) from terms_updated)::int as t, (select count(*) from totals_updated)::int as s`,
  );
  return Number(row?.removed ?? 0);
}

/** Drops a whole generation of a knowledge base: its chunks and statistics. */
export async function dropGeneration(tx: DbOrTx, kbId: string, generation: number): Promise<void> {
  await tx.execute(sql`delete from kb_chunks where kb_id = ${kbId} and generation = ${generation}`);
  await tx.execute(sql`delete from kb_term_stats where kb_id = ${kbId} and generation = ${generation}`);
  await tx.execute(sql`delete from kb_index_stats where kb_id = ${kbId} and generation = ${generation}`);
}
