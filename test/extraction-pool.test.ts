import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as filesRoute from '@/app/v1/files/route';
import * as extractionsRoute from '@/app/v1/extractions/route';
import * as extractionRoute from '@/app/v1/extractions/[extraction_id]/route';
import * as cancelRoute from '@/app/v1/extractions/[extraction_id]/cancel/route';
import { extractions } from '@/lib/db/schema';
import { extractPdf } from '@/lib/extraction/engine';
import { ExtractionWorkerPool } from '@/lib/extraction/pool';
import { warmUpDocument } from '@/lib/extraction/pdf/run/warm-up';
import { ExtractionError } from '@/lib/extraction/types';
import { useTestApp } from '@/test/support/app';
import { formWith } from '@/test/support/fixtures';
import { extractInput, PDF_TYPE } from '@/test/support/extract-input';
import { blankPng, denseTextPng } from '@/test/support/hostile-images';
import { descendants, isAlive, samplePrograms, waitFor } from '@/test/support/processes';
import { buildTextDocument } from '@/test/support/pdf-fixture';
import { EmbeddedRunner } from '@/lib/workflows/embedded';
import { WORKFLOWS } from '@/lib/ops/workflows';

const ROOT = path.resolve(import.meta.dirname, '..');
const app = useTestApp();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pool-'));
const pool = new ExtractionWorkerPool();
const bigPdf = path.join(tmp, 'long.pdf');
fs.writeFileSync(bigPdf, buildTextDocument(400));

afterAll(async () => {
  await pool.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function task(overrides: { timeoutMs?: number; memoryMb?: number; signal?: AbortSignal; onProgress?: (d: number, t: number) => void } = {}) {
  return pool.run({
    input: {
      path: bigPdf,
      mimeType: 'application/pdf',
      extension: '.pdf',
      mode: 'simple',
      options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
      maxPages: 1000,
      tmpDir: tmp,
    },
    onProgress: overrides.onProgress ?? (() => {}),
    signal: overrides.signal ?? new AbortController().signal,
    limits: { timeoutMs: overrides.timeoutMs ?? 120_000, memoryMb: overrides.memoryMb ?? 1024 },
  });
}

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExtractionError);
  return err as ExtractionError;
}

/** Pids of this process's extraction workers (node children running the worker bundle). */
function workerPids(): number[] {
  const cmdline = (pid: number) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return '';
    }
  };
  return descendants(process.pid)
    .filter((p) => p.ppid === process.pid && cmdline(p.pid).includes('extraction-worker'))
    .map((p) => p.pid);
}

describe('extraction worker reuse', () => {
  const small = path.join(tmp, 'small.md');
  fs.writeFileSync(small, '# Short\n\nA short document.\n');
  const smallTask = (reuse: ExtractionWorkerPool, memoryMb: number, file = small) =>
    reuse.run({
      input: { path: file, mimeType: file.endsWith('.pdf') ? 'application/pdf' : 'text/markdown', extension: path.extname(file), mode: 'simple', options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false }, maxPages: 1000, tmpDir: tmp },
      onProgress: () => {},
      signal: new AbortController().signal,
      limits: { timeoutMs: 60_000, memoryMb },
    });

  it('keeps one worker for many short documents, and replaces one a task left holding much of its memory', async () => {
    const reuse = new ExtractionWorkerPool();
    try {
      const seen = new Set<number>();
      for (let i = 0; i < 40; i++) {
        await smallTask(reuse, 2048);
        for (const pid of workerPids()) seen.add(pid);
      }
      expect(seen.size).toBe(1);
      const [first] = seen;
      // A 400-page PDF leaves the worker well above 40% of a 256 MB limit: it is replaced, and the
      // replacement is started at once, before the next task asks for it.
      await smallTask(reuse, 256, bigPdf);
      expect(await waitFor(() => !isAlive(first), 5_000)).toBe(true);
      expect(await waitFor(() => workerPids().length === 1, 5_000)).toBe(true);
      const spare = workerPids()[0];
      expect(spare).not.toBe(first);
      await smallTask(reuse, 256);
      expect(workerPids()).toEqual([spare]);
    } finally {
      await reuse.close();
    }
  }, 120_000);
});

describe('warm workers', () => {
  const smallPdf = path.join(tmp, 'small.pdf');
  fs.writeFileSync(smallPdf, buildTextDocument(3));
  const pdfTask = (on: ExtractionWorkerPool, memoryMb = 2048) =>
    on.run({
      input: { path: smallPdf, mimeType: 'application/pdf', extension: '.pdf', mode: 'simple', options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false }, maxPages: 1000, tmpDir: tmp },
      onProgress: () => {},
      signal: new AbortController().signal,
      limits: { timeoutMs: 60_000, memoryMb },
    });
  const newPids = (before: number[]) => workerPids().filter((pid) => !before.includes(pid));

  it('the warm-up document has what real documents have, on fractional positions', async () => {
    const file = path.join(tmp, 'warm-up.pdf');
    const bytes = warmUpDocument();
    fs.writeFileSync(file, bytes);
    const { markdown, totalPages } = await extractPdf(extractInput(file, PDF_TYPE, tmp, { mode: 'simple' }), null);
    expect(totalPages).toBe(64);
    const count = (re: RegExp) => markdown.match(re)?.length ?? 0;
    expect(count(/^## \d+ Section/gm)).toBe(16);
    expect(count(/^#{3,6} \d+\.\d+ Measurements on page/gm)).toBe(64);
    // Tables on every page but the last, which is turned (/Rotate 90): its text runs sideways.
    expect(count(/^\| Metric \| Before \| After \| Change \|$/gm)).toBe(63);
    expect(count(/^\| Name \| Value \| Unit \|$/gm)).toBe(63);
    expect(count(/^```$/gm)).toBe(64);
    expect(count(/^1\. Item 1 of the list/gm)).toBe(22);
    expect(count(/^- Item 1 of the list/gm)).toBe(21);
    expect(markdown).toContain('Column 2.');
    // The variety pieces, a kind per page in turn: chapter headings, list items over two lines, a
    // word printed on itself (once, not twice), a hyphenated line end, a short borderless table.
    expect(count(/^#{2,6} Chapter \d+ Operations$/gm)).toBe(10);
    expect(count(/^- Item \d is long enough to run onto a second line of the list, where it goes on with a few more words\.$/gm)).toBe(22);
    expect(count(/^Important notes for the operators of the service, with a hyphenated word at the end/gm)).toBe(11);
    expect(count(/^\| workers \| 2 \| 1 to 16 \|$/gm)).toBe(10);
    // Running headers and footers are recognised as such and left out (the turned page's aside).
    expect(count(/Extraction performance report/g)).toBe(1);
    // No whole-number coordinates: every text position in the content streams has a fraction.
    const positions = [...Buffer.from(bytes).toString('latin1').matchAll(/Tf (\S+) (\S+) Td/g)];
    expect(positions.length).toBeGreaterThan(3000);
    expect(positions.filter((m) => Number.isInteger(Number(m[1])) || Number.isInteger(Number(m[2])))).toEqual([]);
  });

  it('a started worker reads the warm-up document before any task, then serves the first task itself', async () => {
    const warm = new ExtractionWorkerPool({ warmUpRuns: 2 });
    const before = workerPids();
    try {
      expect(await warm.prestart(2048)).toBe(2);
      const started = newPids(before);
      expect(started).toHaveLength(1);
      // Asking again while it waits starts nothing new.
      expect(await warm.prestart(2048)).toBe(2);
      const result = await pdfTask(warm);
      expect(result.totalPages).toBe(3);
      expect(result.markdown).toContain('End of paragraph 4 on page 3.');
      expect(newPids(before)).toEqual(started);
    } finally {
      await warm.close();
    }
  }, 60_000);

  it('a task that arrives during the warm-up waits for the run under way only', async () => {
    const warm = new ExtractionWorkerPool({ warmUpRuns: 20 });
    const before = workerPids();
    try {
      const warmed = warm.prestart(2048);
      // The worker is started (and waiting for tasks) once its process exists.
      expect(await waitFor(() => newPids(before).length === 1, 10_000)).toBe(true);
      const result = await pdfTask(warm);
      expect(newPids(before)).toHaveLength(1);
      expect(result.markdown).toContain('Section 3: Quarterly results');
      // The warm-up stopped after the run the task found under way.
      expect(await warmed).toBeLessThanOrEqual(1);
    } finally {
      await warm.close();
    }
  }, 60_000);

  it('does not warm up a worker whose memory limit it would crowd (it would be replaced after every task)', async () => {
    const warm = new ExtractionWorkerPool({ warmUpRuns: 2 });
    try {
      expect(await warm.prestart(512)).toBe(0);
      expect((await pdfTask(warm, 512)).totalPages).toBe(3);
    } finally {
      await warm.close();
    }
  }, 60_000);

  it('a waiting worker does not keep its process running: a script that never closes its pool still ends', async () => {
    const script = path.join(tmp, 'no-close.mts');
    fs.writeFileSync(
      script,
      `const { ExtractionWorkerPool } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'lib/extraction/pool.ts')).href)});
const pool = new ExtractionWorkerPool({ warmUpRuns: 1 });
console.log('warm ' + (await pool.prestart(2048)));
const result = await pool.run({
  input: { path: ${JSON.stringify(smallPdf)}, mimeType: 'application/pdf', extension: '.pdf', mode: 'simple', options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false }, maxPages: 100, tmpDir: ${JSON.stringify(tmp)} },
  onProgress: () => {}, signal: new AbortController().signal, limits: { timeoutMs: 60000, memoryMb: 2048 },
});
console.log('pages ' + result.totalPages);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 45_000);
      child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(out).toBe('warm 1\npages 3\n');
    expect(code).toBe(0);
  }, 60_000);

  it('keeps the last idle worker, and stops idle ones beyond it', async () => {
    const idle = new ExtractionWorkerPool({ warmUpRuns: 0, idleMs: 150 });
    const before = workerPids();
    try {
      // Two tasks at once start two workers. Counted while they run: on a loaded machine the one
      // that finishes first may already have been idle for idleMs when the other finishes.
      let most = 0;
      const count = () => (most = Math.max(most, newPids(before).length));
      const watch = setInterval(count, 10);
      try {
        await Promise.all([pdfTask(idle), pdfTask(idle)]);
      } finally {
        clearInterval(watch);
      }
      count();
      expect(most).toBe(2);
      expect(await waitFor(() => newPids(before).length === 1, 5_000)).toBe(true);
      // Several idle periods later the last one is still there, and serves the next task.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const [kept] = newPids(before);
      expect(newPids(before)).toEqual([kept]);
      expect((await pdfTask(idle)).totalPages).toBe(3);
      expect(newPids(before)).toEqual([kept]);
    } finally {
      await idle.close();
    }
  }, 60_000);
});

describe('extraction worker processes', () => {
  it('read a PDF whose page tree claims more pages than it has as pdf.js counts them (the page threads start on PDFium\'s count)', async () => {
    const honest = Buffer.from(buildTextDocument(40));
    const claimed = Buffer.from(honest.toString('latin1').replace('/Count 40 >>', '/Count 48 >>'), 'latin1');
    expect(claimed.equals(honest)).toBe(false);
    const files = { honest: path.join(tmp, 'honest-40.pdf'), claimed: path.join(tmp, 'claims-48.pdf') };
    fs.writeFileSync(files.honest, honest);
    fs.writeFileSync(files.claimed, claimed);
    const run = (file: string) =>
      pool.run({
        input: { path: file, mimeType: 'application/pdf', extension: '.pdf', mode: 'simple', options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false }, maxPages: 1000, tmpDir: tmp },
        onProgress: () => {},
        signal: new AbortController().signal,
        limits: { timeoutMs: 60_000, memoryMb: 1024 },
      });
    const expected = await run(files.honest);
    const result = await run(files.claimed);
    expect(result.totalPages).toBe(40);
    expect(result.markdown).toBe(expected.markdown);
    expect(result.markdown).toContain('End of paragraph 4 on page 40.');
    expect(result.markdown).not.toContain('<!-- page 41 -->');
  }, 60_000);

  it('extract in a child process and report progress as pages complete, a few times a second and the last at once', async () => {
    const seen: number[] = [];
    const result = await task({ onProgress: (done, total) => (expect(total).toBe(400), seen.push(done)) });
    expect(result.totalPages).toBe(400);
    expect(result.markdown.match(/<!-- page \d+ -->/g)).toHaveLength(400);
    expect(seen.at(-1)).toBe(400);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // At most one message per 100 ms, not one per page (plus the first and the last).
    expect(seen.length).toBeLessThan(100);
    // The worker reads long PDFs with several page threads; the Markdown must be what one thread writes.
    const single = await extractPdf(
      {
        path: bigPdf,
        mimeType: 'application/pdf',
        extension: '.pdf',
        mode: 'simple',
        options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
        maxPages: 1000,
        tmpDir: tmp,
        onProgress: () => {},
        signal: new AbortController().signal,
      },
      null,
    );
    expect(result.markdown).toBe(single.markdown);
  });

  it('stop a task over its time limit with EXTRACTION_TIMEOUT', async () => {
    const err = await failure(task({ timeoutMs: 150 }));
    expect(err.code).toBe('EXTRACTION_TIMEOUT');
  });

  it('stop a task over its memory limit with RESOURCE_LIMIT_EXCEEDED', async () => {
    const err = await failure(task({ memoryMb: 48 }));
    expect(err.code).toBe('RESOURCE_LIMIT_EXCEEDED');
    expect(err.message).toContain('48 MB');
  });

  it('stop a cancelled task at once with CANCELLED, and still serve the next one', async () => {
    const controller = new AbortController();
    const running = task({ signal: controller.signal, onProgress: (done) => done >= 5 && controller.abort() });
    const err = await failure(running);
    expect(err.code).toBe('CANCELLED');
    expect((await task()).totalPages).toBe(400);
  });
});

describe('external programs of a task', () => {
  // Within the pixel budget: 81 megapixels of white, which tesseract needs about 390 MB for,
  // and a page of dense text that keeps it busy for over a minute.
  const blank = path.join(tmp, 'blank.png');
  const dense = path.join(tmp, 'dense.png');
  beforeAll(async () => {
    fs.writeFileSync(blank, await blankPng(9000, 9000));
    fs.writeFileSync(dense, await denseTextPng(3000, 3000));
  });

  function ocrTask(overrides: { image?: string; timeoutMs?: number; memoryMb?: number; signal?: AbortSignal } = {}) {
    return pool.run({
      input: {
        path: overrides.image ?? dense,
        mimeType: 'image/png',
        extension: '.png',
        mode: 'normal',
        options: { language: 'en', ocr_provider: 'tesseract', extract_tables: true, preserve_layout: false },
        maxPages: 10,
        tmpDir: tmp,
      },
      onProgress: () => {},
      signal: overrides.signal ?? new AbortController().signal,
      limits: { timeoutMs: overrides.timeoutMs ?? 120_000, memoryMb: overrides.memoryMb ?? 2048 },
    });
  }
  const tesseracts = () => descendants(process.pid).filter((p) => p.comm === 'tesseract');

  /** The tesseract reading the page: one alive for half a second, not a quick probe (tesseract --version). */
  async function runningTesseract() {
    const firstSeen = new Map<number, number>();
    let program: ReturnType<typeof tesseracts>[number] | undefined;
    const found = await waitFor(() => {
      const now = Date.now();
      const running = tesseracts();
      for (const p of running) if (!firstSeen.has(p.pid)) firstSeen.set(p.pid, now);
      program = running.find((p) => now - firstSeen.get(p.pid)! >= 500);
      return program !== undefined;
    }, 30_000);
    expect(found).toBe(true);
    if (!program) throw new Error('no tesseract kept running');
    // A process group of its own, which the pool kills with the worker.
    expect(program.pgrp).toBe(program.pid);
    return program;
  }

  it('kills tesseract when the task is cancelled', async () => {
    const controller = new AbortController();
    const running = ocrTask({ signal: controller.signal });
    const program = await runningTesseract();
    controller.abort();
    expect((await failure(running)).code).toBe('CANCELLED');
    expect(await waitFor(() => !isAlive(program.pid), 2000)).toBe(true);
  }, 60_000);

  it('kills tesseract when the task runs out of time', async () => {
    const watch = samplePrograms(process.pid, 'tesseract');
    const err = await failure(ocrTask({ timeoutMs: 4000 }));
    const seen = [...watch.stop().keys()];
    expect(err.code).toBe('EXTRACTION_TIMEOUT');
    expect(seen.length).toBeGreaterThan(0);
    expect(await waitFor(() => seen.every((pid) => !isAlive(pid)), 2000)).toBe(true);
  }, 60_000);

  it('kills tesseract when its worker is killed with kill -9', async () => {
    const running = ocrTask();
    const program = await runningTesseract();
    process.kill(program.ppid, 'SIGKILL');
    expect((await failure(running)).code).toBe('INTERNAL_ERROR');
    expect(await waitFor(() => !isAlive(program.pid), 2000)).toBe(true);
  }, 60_000);

  it('fails with RESOURCE_LIMIT_EXCEEDED when tesseract needs more memory than the cap, which it never exceeds', async () => {
    const watch = samplePrograms(process.pid, 'tesseract', 2);
    const err = await failure(ocrTask({ image: blank, memoryMb: 256 }));
    const peaks = [...watch.stop().values()];
    expect(err.code).toBe('RESOURCE_LIMIT_EXCEEDED');
    expect(err.message).toBe('tesseract needed more than the limit of 256 MB of memory and was stopped');
    expect(peaks.length).toBeGreaterThan(0);
    for (const peak of peaks) {
      expect(peak.virtualMb).toBeLessThanOrEqual(256);
      expect(peak.residentMb).toBeLessThanOrEqual(256);
    }
    // The worker itself stays usable: the next task runs in it.
    expect((await task()).totalPages).toBe(400);
  }, 60_000);
});

describe('cancelling a running extraction through the API', () => {
  it('ends it failed with CANCELLED within a page or so', async () => {
    // Long enough (a few seconds) that the cancel always lands while it runs.
    const upload = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith('longer.pdf', buildTextDocument(1500)) });
    const created = await app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body: { file_id: upload.body.id } });
    const id = created.body.id as string;
    const runner = new EmbeddedRunner({ db: app.db, workflows: WORKFLOWS, pollMs: 50 });
    await runner.start();
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const [row] = await app.db.select().from(extractions).where(eq(extractions.id, id));
        if (row.status === 'processing') break;
        if (Date.now() > deadline || row.status === 'completed') throw new Error(`never caught it processing (${row.status})`);
        await new Promise((r) => setTimeout(r, 10));
      }
      const cancel = await app.call(cancelRoute.POST, { method: 'POST', path: '/x', params: { extraction_id: id } });
      expect(cancel.status).toBe(200);
      let final: any;
      while (Date.now() < deadline) {
        final = (await app.call(extractionRoute.GET, { path: '/x', params: { extraction_id: id } })).body;
        if (final.status === 'completed' || final.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(final).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' } });
    } finally {
      await runner.stop();
    }
  });
});
