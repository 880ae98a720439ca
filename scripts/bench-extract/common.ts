// Settings and helpers every part of npm run bench:extract shares: the documented environment
// variables (see scripts/bench-extract.ts), a scratch folder, and extraction in this process or
// through the extraction worker as the server runs it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getConfig } from '@/lib/config';
import { extractDocument } from '@/lib/extraction/engine';
import type { ExtractionWorkerPool } from '@/lib/extraction/pool';
import type { ExtractionMode, ExtractResult } from '@/lib/extraction/types';
import { FILE_TYPES } from '@/lib/files/types';

export const PAGES = Number(process.env.BENCH_PAGES ?? 100);
export const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** New workers each large document is timed in (BENCH_LARGE_RUNS). */
export const LARGE_RUNS = Math.max(1, Number(process.env.BENCH_LARGE_RUNS ?? 3));
export const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-extract-'));

export function mimeOf(file: string): string {
  const ext = path.extname(file).toLowerCase();
  const type = FILE_TYPES.find((t) => t.extension === ext);
  if (!type) throw new Error(`no type for ${file}`);
  return type.mime_type;
}

export function extract(file: string, mode: ExtractionMode, language?: 'zh' | 'en' | 'ja' | 'ko'): Promise<ExtractResult> {
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

export async function best(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    fastest = Math.min(fastest, (performance.now() - started) / 1000);
  }
  return fastest;
}

export function have(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/** The production path: the extraction worker process (and its page threads), as the server runs it. */
export function extractInWorker(
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
