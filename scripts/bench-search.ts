// npm run bench:search — a knowledge base of 100k chunks in PostgreSQL: indexing throughput
// (bulk load with the indexes dropped, then per-document indexing with them in place), and the
// latency of semantic and hybrid search over HTTP, through the service functions, and as the bare
// lib/search SQL; HNSW recall against an exact scan and the query plans behind the numbers.
//
// Environment:
//   BENCH_CHUNKS               chunks to load (default 100000)
//   BENCH_QUERIES              measured queries per variant (default 200)
//   BENCH_INCREMENTAL_DOCS     documents indexed after the indexes exist (default 20)
//   BENCH_DATABASE_URL         database to create, dropped first (default postgres://postgres@127.0.0.1:5432/quarry_bench_search;
//                              its name must contain "bench")
//   BENCH_MAINTENANCE_WORK_MEM maintenance_work_mem for the index builds (default 1GB)
//   BENCH_KEEP=1               keep the database afterwards
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql, type SQL } from 'drizzle-orm';
import postgres from 'postgres';
import type { ServiceContext } from '@/lib/context';
import { openDatabase, queryRows, type Db, type DbOrTx } from '@/lib/db/client';
import { extractions, files, kbDocuments, knowledgeBases, type KnowledgeBaseRow } from '@/lib/db/schema';
import type { EmbeddingProvider } from '@/lib/embeddings/types';
import { newId } from '@/lib/ids';
import { embedderFor } from '@/lib/knowledge-bases/embedder';
import { runDocumentIndexing } from '@/lib/knowledge-bases/indexing';
import { hybridSearchKnowledgeBase, searchKnowledgeBase } from '@/lib/knowledge-bases/search';
import { createKnowledgeBase } from '@/lib/knowledge-bases/service';
import { localChunkSource, prepareChunks } from '@/lib/knowledge-bases/prepare';
import { insertChunks } from '@/lib/knowledge-bases/store';
import {
  chunkDetails,
  keywordCandidates,
  keywordScores,
  prepareKeywordQuery,
  vectorCandidates,
  vectorScores,
  type KeywordQuery,
  type SearchScope,
} from '@/lib/search/query';
import { ensureVectorIndex, toVectorLiteral, vectorIndexName } from '@/lib/search/vectors';
import type { Storage } from '@/lib/storage';
import { ensureBuild } from './lib/ensure-build.mjs';
import { runServer, type RunningServer } from './lib/run-server.mjs';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const INCREMENTAL_DOCS = Number(process.env.BENCH_INCREMENTAL_DOCS ?? 20);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/quarry_bench_search';
const MAINTENANCE_WORK_MEM = process.env.BENCH_MAINTENANCE_WORK_MEM ?? '1GB';
const KEEP = process.env.BENCH_KEEP === '1';

const SEED = 20240611;
const CONCURRENCY = 2;
const TOP_K = 10;
const WARMUP_QUERIES = 10;
const RECALL_QUERIES = 20;
/** Sections per document average ~100, so 1,000 documents make 100,000 chunks. */
const MEAN_SECTIONS = 100;
const DIMENSIONS = 384;
const ADMIN_KEY = 'sk_test_benchmarkadministratorkey00000001';
/** The hybrid endpoint's default weights. */
const VECTOR_WEIGHT = 0.7;
const KEYWORD_WEIGHT = 0.3;

// ---------------------------------------------------------------------------------------------
// Corpus

/** mulberry32: a small seeded PRNG, so every run builds the same corpus and queries. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STOPWORDS = ['the', 'of', 'and', 'to', 'in', 'a', 'is', 'that', 'for', 'it', 'as', 'with', 'was', 'on', 'be', 'by', 'this', 'are', 'or', 'from'];
const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'st', 'tr', 'pl', 'gr', 'br', 'ch', 'sh', 'th'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou', 'io'];
const CODAS = ['', '', 'n', 'r', 's', 'l', 't', 'm', 'nd', 'rt', 'st', 'x'];
const DISTINCT_WORDS = 20_000;
/** Zipf–Mandelbrot exponent and offset of word frequencies by rank. */
const ZIPF_S = 1.0;
const ZIPF_Q = 2.7;
/** Share of a document's words drawn from its own topic words (burstiness, so df varies like real text). */
const TOPIC_SHARE = 0.08;
const TOPIC_WORDS = 20;
/** Share of words that are identifiers (`qx4821`): rare terms, as part numbers and codes are. */
const CODE_SHARE = 0.004;

/** Pronounceable made-up words, ranked: English stop words first, then 20,000 others. */
class Vocabulary {
  readonly words: string[];
  private readonly cumulative: Float64Array;

  constructor(random: () => number) {
    const made = new Set<string>();
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    while (made.size < DISTINCT_WORDS) {
      let word = '';
      const syllables = 1 + Math.floor(random() * 3);
      for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(NUCLEI) + pick(CODAS);
      if (word.length >= 3 && !STOPWORDS.includes(word)) made.add(word);
    }
    this.words = [...STOPWORDS, ...made];
    this.cumulative = new Float64Array(this.words.length);
    let total = 0;
    this.words.forEach((_, rank) => (this.cumulative[rank] = total += 1 / Math.pow(rank + ZIPF_Q, ZIPF_S)));
  }

  /** A word drawn by its Zipf frequency. */
  sample(random: () => number): string {
    const x = random() * this.cumulative[this.cumulative.length - 1];
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo];
  }

  /** A word of rank in [from, to). */
  ranked(random: () => number, from: number, to: number): string {
    return this.words[from + Math.floor(random() * (to - from))];
  }
}

interface CorpusDocument {
  title: string;
  markdown: string;
  sections: number;
}

/** Writes documents: a title, an introduction, then `##` sections of 400–1,150 characters (one chunk each at 512 tokens). */
class CorpusWriter {
  private readonly random: () => number;

  constructor(
    private readonly vocabulary: Vocabulary,
    seed: number,
  ) {
    this.random = prng(seed);
  }

  private word(topic: string[]): string {
    const r = this.random();
    if (r < CODE_SHARE) return `qx${Math.floor(this.random() * 5000)}`;
    if (r < CODE_SHARE + TOPIC_SHARE) return topic[Math.floor(this.random() * topic.length)];
    return this.vocabulary.sample(this.random);
  }

  private sentence(topic: string[], length: number): string {
    const words: string[] = [];
    for (let i = 0; i < length; i++) words.push(this.word(topic));
    return `${words[0][0].toUpperCase()}${words[0].slice(1)} ${words.slice(1).join(' ')}.`;
  }

  /** Sentences of 8–19 words, in paragraphs of 2–4 sentences, until the text is about `chars` long. */
  private body(topic: string[], chars: number): string {
    const paragraphs: string[] = [];
    let length = 0;
    while (length < chars) {
      const sentences: string[] = [];
      const count = 2 + Math.floor(this.random() * 3);
      for (let i = 0; i < count && length < chars; i++) {
        const s = this.sentence(topic, 8 + Math.floor(this.random() * 12));
        sentences.push(s);
        length += s.length + 1;
      }
      paragraphs.push(sentences.join(' '));
    }
    return paragraphs.join('\n\n');
  }

  document(index: number, sections: number): CorpusDocument {
    const topic: string[] = [];
    for (let i = 0; i < TOPIC_WORDS; i++) topic.push(this.vocabulary.ranked(this.random, 300, 10_000));
    const title = `Document ${index + 1}: ${this.sentence(topic, 4).slice(0, -1)}`;
    const parts = [`# ${title}`, this.body(topic, 300 + this.random() * 400)];
    for (let s = 0; s < sections; s++) {
      parts.push(`## ${this.sentence(topic, 3 + Math.floor(this.random() * 4)).slice(0, -1)}`);
      parts.push(this.body(topic, 400 + this.random() * 750));
    }
    return { title, markdown: `${parts.join('\n\n')}\n`, sections };
  }
}

/** Section counts per document (50–150) summing to the chunk target, one chunk per document for its introduction. */
function sectionPlan(chunks: number, random: () => number): number[] {
  const documents = Math.max(1, Math.round(chunks / (MEAN_SECTIONS + 1)));
  const plan: number[] = [];
  let remaining = chunks - documents;
  for (let d = 0; d < documents; d++) {
    const left = documents - d;
    const n = left === 1 ? remaining : Math.max(1, Math.min(remaining - (left - 1), Math.round((remaining / left) * (0.5 + random()))));
    plan.push(n);
    remaining -= n;
  }
  return plan;
}

/** 2–5-word queries mixing frequent (ranks 20–300), middle (300–3,000) and rare (3,000–20,000) words and codes. */
function makeQueries(vocabulary: Vocabulary, count: number, random: () => number): string[] {
  const bands: [number, number][] = [
    [STOPWORDS.length, 300],
    [300, 3000],
    [3000, vocabulary.words.length],
  ];
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    const length = 2 + Math.floor(random() * 4);
    for (let w = 0; w < length; w++) {
      if (random() < 0.03) {
        words.push(`qx${Math.floor(random() * 5000)}`);
        continue;
      }
      const [from, to] = bands[Math.floor(random() * bands.length)];
      words.push(vocabulary.ranked(random, from, to));
    }
    queries.push(words.join(' '));
  }
  return queries;
}

// ---------------------------------------------------------------------------------------------
// Measurement helpers

/** Nearest-rank percentile of samples in milliseconds. */
function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

class Timings {
  readonly samples = new Map<string, number[]>();

  add(name: string, ms: number): void {
    const list = this.samples.get(name) ?? [];
    list.push(ms);
    this.samples.set(name, list);
  }

  async time<T>(name: string | null, fn: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await fn();
    if (name) this.add(name, performance.now() - started);
    return result;
  }

  p(name: string, pct: number): number {
    return percentile(this.samples.get(name) ?? [], pct);
  }

  mean(name: string): number {
    const list = this.samples.get(name) ?? [];
    return list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
  }
}

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const seconds = (ms: number) => `${fmt(ms / 1000)} s`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** A progress line on a terminal, overwritten by the next one; null clears it. */
function progress(text: string | null): void {
  if (!process.stdout.isTTY) return;
  process.stdout.write(text === null ? `\r${' '.repeat(60)}\r` : `\r    ${text}`);
}

/** Runs `worker` over the items with `concurrency` of them in flight. */
async function pool<T>(items: T[], concurrency: number, worker: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await worker(items[next++]);
    }),
  );
}

interface CpuSnapshot {
  node: NodeJS.CpuUsage;
  /** CPU ticks of this database's server processes by pid. */
  backends: Map<number, number>;
  machineBusy: number;
  machineTotal: number;
}

const TICKS_PER_SECOND = 100;

/** utime + stime of a process in clock ticks, 0 once it is gone. */
function processTicks(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** CPU used so far by this process, by the database's backends and by the whole machine (Linux /proc). */
async function cpuSnapshot(db: Db): Promise<CpuSnapshot> {
  const rows = await queryRows<{ pid: number }>(db, sql`select pid from pg_stat_activity where datname = current_database()`);
  const backends = new Map(rows.map((r) => [Number(r.pid), processTicks(Number(r.pid))]));
  let machineBusy = 0;
  let machineTotal = 0;
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    machineTotal = cpu.reduce((a, b) => a + b, 0);
    machineBusy = machineTotal - cpu[3] - cpu[4];
  } catch {
    // Not Linux: machine figures stay 0.
  }
  return { node: process.cpuUsage(), backends, machineBusy, machineTotal };
}

/** CPU seconds between two snapshots: this process, the database backends, everything else on the machine. */
function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): { node: number; postgres: number; others: number } {
  const nodeUsage = process.cpuUsage(before.node);
  const node = (nodeUsage.user + nodeUsage.system) / 1e6;
  let ticks = 0;
  for (const [pid, now] of after.backends) ticks += now - (before.backends.get(pid) ?? 0);
  const postgres = ticks / TICKS_PER_SECOND;
  const machine = (after.machineBusy - before.machineBusy) / TICKS_PER_SECOND;
  return { node, postgres, others: Math.max(0, machine - node - postgres) };
}

// ---------------------------------------------------------------------------------------------
// Database

/** The database named by the URL, dropped and created again through the server's `postgres` database. */
async function recreateDatabase(url: string, drop: boolean): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/bench/i.test(name)) throw new Error(`Refusing to drop database "${name}": its name must contain "bench"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
    if (!drop) await client.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end({ timeout: 5 });
  }
}

function serviceContext(db: Db): ServiceContext {
  return { db, storage: null as unknown as Storage, requestId: null, principal: null };
}

interface Seeded {
  kb: KnowledgeBaseRow;
  documents: { id: string; sections: number; metadata: Record<string, unknown> }[];
}

/** A knowledge base created by the service, and one file, completed extraction and document per corpus document. */
async function seed(db: Db, writer: CorpusWriter, plan: number[]): Promise<Seeded & { chars: number }> {
  const view = await createKnowledgeBase(serviceContext(db), { name: 'bench-search', description: 'bench:search corpus' });
  const [kb] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, view.id));
  const documents: Seeded['documents'] = [];
  let chars = 0;
  const BATCH = 50;
  for (let start = 0; start < plan.length; start += BATCH) {
    const fileRows: (typeof files.$inferInsert)[] = [];
    const extractionRows: (typeof extractions.$inferInsert)[] = [];
    const documentRows: (typeof kbDocuments.$inferInsert)[] = [];
    for (let i = start; i < Math.min(plan.length, start + BATCH); i++) {
      const doc = writer.document(i, plan[i]);
      const bytes = Buffer.from(doc.markdown);
      chars += doc.markdown.length;
      const now = new Date();
      const fileId = newId('file');
      const extractionId = newId('extraction');
      const documentId = newId('document');
      const metadata = { corpus: 'bench', ordinal: i };
      fileRows.push({
        id: fileId,
        filename: `bench-${String(i).padStart(5, '0')}.md`,
        contentType: 'text/markdown',
        extension: '.md',
        size: bytes.length,
        sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
        storageKey: `bench/${fileId}`,
      });
      extractionRows.push({
        id: extractionId,
        fileId,
        status: 'completed',
        mode: 'simple',
        progress: 100,
        markdown: doc.markdown,
        metadata: { title: doc.title },
        startedAt: now,
        completedAt: now,
      });
      documentRows.push({ id: documentId, kbId: kb.id, fileId, extractionId, title: doc.title, status: 'indexing', metadata });
      documents.push({ id: documentId, sections: doc.sections, metadata });
    }
    await db.insert(files).values(fileRows);
    await db.insert(extractions).values(extractionRows);
    await db.insert(kbDocuments).values(documentRows);
  }
  return { kb, documents, chars };
}

async function markdownOf(db: Db, documentId: string): Promise<string> {
  const [row] = await db
    .select({ markdown: extractions.markdown })
    .from(kbDocuments)
    .innerJoin(extractions, eq(extractions.id, kbDocuments.extractionId))
    .where(eq(kbDocuments.id, documentId));
  return row?.markdown ?? '';
}

interface LoadResult {
  chunks: number;
  wallMs: number;
  /** Summed wall time of the storing transactions (they wait for each other's row lock and for the event loop). */
  storeMs: number;
  /** CPU time of this process inside prepareChunks (it does not yield to the event loop while it runs). */
  prepareCpuMs: number;
  tokens: number;
  terms: number;
  /** Distinct terms per document summed: rows the kb_term_stats upserts touch. */
  documentTerms: number;
}

/**
 * Indexes documents as the pipeline does — Markdown read, prepareChunks (chunk, embed, analyse)
 * outside any transaction, then insertChunks in a transaction holding the knowledge base's row
 * lock that also marks the document indexed — timing each step. prepareChunks runs on this
 * thread so its CPU time can be measured (the server runs it in an indexing thread).
 */
async function bulkLoad(db: Db, kb: KnowledgeBaseRow, embedder: EmbeddingProvider, documents: Seeded['documents']): Promise<LoadResult> {
  const result: LoadResult = { chunks: 0, wallMs: 0, storeMs: 0, prepareCpuMs: 0, tokens: 0, terms: 0, documentTerms: 0 };
  const started = performance.now();
  let done = 0;
  await pool(documents, CONCURRENCY, async (doc) => {
    const markdown = await markdownOf(db, doc.id);
    const cpu = process.cpuUsage();
    const prepared = await prepareChunks(markdown, kb.chunkingStrategy, embedder, doc.metadata, { maxChunks: Number.POSITIVE_INFINITY });
    const used = process.cpuUsage(cpu);
    result.prepareCpuMs += (used.user + used.system) / 1000;
    const t2 = performance.now();
    await db.transaction(async (tx) => {
      await tx.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.id, kb.id)).for('update');
      const target = { kbId: kb.id, documentId: doc.id, generation: kb.generation, dimensions: kb.embeddingDimensions };
      await insertChunks(tx, target, localChunkSource(prepared));
      const now = new Date();
      await tx
        .update(kbDocuments)
        .set({ status: 'indexed', chunkCount: prepared.count, indexedAt: now, updatedAt: now })
        .where(eq(kbDocuments.id, doc.id));
    });
    result.storeMs += performance.now() - t2;
    result.chunks += prepared.count;
    for (const c of prepared.chunks) {
      result.tokens += c.tokenCount;
      result.terms += c.termCount;
    }
    for (const entries of prepared.termStats) result.documentTerms += (JSON.parse(entries) as unknown[]).length;
    if (++done % 100 === 0) progress(`${done}/${documents.length} documents, ${int(result.chunks)} chunks`);
  });
  result.wallMs = performance.now() - started;
  progress(null);
  return result;
}

/** The production path for the remaining documents: runDocumentIndexing with the GIN and HNSW indexes maintained on every insert. */
async function incrementalLoad(db: Db, documents: Seeded['documents']): Promise<{ chunks: number; wallMs: number }> {
  const ctx = serviceContext(db);
  let chunks = 0;
  const started = performance.now();
  await pool(documents, CONCURRENCY, async (doc) => {
    const outcome = await runDocumentIndexing(ctx, doc.id);
    if (outcome.status !== 'indexed') throw new Error(`Document ${doc.id} ended ${outcome.status}`);
    chunks += outcome.chunk_count ?? 0;
  });
  return { chunks, wallMs: performance.now() - started };
}

const GIN_INDEX = 'kb_chunks_terms_idx';

async function dropSearchIndexes(db: Db): Promise<void> {
  await db.execute(sql.raw(`drop index if exists ${vectorIndexName(DIMENSIONS)}`));
  await db.execute(sql.raw(`drop index if exists ${GIN_INDEX}`));
}

/** Recreates the GIN index on terms (as the migration defines it) and the HNSW index (ensureVectorIndex), timing each. */
async function buildSearchIndexes(db: Db): Promise<{ ginMs: number; hnswMs: number; workers: string }> {
  const withMemory = async (fn: (tx: DbOrTx) => Promise<void>) => {
    const started = performance.now();
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local maintenance_work_mem = '${MAINTENANCE_WORK_MEM.replace(/'/g, '')}'`));
      await fn(tx);
    });
    return performance.now() - started;
  };
  const ginMs = await withMemory((tx) => tx.execute(sql.raw(`create index ${GIN_INDEX} on kb_chunks using gin (terms)`)).then(() => {}));
  const hnswMs = await withMemory((tx) => ensureVectorIndex(tx, DIMENSIONS));
  const [row] = await queryRows<{ workers: string }>(db, sql`select current_setting('max_parallel_maintenance_workers') as workers`);
  return { ginMs, hnswMs, workers: row.workers };
}

// ---------------------------------------------------------------------------------------------
// Search variants

/** Mirrors the service's snapshot transaction. */
function inSnapshot<T>(db: Db, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

interface SqlContext {
  db: Db;
  kb: KnowledgeBaseRow;
  scope: SearchScope;
  exact: boolean;
  timings: Timings;
  /** Step timings are recorded under this prefix; null while warming up. */
  prefix: string | null;
}

const step = (c: SqlContext, name: string) => (c.prefix ? `${c.prefix}${name}` : null);

/**
 * The SQL of a semantic search as the service issues it — the knowledge base read, then in one
 * read-only snapshot the knowledge base and its statistics, vectorCandidates and chunkDetails —
 * with the query already embedded.
 */
async function sqlSemantic(c: SqlContext, vector: string): Promise<number> {
  await c.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
  return inSnapshot(c.db, async (tx) => {
    await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
    await queryRows(tx, sql`select chunk_total from kb_index_stats where kb_id = ${c.kb.id} and generation = ${c.kb.generation}`);
    const hits = await c.timings.time(step(c, 'vectorCandidates'), () => vectorCandidates(tx, c.scope, vector, TOP_K, { exact: c.exact }));
    const details = await c.timings.time(step(c, 'chunkDetails'), () => chunkDetails(tx, hits.map((h) => h.id)));
    return details.size;
  });
}

/**
 * The SQL of a hybrid search as the service issues it, with the query already embedded (the
 * fusion itself is JavaScript: chunkDetails reads as many rows as the fused top k).
 */
async function sqlHybrid(c: SqlContext, query: string, vector: string): Promise<number> {
  const limit = Math.min(400, Math.max(50, TOP_K * 4));
  await c.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
  return inSnapshot(c.db, async (tx) => {
    await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
    await queryRows(tx, sql`select chunk_total from kb_index_stats where kb_id = ${c.kb.id} and generation = ${c.kb.generation}`);
    const keyword = await c.timings.time(step(c, 'prepareKeywordQuery'), () => prepareKeywordQuery(tx, c.scope, query));
    const vectorHits = await c.timings.time(step(c, 'vectorCandidates'), () => vectorCandidates(tx, c.scope, vector, limit, { exact: c.exact }));
    const keywordHits = keyword ? await c.timings.time(step(c, 'keywordCandidates'), () => keywordCandidates(tx, c.scope, keyword, limit)) : [];
    const vectorIds = new Set(vectorHits.map((h) => h.id));
    const keywordIds = new Set(keywordHits.map((h) => h.id));
    const ids = [...new Set([...vectorIds, ...keywordIds])];
    await c.timings.time(step(c, 'vectorScores'), () => vectorScores(tx, ids.filter((id) => !vectorIds.has(id)), vector));
    if (keyword) await c.timings.time(step(c, 'keywordScores'), () => keywordScores(tx, ids.filter((id) => !keywordIds.has(id)), keyword));
    const details = await c.timings.time(step(c, 'chunkDetails'), () => chunkDetails(tx, ids.slice(0, TOP_K)));
    return details.size;
  });
}

async function request(server: RunningServer, method: 'GET' | 'POST', route: string, key: string | null, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${route}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** An API key stored in the database with the search scope only: authenticated and rate-limited through the database. */
async function createSearchKey(server: RunningServer): Promise<string> {
  const created = await request(server, 'POST', '/v1/api-keys', ADMIN_KEY, { name: 'bench-search', scopes: ['kb:search'] });
  return String(created.key);
}

const VARIANTS = [
  'HTTP semantic',
  'HTTP hybrid',
  'HTTP semantic, db key',
  'HTTP GET /health',
  'service semantic',
  'service hybrid',
  'SQL semantic',
  'SQL hybrid',
] as const;
type Variant = (typeof VARIANTS)[number];

/**
 * Every query through every variant, in an order rotating per query so caches favour none of
 * them. "db key" uses a database-stored API key instead of QUARRY_ADMIN_KEY (one more lookup and
 * the rate-limit counter write per request); GET /health is the bare HTTP round trip.
 */
async function measureSearches(
  server: RunningServer,
  sqlContext: SqlContext,
  embedder: EmbeddingProvider,
  queries: string[],
  warmup: number,
): Promise<{ timings: Timings; results: Map<Variant, number> }> {
  const { kb, timings } = sqlContext;
  const ctx = serviceContext(sqlContext.db);
  const results = new Map<Variant, number>();
  const searchKey = await createSearchKey(server);
  const total = (r: Record<string, unknown>) => Number(r.total ?? 0);
  const run: Record<Variant, (q: string, vector: string) => Promise<number>> = {
    'HTTP semantic': async (q) => total(await request(server, 'POST', `/v1/knowledge-bases/${kb.id}/search`, ADMIN_KEY, { query: q, top_k: TOP_K })),
    'HTTP hybrid': async (q) =>
      total(await request(server, 'POST', `/v1/knowledge-bases/${kb.id}/hybrid-search`, ADMIN_KEY, { query: q, top_k: TOP_K })),
    'HTTP semantic, db key': async (q) =>
      total(await request(server, 'POST', `/v1/knowledge-bases/${kb.id}/search`, searchKey, { query: q, top_k: TOP_K })),
    'HTTP GET /health': async () => (await request(server, 'GET', '/health', null), 0),
    'service semantic': async (q) => (await searchKnowledgeBase(ctx, kb.id, { query: q, top_k: TOP_K })).total,
    'service hybrid': async (q) =>
      (await hybridSearchKnowledgeBase(ctx, kb.id, { query: q, top_k: TOP_K, vector_weight: VECTOR_WEIGHT, keyword_weight: KEYWORD_WEIGHT })).total,
    'SQL semantic': (_q, vector) => sqlSemantic(sqlContext, vector),
    'SQL hybrid': (q, vector) => sqlHybrid(sqlContext, q, vector),
  };
  for (let i = 0; i < queries.length; i++) {
    const measured = i >= warmup;
    const [embedded] = await embedder.embed([queries[i]]);
    const vector = toVectorLiteral(embedded);
    for (let k = 0; k < VARIANTS.length; k++) {
      const variant = VARIANTS[(i + k) % VARIANTS.length];
      sqlContext.prefix = measured ? `${variant}: ` : null;
      const found = await timings.time(measured ? variant : null, () => run[variant](queries[i], vector));
      if (measured) results.set(variant, (results.get(variant) ?? 0) + found);
    }
    if (measured && (i - warmup + 1) % 20 === 0) progress(`${i - warmup + 1}/${queries.length - warmup} queries`);
  }
  progress(null);
  sqlContext.prefix = null;
  return { timings, results };
}

/** hnsw.ef_search values tried; vectorCandidates itself uses max(40, 2 × limit): 40 for top 10, 100 for hybrid's 50 candidates. */
const EF_SEARCH_SWEEP = [40, 100, 200, 400];

interface RecallRow {
  efSearch: number;
  recall: number;
  p50: number;
}

/**
 * Share of the exact top 10 (an exact scan, as vectorCandidates runs it for small knowledge
 * bases) that the HNSW query finds, for several ef_search values: vectorCandidates' own HNSW SQL
 * is recorded and run again with only the ef_search setting changed.
 */
async function hnswRecall(c: SqlContext, embedder: EmbeddingProvider, queries: string[]): Promise<{ rows: RecallRow[]; exactMs: number[] }> {
  const exactMs: number[] = [];
  const found = new Map<number, number>(EF_SEARCH_SWEEP.map((ef) => [ef, 0]));
  const latency = new Map<number, number[]>(EF_SEARCH_SWEEP.map((ef) => [ef, []]));
  let total = 0;
  for (const q of queries) {
    const vector = toVectorLiteral((await embedder.embed([q]))[0]);
    const started = performance.now();
    const exact = await vectorCandidates(c.db, c.scope, vector, TOP_K, { exact: true });
    exactMs.push(performance.now() - started);
    total += exact.length;
    const log: SQL[] = [];
    await vectorCandidates(recording(c.db, log), c.scope, vector, TOP_K, { exact: false });
    const [, ...rest] = log;
    for (const ef of EF_SEARCH_SWEEP) {
      const t0 = performance.now();
      const rows = await c.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local hnsw.ef_search = ${ef}`));
        for (const statement of rest.slice(0, -1)) await tx.execute(statement);
        return queryRows<{ id: string }>(tx, rest[rest.length - 1]);
      });
      latency.get(ef)!.push(performance.now() - t0);
      const ids = new Set(rows.map((r) => r.id));
      found.set(ef, found.get(ef)! + exact.filter((h) => ids.has(h.id)).length);
    }
  }
  const rows = EF_SEARCH_SWEEP.map((ef) => ({ efSearch: ef, recall: total === 0 ? NaN : found.get(ef)! / total, p50: percentile(latency.get(ef)!, 50) }));
  return { rows, exactMs };
}

/**
 * Mean cosine similarity of 200 × 200 chunk pairs. Unrelated texts should be near 0; a large mean
 * says every vector shares one direction, which leaves HNSW little to navigate by.
 */
async function meanPairSimilarity(db: Db): Promise<number> {
  const [row] = await queryRows<{ mean: number }>(
    db,
    sql`select avg(1 - (a.embedding <=> b.embedding)) as mean
        from (select embedding from kb_chunks order by md5(id) limit 200) a
        cross join (select embedding from kb_chunks order by md5(id || 'b') limit 200) b`,
  );
  return Number(row.mean);
}

// ---------------------------------------------------------------------------------------------
// Query plans

/** A handle that records every statement the lib functions run through it (inside their transactions too). */
function recording(db: DbOrTx, log: SQL[]): DbOrTx {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'execute') {
        return (query: SQL) => {
          log.push(query);
          return (target as Db).execute(query);
        };
      }
      if (prop === 'transaction') {
        return (fn: (tx: DbOrTx) => Promise<unknown>, config?: unknown) =>
          (target as Db).transaction((tx) => fn(recording(tx, log)), config as never);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Runs the recorded statements again in one transaction, the last one under EXPLAIN (ANALYZE, BUFFERS). */
async function explainRecorded(db: Db, statements: SQL[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    for (const statement of statements.slice(0, -1)) await tx.execute(statement);
    const rows = await queryRows<{ 'QUERY PLAN': string }>(tx, sql`explain (analyze, buffers) ${statements[statements.length - 1]}`);
    return rows.map((r) => r['QUERY PLAN']);
  });
}

/** The plan of whatever the function runs last, with the function's own SQL. */
async function explainCall(db: Db, fn: (handle: DbOrTx) => Promise<unknown>): Promise<string[]> {
  const log: SQL[] = [];
  await fn(recording(db, log));
  return explainRecorded(db, log);
}

function planSummary(plan: string[]): { indexes: string[]; executionMs: string; rows: string } {
  const indexes = new Set<string>();
  for (const line of plan) {
    const m = /(?:Index Scan|Index Only Scan|Bitmap Index Scan) (?:Backward )?(?:using|on) (\S+)/.exec(line);
    if (m) indexes.add(m[1]);
  }
  const executionMs = /Execution Time: ([\d.]+) ms/.exec(plan.join('\n'))?.[1] ?? '?';
  const scan = plan.find((line) => /(?:Seq Scan|Bitmap Heap Scan) on kb_chunks/.test(line)) ?? '';
  const rows = /actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(scan)?.[1] ?? '-';
  return { indexes: [...indexes], executionMs, rows };
}

// ---------------------------------------------------------------------------------------------
// Report

function printLatencies(timings: Timings): void {
  console.log(`\nSearch latency (${int(QUERIES)} queries of 2–5 words, sequential, top_k ${TOP_K}; ms)`);
  console.log(`  ${''.padEnd(20)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'mean'.padStart(8)}`);
  for (const v of VARIANTS) {
    console.log(`  ${v.padEnd(20)} ${fmt(timings.p(v, 50), 2).padStart(8)} ${fmt(timings.p(v, 99), 2).padStart(8)} ${fmt(timings.mean(v), 2).padStart(8)}`);
  }
  console.log('  lib/search steps inside the SQL runs:');
  for (const [name] of timings.samples) {
    if (!name.includes(': ')) continue;
    console.log(
      `    ${name.padEnd(38)} ${fmt(timings.p(name, 50), 2).padStart(8)} ${fmt(timings.p(name, 99), 2).padStart(8)} ${fmt(timings.mean(name), 2).padStart(8)}`,
    );
  }
}

async function main() {
  const runStarted = performance.now();
  console.log('Building the production bundle if needed...');
  ensureBuild({ quiet: true });

  await recreateDatabase(DATABASE_URL, false);
  const handle = await openDatabase({ url: DATABASE_URL });
  const { db } = handle;
  let server: RunningServer | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-search-'));
  try {
    const random = prng(SEED);
    const vocabulary = new Vocabulary(random);
    const plan = sectionPlan(CHUNKS, random);
    const queries = makeQueries(vocabulary, QUERIES + WARMUP_QUERIES, random);
    const recallQueries = makeQueries(vocabulary, RECALL_QUERIES, random);

    let started = performance.now();
    const seeded = await seed(db, new CorpusWriter(vocabulary, SEED + 1), plan);
    const { kb } = seeded;
    const embedder = embedderFor(kb);
    const incremental = seeded.documents.slice(seeded.documents.length - Math.min(INCREMENTAL_DOCS, seeded.documents.length - 1));
    const bulk = seeded.documents.slice(0, seeded.documents.length - incremental.length);
    console.log(
      `\nCorpus: ${int(plan.length)} Markdown documents (${fmt(seeded.chars / 1e6)} M characters), ${int(vocabulary.words.length)} distinct words ` +
        `(Zipf s=${ZIPF_S}), seeded in ${seconds(performance.now() - started)}`,
    );
    console.log(
      `Knowledge base ${kb.id}: ${kb.embeddingProvider}/${kb.embeddingModel} (${kb.embeddingDimensions} dimensions), ` +
        `${kb.chunkingStrategy.type} chunks of ${kb.chunkingStrategy.chunk_size} tokens`,
    );

    console.log(`\nIndexing (concurrency ${CONCURRENCY})`);
    await dropSearchIndexes(db);
    const cpuBefore = await cpuSnapshot(db);
    const load = await bulkLoad(db, kb, embedder, bulk);
    const cpu = cpuBetween(cpuBefore, await cpuSnapshot(db));
    const loadRate = load.chunks / (load.wallMs / 1000);
    console.log(
      `  bulk load, GIN and HNSW indexes dropped: ${int(bulk.length)} documents, ${int(load.chunks)} chunks ` +
        `(mean ${int(load.tokens / load.chunks)} tokens, ${int(load.terms / load.chunks)} terms) in ${seconds(load.wallMs)}: ` +
        `${int(loadRate)} chunks/s (goal >= 1,000: ${verdict(loadRate >= 1000)})`,
    );
    const perChunk = (secondsUsed: number) => `${int((secondsUsed * 1e6) / load.chunks)} µs/chunk`;
    console.log(
      `    CPU: this process ${fmt(cpu.node)} s = ${int((cpu.node / (load.wallMs / 1000)) * 100)}% of its one JavaScript thread ` +
        `(prepareChunks ${fmt(load.prepareCpuMs / 1000)} s, ${perChunk(load.prepareCpuMs / 1000)}, alone at most ${int(load.chunks / (load.prepareCpuMs / 1000))} chunks/s; ` +
        `the rest — Markdown reads, SQL building, driver — ${perChunk(cpu.node - load.prepareCpuMs / 1000)}); ` +
        `PostgreSQL backends ${fmt(cpu.postgres)} s (${perChunk(cpu.postgres)}); other processes ${fmt(cpu.others)} s`,
    );
    console.log(
      `    storing transactions (insertChunks + document update): ${seconds(load.storeMs)} summed wall time; ` +
        `${int(load.documentTerms / bulk.length)} distinct terms per document upserted into kb_term_stats; ` +
        `${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => fmt(l, 2)).join(' ')}`,
    );
    const [termStats] = await queryRows<{ live: string; dead: string; updates: string; hot: string; size: string }>(
      db,
      sql`select n_live_tup::text as live, n_dead_tup::text as dead, n_tup_upd::text as updates, n_tup_hot_upd::text as hot,
                 pg_size_pretty(pg_total_relation_size('kb_term_stats')) as size
          from pg_stat_user_tables where relname = 'kb_term_stats'`,
    );
    console.log(
      `    kb_term_stats after the load: ${int(Number(termStats.live))} live rows, ${int(Number(termStats.dead))} dead, ` +
        `${int(Number(termStats.updates))} updates (${int(Number(termStats.hot))} HOT), ${termStats.size} with its index`,
    );
    const built = await buildSearchIndexes(db);
    console.log(
      `  index build: GIN on terms ${seconds(built.ginMs)}, HNSW ${vectorIndexName(DIMENSIONS)} ${seconds(built.hnswMs)} ` +
        `(maintenance_work_mem ${MAINTENANCE_WORK_MEM}, max_parallel_maintenance_workers ${built.workers})`,
    );
    const untilSearchable = load.wallMs + built.ginMs + built.hnswMs;
    console.log(`  load + index build: ${seconds(untilSearchable)} = ${int(load.chunks / (untilSearchable / 1000))} chunks/s`);

    const incCpuBefore = await cpuSnapshot(db);
    const inc = await incrementalLoad(db, incremental);
    const incCpu = cpuBetween(incCpuBefore, await cpuSnapshot(db));
    console.log(
      `  runDocumentIndexing with both indexes in place (the background workflow's path): ${int(incremental.length)} documents, ` +
        `${int(inc.chunks)} chunks in ${seconds(inc.wallMs)} = ${int(inc.chunks / (inc.wallMs / 1000))} chunks/s ` +
        `(CPU: this process ${fmt(inc.chunks ? (incCpu.node * 1e6) / inc.chunks : 0, 0)} µs/chunk, PostgreSQL ${fmt(inc.chunks ? (incCpu.postgres * 1e6) / inc.chunks : 0, 0)} µs/chunk)`,
    );
    started = performance.now();
    await db.execute(sql`vacuum analyze kb_chunks`);
    await db.execute(sql`analyze`);
    const [sizes] = await queryRows<{ chunks: string; table: string; hnsw: string; gin: string; terms: string }>(
      db,
      sql`select (select count(*) from kb_chunks)::text as chunks,
                 pg_size_pretty(pg_table_size('kb_chunks')) as table,
                 pg_size_pretty(pg_relation_size(${vectorIndexName(DIMENSIONS)}::regclass)) as hnsw,
                 pg_size_pretty(pg_relation_size(${GIN_INDEX}::regclass)) as gin,
                 (select count(*) from kb_term_stats)::text as terms`,
    );
    console.log(
      `  VACUUM ANALYZE ${seconds(performance.now() - started)}; kb_chunks ${int(Number(sizes.chunks))} rows, ${sizes.table}; ` +
        `HNSW ${sizes.hnsw}; GIN ${sizes.gin}; ${int(Number(sizes.terms))} distinct terms`,
    );

    const [current] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kb.id));
    const scope: SearchScope = { kbId: kb.id, generation: current.generation, dimensions: current.embeddingDimensions, conditions: [] };
    const exactMax = Number(process.env.QUARRY_SEARCH_EXACT_MAX_CHUNKS ?? 10_000);
    const sqlContext: SqlContext = { db, kb: current, scope, exact: Number(sizes.chunks) <= exactMax, timings: new Timings(), prefix: null };

    console.log('\nStarting the production server on the same database...');
    server = await runServer({
      env: { DATABASE_URL, QUARRY_DATA_DIR: dataDir, QUARRY_ADMIN_KEY: ADMIN_KEY, QUARRY_RATE_LIMIT_PER_MINUTE: '100000000' },
    });
    const measured = await measureSearches(server, sqlContext, embedder, queries, WARMUP_QUERIES);
    printLatencies(measured.timings);
    const hits = VARIANTS.filter((v) => !v.includes('/health')).map((v) => `${v} ${fmt((measured.results.get(v) ?? 0) / QUERIES)}`).join(', ');
    console.log(`  mean results per query: ${hits}`);

    const recall = await hnswRecall(sqlContext, embedder, recallQueries);
    console.log(`\nHNSW recall@${TOP_K} against an exact scan (${RECALL_QUERIES} queries; exact scan p50 ${fmt(percentile(recall.exactMs, 50), 2)} ms)`);
    for (const r of recall.rows) {
      console.log(`  ef_search ${String(r.efSearch).padStart(3)}: recall ${fmt(r.recall * 100).padStart(5)}%, p50 ${fmt(r.p50, 2)} ms${r.efSearch === 40 ? ' (what top_k 10 uses)' : ''}`);
    }
    console.log(`  mean cosine similarity of random chunk pairs: ${fmt(await meanPairSimilarity(db), 3)}`);

    console.log('\nQuery plans (EXPLAIN ANALYZE of the lib/search SQL):');
    const sampled = makeQueries(vocabulary, 1, prng(SEED + 2))[0];
    const sampleVector = toVectorLiteral((await embedder.embed([sampled]))[0]);
    const semanticPlan = await explainCall(db, (h) => vectorCandidates(h, scope, sampleVector, TOP_K, { exact: sqlContext.exact }));
    const s = planSummary(semanticPlan);
    console.log(
      `  vectorCandidates top ${TOP_K} ("${sampled}"): index ${s.indexes.join(', ') || 'none'} ` +
        `(${s.indexes.includes(vectorIndexName(DIMENSIONS)) ? 'HNSW used' : 'HNSW NOT used'}), execution ${s.executionMs} ms`,
    );
    const keywordPlans: [string, string][] = [
      ['frequent words', vocabulary.words.slice(STOPWORDS.length, STOPWORDS.length + 3).join(' ')],
      ['middle words', vocabulary.words.slice(1000, 1003).join(' ')],
      ['rare words', vocabulary.words.slice(15_000, 15_003).join(' ')],
      ['sampled query', sampled],
    ];
    let worstPlan: string[] = [];
    let worstMs = -1;
    for (const [label, q] of keywordPlans) {
      const keyword = (await prepareKeywordQuery(db, scope, q)) as KeywordQuery;
      if (!keyword) continue;
      const p = await explainCall(db, (h) => keywordCandidates(h, scope, keyword, 50));
      const k = planSummary(p);
      console.log(
        `  keywordCandidates top 50, ${label} ("${q}"): ${k.rows} matching chunks scored, index ${k.indexes.join(', ') || 'none'}, execution ${k.executionMs} ms`,
      );
      if (Number(k.executionMs) > worstMs) {
        worstMs = Number(k.executionMs);
        worstPlan = p;
      }
    }
    console.log('  slowest keyword plan:');
    for (const line of worstPlan) console.log(`    ${line}`);

    const t = measured.timings;
    console.log('\nGoals');
    for (const kind of ['semantic', 'hybrid'] as const) {
      const httpP99 = t.p(`HTTP ${kind}`, 99);
      const sqlP99 = t.p(`SQL ${kind}`, 99);
      const serviceP99 = t.p(`service ${kind}`, 99);
      console.log(
        `  ${kind}: HTTP p99 ${fmt(httpP99, 2)} ms <= SQL p99 ${fmt(sqlP99, 2)} + 5 ms: ${verdict(httpP99 <= sqlP99 + 5)} ` +
          `(vs the service function: ${fmt(serviceP99, 2)} + 5 ms: ${verdict(httpP99 <= serviceP99 + 5)})`,
      );
    }
    const ratio = t.p('HTTP hybrid', 99) / t.p('HTTP semantic', 99);
    console.log(`  hybrid p99 <= 2x semantic p99 (HTTP): ${fmt(ratio, 2)}x: ${verdict(ratio <= 2)}`);
    console.log(`  indexing >= 1,000 chunks/s (bulk load, builtin embedder): ${int(loadRate)} chunks/s: ${verdict(loadRate >= 1000)}`);
    console.log(`\nTotal run time ${seconds(performance.now() - runStarted)}`);
  } finally {
    await server?.stop();
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!KEEP) await recreateDatabase(DATABASE_URL, true);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
