// The large documents of npm run bench:extract: the 619- and 400-page PDFs, the 872-page DOCX and a
// generated 100-page report, each timed as the first task of new extraction workers and, for the
// PDFs, in a worker that has read the others, beside pdftotext, with progress and memory.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { getConfig } from '@/lib/config';
import { ExtractionWorkerPool } from '@/lib/extraction/pool';
import type { ExtractionMode, ExtractResult } from '@/lib/extraction/types';
import { FILE_TYPES } from '@/lib/files/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { buildTextDocument } from '@/test/support/pdf-fixture';
import { processTree } from '../lib/process-tree.mjs';
import { best, extractInWorker, have, LARGE_RUNS, PAGES, tmp } from './common';

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
export async function largeFixtures() {
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
