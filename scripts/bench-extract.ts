// npm run bench:extract — extraction speed against poppler's pdftotext and the tesseract CLI, and
// the quality of every fixture document against its reference Markdown: text similarity, heading
// recall (with level agreement) and table cell F1, per fixture and as the mean per folder.
// The large fixtures (a 619- and a 400-page PDF, an 872-page DOCX) and a generated 100-page report
// are timed as the server runs them (a worker started and warmed up as the server starts one, under
// the server's memory limit), with the peak memory of the extraction process and the server side's
// growth, the first progress report and the longest wait between reports, and pages/s as a share
// of pdftotext's.
// BENCH_PDF=/path/to/file.pdf also times that PDF (simple and normal mode, once each).
// BENCH_LARGE_RUNS (default 3): new workers each large document is timed in.
// BENCH_LARGE=0 leaves the large fixtures out; BENCH_ONLY=large runs only them (BENCH_ONLY takes a
// comma-separated list of the parts: speed, large, ocr, quality).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getConfig } from '@/lib/config';
import { extractDocument } from '@/lib/extraction/engine';
import { ExtractionWorkerPool } from '@/lib/extraction/pool';
import { createTesseractCliEngine, createTesseractJsEngine, probeTesseractCli } from '@/lib/extraction/ocr';
import { textSimilarity } from '@/lib/extraction/quality';
import { headingRecall, tableCellF1 } from '@/lib/extraction/structure-quality';
import type { ExtractionMode, ExtractResult } from '@/lib/extraction/types';
import { FILE_TYPES } from '@/lib/files/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { buildTextDocument } from '@/test/support/pdf-fixture';
import { buildStructuredReport } from '@/test/support/pdf-report-fixture';
import { processTree } from './lib/process-tree.mjs';

const PAGES = Number(process.env.BENCH_PAGES ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** New workers each large document is timed in (BENCH_LARGE_RUNS). */
const LARGE_RUNS = Math.max(1, Number(process.env.BENCH_LARGE_RUNS ?? 3));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-extract-'));

function mimeOf(file: string): string {
  const ext = path.extname(file).toLowerCase();
  const type = FILE_TYPES.find((t) => t.extension === ext);
  if (!type) throw new Error(`no type for ${file}`);
  return type.mime_type;
}

function extract(file: string, mode: ExtractionMode, language?: 'zh' | 'en' | 'ja' | 'ko'): Promise<ExtractResult> {
  return extractDocument({
    path: file,
    mimeType: mimeOf(file),
    extension: path.extname(file).toLowerCase(),
    mode,
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false, language },
    onProgress: () => {},
    signal: new AbortController().signal,
    maxPages: 100_000,
    tmpDir: tmp,
  });
}

async function best(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    fastest = Math.min(fastest, (performance.now() - started) / 1000);
  }
  return fastest;
}

function have(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/** The production path: the extraction worker process (and its page threads), as the server runs it. */
function extractInWorker(
  pool: ExtractionWorkerPool,
  file: string,
  mode: ExtractionMode,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<ExtractResult> {
  return pool.run({
    input: {
      path: file,
      mimeType: mimeOf(file),
      extension: path.extname(file).toLowerCase(),
      mode,
      options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
      maxPages: 100_000,
      tmpDir: tmp,
    },
    onProgress,
    signal: new AbortController().signal,
    // The server's own limit (QUARRY_EXTRACTION_MEMORY_MB): it sets the worker's heap size, and
    // with it how far V8 lets the heap grow between collections.
    limits: { timeoutMs: 600_000, memoryMb: getConfig().extraction.memoryMb },
  });
}

async function speed() {
  const pdf = path.join(tmp, `born-digital-${PAGES}.pdf`);
  fs.writeFileSync(pdf, buildTextDocument(PAGES));
  console.log(`\nBorn-digital PDF, ${PAGES} pages (best of ${RUNS}; in the extraction worker process as the server runs it)`);
  const rows: [string, number][] = [];
  const pool = new ExtractionWorkerPool();
  try {
    await pool.prestart(getConfig().extraction.memoryMb);
    for (const mode of ['simple', 'normal'] as const) {
      await extractInWorker(pool, pdf, mode); // a first run of this document, then the best of the next
      rows.push([`quarry ${mode}`, PAGES / (await best(RUNS, () => extractInWorker(pool, pdf, mode)))]);
    }
  } finally {
    await pool.close();
  }
  if (have('pdftotext')) {
    const poppler = PAGES / (await best(RUNS, () => spawnSync('pdftotext', ['-layout', pdf, '-'], { maxBuffer: 1 << 28 })));
    rows.push(['pdftotext', poppler]);
    for (const [name, pps] of rows) {
      const ratio = name === 'pdftotext' ? '' : `  ${((pps / poppler) * 100).toFixed(0)}% of pdftotext (goal >= 50%)`;
      console.log(`  ${name.padEnd(16)} ${pps.toFixed(1).padStart(8)} pages/s${ratio}`);
    }
  } else {
    for (const [name, pps] of rows) console.log(`  ${name.padEnd(16)} ${pps.toFixed(1).padStart(8)} pages/s`);
    console.log('  pdftotext not installed (apt-get install poppler-utils) — no comparison');
  }
}

async function ocrSpeed() {
  const scan = path.join(FIXTURES_DIR, 'ocr', 'phototest.tif');
  console.log('\nOCR seconds per page (phototest.tif, English)');
  const signal = new AbortController().signal;
  if (await probeTesseractCli()) {
    const raw = await best(RUNS, () => spawnSync('tesseract', [scan, 'stdout', '-l', 'eng'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' } }));
    const cli = createTesseractCliEngine(tmp);
    const ours = await best(RUNS, () => cli.recognizeImage(scan, 'en', signal));
    await cli.close();
    console.log(`  tesseract CLI (bare)        ${raw.toFixed(2)} s`);
    console.log(`  quarry, tesseract CLI       ${ours.toFixed(2)} s (${(ours / raw).toFixed(2)}x the bare CLI)`);
  } else {
    console.log('  tesseract CLI not installed (apt-get install tesseract-ocr) — no comparison');
  }
  const js = createTesseractJsEngine(tmp);
  await js.recognizeImage(scan, 'en', signal); // warm-up: worker and language data
  const wasm = await best(RUNS, () => js.recognizeImage(scan, 'en', signal));
  await js.close();
  console.log(`  quarry, tesseract.js        ${wasm.toFixed(2)} s`);
}

interface Sample {
  file: string;
  reference: string;
  goal?: number;
  mode?: ExtractionMode;
  language?: 'zh' | 'en' | 'ja' | 'ko';
}

function samples(): Sample[] {
  const list: Sample[] = [];
  const withRef = (dir: string, exts: string[], goal?: number) => {
    for (const name of fs.readdirSync(path.join(FIXTURES_DIR, dir))) {
      const ext = path.extname(name);
      if (!exts.includes(ext)) continue;
      const base = path.join(FIXTURES_DIR, dir, path.basename(name, ext));
      const reference = [`${base}.md`, `${base}.txt`].find((f) => fs.existsSync(f) && f !== path.join(FIXTURES_DIR, dir, name));
      if (reference) list.push({ file: path.join(FIXTURES_DIR, dir, name), reference, goal });
    }
  };
  withRef('pdf', ['.pdf']);
  withRef('docx', ['.docx'], 0.9);
  withRef('office', ['.xlsx', '.pptx', '.html']);
  withRef('ocr', ['.png', '.jpg', '.tif', '.webp']);
  for (const s of list) {
    if (s.file.endsWith('.pdf') && !s.file.includes('ocr_test')) s.goal = 0.95;
    if (s.file.includes('chinese_traditional')) s.language = 'zh';
    if (s.file.includes('manga')) s.language = 'ja';
  }
  return list;
}

function fmt(value: number | null, digits = 3): string {
  return value === null ? '—' : value.toFixed(digits);
}

function mean(values: (number | null)[]): number | null {
  const xs = values.filter((v): v is number => v !== null);
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

interface Scores {
  similarity: number | null;
  headings: number | null;
  levels: number | null;
  tables: number | null;
}

async function quality() {
  // A generated report with numbered and bold headings, running headers, ruled, partially ruled
  // and borderless tables (its reference Markdown is written with it), beside the fixtures.
  const report = buildStructuredReport();
  const generated = path.join(tmp, 'structured-report.pdf');
  fs.writeFileSync(generated, report.pdf);
  fs.writeFileSync(path.join(tmp, 'structured-report.md'), report.markdown);
  const list = [...samples(), { file: generated, reference: path.join(tmp, 'structured-report.md'), goal: 0.95 }];

  console.log('\nQuality against the reference Markdown (normal mode): text similarity, heading recall (found/total),');
  console.log('heading level agreement, table cell F1; "—" where the reference has no headings / tables');
  console.log(`  ${'fixture'.padEnd(38)} ${'similarity'.padStart(10)} ${'headings'.padStart(12)} ${'levels'.padStart(7)} ${'table F1'.padStart(9)}`);
  const byFolder = new Map<string, Scores[]>();
  for (const sample of list) {
    const name = sample.file === generated ? 'generated/structured-report.pdf' : path.relative(FIXTURES_DIR, sample.file);
    const folder = name.split('/')[0];
    let line: string;
    try {
      const result = await extract(sample.file, sample.mode ?? 'normal', sample.language);
      const reference = fs.readFileSync(sample.reference, 'utf8');
      const similarity = textSimilarity(result.markdown, reference);
      const isMarkdown = sample.reference.endsWith('.md');
      const h = isMarkdown ? headingRecall(result.markdown, reference) : null;
      const t = isMarkdown ? tableCellF1(result.markdown, reference) : null;
      const scores: Scores = { similarity, headings: h?.recall ?? null, levels: h?.levelAgreement ?? null, tables: t?.f1 ?? null };
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), scores]);
      const verdict = sample.goal === undefined ? '' : similarity >= sample.goal ? `  goal ${sample.goal} met` : `  goal ${sample.goal} MISSED`;
      const found = h && h.total ? `${fmt(h.recall, 2)} ${h.found}/${h.total}` : '—';
      line = `${fmt(similarity).padStart(10)} ${found.padStart(12)} ${fmt(scores.levels, 2).padStart(7)} ${fmt(scores.tables).padStart(9)}${verdict}`;
    } catch (err) {
      line = `failed: ${(err as Error).message}`;
    }
    console.log(`  ${name.padEnd(38)} ${line}`);
  }
  console.log('  mean per folder');
  for (const [folder, scores] of byFolder) {
    const cols = [
      fmt(mean(scores.map((s) => s.similarity))).padStart(10),
      fmt(mean(scores.map((s) => s.headings)), 2).padStart(12),
      fmt(mean(scores.map((s) => s.levels)), 2).padStart(7),
      fmt(mean(scores.map((s) => s.tables))).padStart(9),
    ];
    console.log(`  ${`${folder}/`.padEnd(38)} ${cols.join(' ')}`);
  }
}

/** Resident memory (MB) of every process below this one: the extraction workers and their programs. */
function descendantsRssMb(): number {
  return processTree(process.pid)
    .filter((p) => p.pid !== process.pid)
    .reduce((sum, p) => sum + p.rssMb, 0);
}

/**
 * Runs `fn` while sampling this process's and its children's resident memory: peaks in MB, and
 * how much this process grew over what it used before.
 */
async function withMemoryPeaks<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; seconds: number; serverMb: number; serverGrowthMb: number; workersMb: number }> {
  const before = process.memoryUsage().rss / 2 ** 20;
  let serverMb = before;
  let workersMb = 0;
  const sample = () => {
    serverMb = Math.max(serverMb, process.memoryUsage().rss / 2 ** 20);
    workersMb = Math.max(workersMb, descendantsRssMb());
  };
  const timer = setInterval(sample, 200);
  const started = performance.now();
  try {
    const value = await fn();
    sample();
    return { value, seconds: (performance.now() - started) / 1000, serverMb, serverGrowthMb: serverMb - before, workersMb };
  } finally {
    clearInterval(timer);
  }
}

interface TimedRun {
  result: ExtractResult;
  seconds: number;
  first: number | null;
  maxGap: number;
  workersMb: number;
  serverMb: number;
  serverGrowthMb: number;
}

/** One task in `pool`, with its progress reports and the memory peaks while it ran. */
async function timedRun(pool: ExtractionWorkerPool, file: string, mode: ExtractionMode): Promise<TimedRun> {
  global.gc?.();
  const reports: number[] = [];
  const started = performance.now();
  const run = await withMemoryPeaks(() => extractInWorker(pool, file, mode, () => reports.push(performance.now())));
  const times = [started, ...reports, started + run.seconds * 1000];
  const maxGap = Math.max(...times.slice(1).map((t, i) => t - times[i])) / 1000;
  const first = reports.length > 0 ? (reports[0] - started) / 1000 : null;
  return { result: run.value, seconds: run.seconds, first, maxGap, workersMb: run.workersMb, serverMb: run.serverMb, serverGrowthMb: run.serverGrowthMb };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/**
 * The large fixtures and the generated 100-page document: per mode, the first task of LARGE_RUNS
 * new workers (best and median, like pdftotext's best of three), then each PDF in a worker that
 * has already read the other PDFs, as in a server that has been running.
 */
async function largeFixtures() {
  const dir = path.join(FIXTURES_DIR, 'large');
  const synthetic = path.join(tmp, `generated-report-${PAGES}p.pdf`);
  fs.writeFileSync(synthetic, buildTextDocument(PAGES));
  const files = [synthetic, ...(fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((name) => path.join(dir, name)) : [])].filter((file) =>
    FILE_TYPES.some((t) => t.extension === path.extname(file).toLowerCase()),
  );
  const { memoryMb, warmUpRuns } = getConfig().extraction;
  console.log(`\nLarge documents. "new": the first task of a new extraction process started as the server starts them (warmed up`);
  console.log(`on the built-in warm-up document, ${warmUpRuns} runs, under a ${memoryMb} MB limit), best of ${LARGE_RUNS} processes (median in brackets);`);
  console.log('"running": a PDF in a process that has already read the other PDFs (both modes), as in a server that has been');
  console.log('running. From the task to the result; pdftotext -layout as the baseline, best of 3, and Quarry\'s pages/s as a share');
  console.log("of its (goal >= 50%); first progress report (goal <= 1 s) and longest wait between reports (goal <= 2 s), the worst");
  console.log('of the runs; peak resident memory of the extraction process with its threads and programs (goal <= 512 MB for PDFs),');
  console.log('peak and growth of the server-side process (goal: growth <= 50 MB)');
  console.log(
    `  ${'document'.padEnd(38)} ${'mode'.padEnd(7)} ${'worker'.padEnd(8)} ${'pages'.padStart(6)} ${'seconds'.padStart(14)} ${'pages/s'.padStart(10)} ${'of pdftotext'.padStart(13)} ${'first s'.padStart(8)} ${'max gap s'.padStart(10)} ${'worker MB'.padStart(10)} ${'server MB'.padStart(10)} ${'growth'.padStart(7)}`,
  );
  const baselines = new Map<string, number>();
  const row = (file: string, mode: string, worker: string, runs: TimedRun[]) => {
    const name = path.basename(file);
    const fastest = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const seconds = runs.length > 1 ? `${fastest.seconds.toFixed(2)} (${median(runs.map((r) => r.seconds)).toFixed(2)})` : fastest.seconds.toFixed(2);
    // Only PDFs have pages of their own; other formats are measured in megabytes per second.
    const paged = name.toLowerCase().endsWith('.pdf');
    const pages = paged ? String(fastest.result.totalPages) : '—';
    const rate = paged ? (fastest.result.totalPages / fastest.seconds).toFixed(1) : `${(fs.statSync(file).size / 2 ** 20 / fastest.seconds).toFixed(1)} MB/s`;
    const baseline = baselines.get(file);
    const ratio = baseline === undefined ? '—' : `${((baseline / fastest.seconds) * 100).toFixed(0)}%`;
    const firsts = runs.map((r) => r.first).filter((f): f is number => f !== null);
    const first = firsts.length > 0 ? Math.max(...firsts).toFixed(2) : '—';
    const maxGap = Math.max(...runs.map((r) => r.maxGap));
    const workersMb = Math.max(...runs.map((r) => r.workersMb));
    const serverMb = Math.max(...runs.map((r) => r.serverMb));
    const growth = Math.max(...runs.map((r) => r.serverGrowthMb));
    console.log(
      `  ${name.padEnd(38)} ${mode.padEnd(7)} ${worker.padEnd(8)} ${pages.padStart(6)} ${seconds.padStart(14)} ${rate.padStart(10)} ${ratio.padStart(13)} ${first.padStart(8)} ${maxGap.toFixed(1).padStart(10)} ${workersMb.toFixed(0).padStart(10)} ${serverMb.toFixed(0).padStart(10)} ${`+${growth.toFixed(0)}`.padStart(7)}`,
    );
  };
  for (const file of files) {
    const name = path.basename(file);
    if (name.endsWith('.pdf') && have('pdftotext')) {
      const baseline = await best(3, () => spawnSync('pdftotext', ['-layout', file, '-'], { maxBuffer: 1 << 30 }));
      baselines.set(file, baseline);
      console.log(`  ${name.padEnd(38)} ${'—'.padEnd(7)} ${''.padEnd(8)} ${''.padStart(6)} ${baseline.toFixed(2).padStart(14)} ${''.padStart(10)} ${'(pdftotext)'.padStart(13)}`);
    }
    for (const mode of ['simple', 'normal'] as const) {
      const runs: TimedRun[] = [];
      try {
        for (let i = 0; i < LARGE_RUNS; i++) {
          const pool = new ExtractionWorkerPool();
          try {
            // A started worker, as the server keeps one (a cold one adds about 3 s to a long PDF).
            const warmStarted = performance.now();
            const warmRuns = await pool.prestart(memoryMb);
            if (file === files[0] && mode === 'simple' && i === 0) {
              console.log(`  (warm-up: ${warmRuns} runs in ${((performance.now() - warmStarted) / 1000).toFixed(2)} s from the process start)`);
            }
            runs.push(await timedRun(pool, file, mode));
          } finally {
            await pool.close();
          }
        }
        row(file, mode, 'new', runs);
      } catch (err) {
        console.log(`  ${name.padEnd(38)} ${mode.padEnd(7)} failed: ${(err as Error).message}`);
      }
    }
  }
  // A server that has been running: per PDF and mode, a worker that has read the other PDFs in both modes.
  const pdfs = files.filter((file) => file.toLowerCase().endsWith('.pdf'));
  for (const file of pdfs) {
    for (const mode of ['simple', 'normal'] as const) {
      const pool = new ExtractionWorkerPool();
      try {
        await pool.prestart(memoryMb);
        for (const other of pdfs) if (other !== file) for (const m of ['simple', 'normal'] as const) await extractInWorker(pool, other, m);
        row(file, mode, 'running', [await timedRun(pool, file, mode)]);
      } catch (err) {
        console.log(`  ${path.basename(file).padEnd(38)} ${mode.padEnd(7)} running worker failed: ${(err as Error).message}`);
      } finally {
        await pool.close();
      }
    }
  }
}

/** BENCH_PDF: pages per second of one given PDF in a started worker process, as the server runs it. */
async function fileSpeed(file: string) {
  console.log(`\n${path.basename(file)} (one run per mode, in the extraction worker process)`);
  const pool = new ExtractionWorkerPool();
  try {
    // A started worker, as the server keeps one.
    await pool.prestart(getConfig().extraction.memoryMb);
    for (const mode of ['simple', 'normal'] as const) {
      const started = performance.now();
      const result = await extractInWorker(pool, file, mode);
      const seconds = (performance.now() - started) / 1000;
      console.log(`  quarry ${mode.padEnd(9)} ${(result.totalPages / seconds).toFixed(1).padStart(8)} pages/s (${result.totalPages} pages, ${seconds.toFixed(1)} s)`);
    }
  } finally {
    await pool.close();
  }
}

async function main() {
  try {
    const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
    const part = (name: string) => !only || only.has(name);
    if (part('speed')) await speed();
    if (process.env.BENCH_PDF) await fileSpeed(path.resolve(process.env.BENCH_PDF));
    if (part('large') && process.env.BENCH_LARGE !== '0') await largeFixtures();
    if (part('ocr')) await ocrSpeed();
    if (part('quality')) await quality();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
