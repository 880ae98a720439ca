// npm run bench:retrieval — retrieval quality of the knowledge-base search modes on a BEIR SciFact
// subset, ingested and queried through the HTTP API of the production server: nDCG@10, recall@10
// and MRR@10 per mode, the ingest time and the median query latency.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { ensureBuild } from './lib/ensure-build.mjs';
import { runServer, type RunningServer } from './lib/run-server.mjs';
import { apiClient, mapLimit, type Api } from './lib/bench-http';

/** Datasets: BEIR-style folders (corpus.jsonl, queries.jsonl, qrels/*.tsv) given as arguments, else the SciFact slice. */
const DATASET_DIRS = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [path.join(FIXTURES_DIR, 'retrieval', 'scifact_train50')];
const ADMIN = 'sk_test_benchmarkadministratorkey00000001';
const TOP_K = Number(process.env.BENCH_TOP_K ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const CUTOFF = 10;
const KEYWORD_GOAL = 0.6;
/** Abort indexing when the indexed count has not moved for this long. */
const INDEXING_STALL_MS = 180_000;
const EXTRACTION_TIMEOUT_MS = 120_000;

interface CorpusDoc {
  _id: string;
  title: string;
  text: string;
}

interface Query {
  _id: string;
  text: string;
}

/** query id → corpus id → graded relevance (only grades above 0). */
type Qrels = Map<string, Map<string, number>>;

interface Chunk {
  id: string;
  document_id: string;
  score: number;
  metadata: Record<string, unknown>;
}

interface Mode {
  name: string;
  path: 'search' | 'hybrid-search';
  options: { vector_weight?: number; keyword_weight?: number; fusion?: string };
}

const FUSIONS = ['min_max', 'dbsf', 'rrf', 'weighted'];

/** The modes compared: each side alone, hybrid as it comes, then each fusion method with the default weights. */
const MODES: Mode[] = [
  { name: 'semantic', path: 'search', options: {} },
  { name: 'keyword', path: 'hybrid-search', options: { vector_weight: 0, keyword_weight: 1 } },
  { name: 'hybrid', path: 'hybrid-search', options: {} },
  ...FUSIONS.map((fusion): Mode => ({ name: `hybrid ${fusion}`, path: 'hybrid-search', options: { fusion } })),
];

/**
 * BENCH_SWEEP=1 adds every fusion method at keyword weights 0.1 … 0.9 (or the comma-separated
 * BENCH_SWEEP_WEIGHTS; BENCH_SWEEP_FUSIONS narrows the methods), to choose the defaults by measurement.
 */
const SWEEP_WEIGHTS = (process.env.BENCH_SWEEP_WEIGHTS ?? '0.1,0.3,0.5,0.7,0.9').split(',').map(Number);
const SWEEP: Mode[] =
  process.env.BENCH_SWEEP === '1'
    ? (process.env.BENCH_SWEEP_FUSIONS?.split(',') ?? FUSIONS).flatMap((fusion) =>
        SWEEP_WEIGHTS.map((kw): Mode => ({
          name: `${fusion} k=${kw}`,
          path: 'hybrid-search',
          options: { fusion, keyword_weight: kw, vector_weight: Number((1 - kw).toFixed(2)) },
        })),
      )
    : [];

interface ModeResult {
  ndcg: number;
  recall: number;
  mrr: number;
  p50Ms: number;
}

/** Parses a JSON Lines file. */
function readJsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Reads a BEIR qrels TSV (header line, then query-id, corpus-id, score), keeping positive grades. */
function readQrels(file: string): Qrels {
  const qrels: Qrels = new Map();
  const lines = fs.readFileSync(file, 'utf8').split('\n').slice(1);
  for (const line of lines) {
    if (line.trim() === '') continue;
    const [queryId, corpusId, score] = line.split('\t');
    const grade = Number(score);
    if (!(grade > 0)) continue;
    if (!qrels.has(queryId)) qrels.set(queryId, new Map());
    qrels.get(queryId)!.set(corpusId, grade);
  }
  return qrels;
}

/** nDCG at `k` with linear gain (trec_eval / BEIR); the ideal ranking comes from the judgments. */
function ndcgAt(ranked: string[], judged: Map<string, number>, k: number): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + (judged.get(id) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...judged.values()]
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + grade / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Share of the relevant documents found in the first `k`. */
function recallAt(ranked: string[], judged: Map<string, number>, k: number): number {
  const found = ranked.slice(0, k).filter((id) => judged.has(id)).length;
  return found / judged.size;
}

/** Reciprocal rank of the first relevant document within the first `k`, else 0. */
function mrrAt(ranked: string[], judged: Map<string, number>, k: number): number {
  const index = ranked.slice(0, k).findIndex((id) => judged.has(id));
  return index < 0 ? 0 : 1 / (index + 1);
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small client for the JSON API that throws with the request and response on any non-2xx answer. */
/** Waits until an extraction has completed; throws when it fails or takes too long. */
async function awaitExtraction(api: Api, extractionId: string, label: string): Promise<void> {
  const deadline = Date.now() + EXTRACTION_TIMEOUT_MS;
  for (;;) {
    const extraction = await api.get<{ status: string }>(`/v1/extractions/${extractionId}`);
    if (extraction.status === 'completed') return;
    if (extraction.status === 'failed') {
      throw new Error(`extraction ${extractionId} of ${label} failed: ${JSON.stringify(extraction)}`);
    }
    if (Date.now() > deadline) throw new Error(`extraction ${extractionId} of ${label} still ${extraction.status} after ${EXTRACTION_TIMEOUT_MS} ms`);
    await sleep(100);
  }
}

/** Uploads one corpus document as Markdown, extracts it and adds it to the knowledge base. */
async function ingestDocument(api: Api, kbId: string, doc: CorpusDoc): Promise<void> {
  const form = new FormData();
  form.set('file', new Blob([`# ${doc.title}\n\n${doc.text}\n`], { type: 'text/markdown' }), `${doc._id}.md`);
  const file = await api.post<{ id: string }>('/v1/files', form);
  const extraction = await api.post<{ id: string }>('/v1/extractions', { file_id: file.id, mode: 'simple' });
  await awaitExtraction(api, extraction.id, `${doc._id}.md`);
  await api.post(`/v1/knowledge-bases/${kbId}/documents`, { file_id: file.id, metadata: { corpus_id: doc._id } });
}

/** Number of knowledge-base documents in a status. */
async function countDocuments(api: Api, kbId: string, status: string): Promise<number> {
  const page = await api.get<{ total: number }>(`/v1/knowledge-bases/${kbId}/documents?status=${status}&limit=1`);
  return page.total;
}

/** Waits until `expected` documents are indexed; throws on failed documents or a stalled index. */
async function awaitIndexing(api: Api, kbId: string, expected: number): Promise<void> {
  let indexed = -1;
  let lastProgress = Date.now();
  let lastReport = 0;
  for (;;) {
    const failed = await countDocuments(api, kbId, 'failed');
    if (failed > 0) {
      const page = await api.get<{ items: unknown[] }>(`/v1/knowledge-bases/${kbId}/documents?status=failed&limit=3`);
      throw new Error(`${failed} documents failed to index, e.g. ${JSON.stringify(page.items)}`);
    }
    const now = await countDocuments(api, kbId, 'indexed');
    if (now >= expected) return;
    if (now !== indexed) {
      indexed = now;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress > INDEXING_STALL_MS) {
      throw new Error(`indexing stalled at ${indexed}/${expected} documents for ${INDEXING_STALL_MS / 1000} s`);
    }
    if (Date.now() - lastReport > 5000) {
      console.log(`  indexed ${indexed}/${expected}`);
      lastReport = Date.now();
    }
    await sleep(250);
  }
}

/** Ingests the corpus into a new knowledge base; returns its id and the two phase durations in seconds. */
async function ingest(api: Api, name: string, corpus: CorpusDoc[]): Promise<{ kbId: string; embedding: unknown; addSeconds: number; indexSeconds: number }> {
  const kb = await api.post<{ id: string; embedding: unknown }>('/v1/knowledge-bases', { name });
  const started = performance.now();
  let done = 0;
  await mapLimit(corpus, CONCURRENCY, async (doc) => {
    await ingestDocument(api, kb.id, doc);
    done++;
    if (done % 100 === 0 || done === corpus.length) console.log(`  uploaded, extracted and added ${done}/${corpus.length}`);
  });
  const added = performance.now();
  await awaitIndexing(api, kb.id, corpus.length);
  const indexed = performance.now();
  return { kbId: kb.id, embedding: kb.embedding, addSeconds: (added - started) / 1000, indexSeconds: (indexed - added) / 1000 };
}

/** Runs one search and returns the distinct corpus ids in rank order (each document at its best chunk). */
async function rankedCorpusIds(api: Api, kbId: string, mode: Mode, query: string): Promise<string[]> {
  const result = await api.post<{ chunks: Chunk[] }>(`/v1/knowledge-bases/${kbId}/${mode.path}`, { query, top_k: TOP_K, ...mode.options });
  const ranked: string[] = [];
  for (const chunk of result.chunks) {
    const corpusId = chunk.metadata?.corpus_id;
    if (typeof corpusId !== 'string') throw new Error(`${mode.name} search returned a chunk without metadata.corpus_id: ${JSON.stringify(chunk)}`);
    if (!ranked.includes(corpusId)) ranked.push(corpusId);
    if (ranked.length === CUTOFF) break;
  }
  return ranked;
}

/** Scores one mode over the judged queries, one request at a time so latencies are not contended. */
async function evaluateMode(api: Api, kbId: string, mode: Mode, queries: Query[], qrels: Qrels): Promise<ModeResult> {
  await rankedCorpusIds(api, kbId, mode, queries[0].text);
  const ndcg: number[] = [];
  const recall: number[] = [];
  const mrr: number[] = [];
  const latencies: number[] = [];
  for (const query of queries) {
    const judged = qrels.get(query._id)!;
    const started = performance.now();
    const ranked = await rankedCorpusIds(api, kbId, mode, query.text);
    latencies.push(performance.now() - started);
    ndcg.push(ndcgAt(ranked, judged, CUTOFF));
    recall.push(recallAt(ranked, judged, CUTOFF));
    mrr.push(mrrAt(ranked, judged, CUTOFF));
  }
  return { ndcg: mean(ndcg), recall: mean(recall), mrr: mean(mrr), p50Ms: median(latencies) };
}

/** Prints the results table, whether the keyword goal is met, and whether hybrid beats both halves. */
function report(results: Map<string, ModeResult>): boolean {
  console.log(`${'mode'.padEnd(16)} ${'nDCG@10'.padStart(7)}  ${'recall@10'.padStart(9)}  ${'MRR@10'.padStart(6)}  ${'p50 ms'.padStart(6)}`);
  for (const [name, r] of results) {
    console.log(
      `${name.padEnd(16)} ${r.ndcg.toFixed(3).padStart(7)}  ${r.recall.toFixed(3).padStart(9)}  ${r.mrr.toFixed(3).padStart(6)}  ${r.p50Ms.toFixed(1).padStart(6)}`,
    );
  }
  const keyword = results.get('keyword')!.ndcg;
  const better = Math.max(keyword, results.get('semantic')!.ndcg);
  const hybrid = results.get('hybrid')!.ndcg;
  console.log(`keyword nDCG@10 goal >= ${KEYWORD_GOAL.toFixed(2)}: ${keyword >= KEYWORD_GOAL ? 'met' : 'NOT met'}`);
  console.log(`hybrid (default) nDCG@10 ${hybrid.toFixed(3)} vs the better half ${better.toFixed(3)}: ${hybrid >= better - 1e-9 ? 'not worse' : 'WORSE'} (ratio ${(hybrid / better).toFixed(3)})`);
  return hybrid >= better - 1e-9;
}

/** The last lines of the server's output, for failure reports. */
function serverTail(server: RunningServer, lines = 40): string {
  return server.output().trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * The same queries as people type them in a hurry: in every other word of six letters or more
 * (chosen by a hash, so each run is the same), two inner letters swap places. Exact terms are lost
 * to BM25 there while most character n-grams survive, so the two halves carry different signal.
 */
function withTypos(queries: Query[]): Query[] {
  return queries.map((q) => {
    let n = 0;
    const text = q.text.replace(/\p{L}{6,}/gu, (word) => {
      let h = 2166136261;
      for (const ch of `${q._id}:${n++}:${word}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
      if ((h >>> 0) % 2 === 1) return word;
      const i = 2 + ((h >>> 8) % (word.length - 4));
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    });
    return { ...q, text };
  });
}

interface Dataset {
  name: string;
  corpus: CorpusDoc[];
  queryCount: number;
  queries: Query[];
  qrels: Qrels;
}

function readDataset(dir: string): Dataset {
  const corpus = readJsonl<CorpusDoc>(path.join(dir, 'corpus.jsonl'));
  const allQueries = readJsonl<Query>(path.join(dir, 'queries.jsonl'));
  const qrelsDir = path.join(dir, 'qrels');
  const qrelsFile = ['test.tsv', 'train.tsv', 'dev.tsv'].map((f) => path.join(qrelsDir, f)).find((f) => fs.existsSync(f));
  if (!qrelsFile) throw new Error(`no qrels/test.tsv, train.tsv or dev.tsv in ${dir}`);
  const qrels = readQrels(qrelsFile);
  const queries = allQueries.filter((q) => qrels.has(q._id));
  if (queries.length === 0) throw new Error(`no query in ${dir} has judgments`);
  return { name: path.basename(dir), corpus, queryCount: allQueries.length, queries, qrels };
}

async function main(): Promise<void> {
  const datasets = DATASET_DIRS.map(readDataset);
  console.log('Building the production bundle if needed...');
  ensureBuild({ quiet: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-retrieval-'));
  const env: Record<string, string> = { QUARRY_DATA_DIR: dataDir, QUARRY_ADMIN_KEY: ADMIN, QUARRY_RATE_LIMIT_PER_MINUTE: '100000000' };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  let server: RunningServer | undefined;
  let allMet = true;
  try {
    server = await runServer({ env });
    const api = apiClient(server.baseUrl, ADMIN);
    for (const dataset of datasets) {
      console.log(`\nIngesting ${dataset.name}: ${dataset.corpus.length} documents (database: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${CONCURRENCY} in flight)`);
      const { kbId, embedding, addSeconds, indexSeconds } = await ingest(api, dataset.name, dataset.corpus);
      for (const [label, queries] of [
        [dataset.name, dataset.queries],
        [`${dataset.name} with typos`, withTypos(dataset.queries)],
      ] as const) {
        const results = new Map<string, ModeResult>();
        for (const mode of [...MODES, ...SWEEP]) results.set(mode.name, await evaluateMode(api, kbId, mode, queries, dataset.qrels));
        console.log(`\n${label}: ${dataset.corpus.length} documents, ${dataset.queryCount} queries (${queries.length} with judgments)`);
        console.log(`embedding: ${JSON.stringify(embedding)}, top_k ${TOP_K}`);
        console.log(`ingest: upload+extract+add ${addSeconds.toFixed(1)} s, indexing ${indexSeconds.toFixed(1)} s more`);
        allMet = report(results) && allMet;
      }
    }
    console.log(`\nhybrid (default) not worse than the better half on every dataset: ${allMet ? 'yes' : 'NO'}`);
  } catch (err) {
    if (server) console.error(`\nServer output (last lines):\n${serverTail(server)}\n`);
    throw err;
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
