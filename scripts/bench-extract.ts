// npm run bench:extract — extraction speed against poppler's pdftotext and the tesseract CLI, and
// the text similarity of every fixture document against its reference Markdown.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractDocument } from '@/lib/extraction/engine';
import { ExtractionWorkerPool } from '@/lib/extraction/pool';
import { createTesseractCliEngine, createTesseractJsEngine, probeTesseractCli } from '@/lib/extraction/ocr';
import { textSimilarity } from '@/lib/extraction/quality';
import type { ExtractionMode, ExtractResult } from '@/lib/extraction/types';
import { FILE_TYPES } from '@/lib/files/types';
import { FIXTURES_DIR } from '@/lib/testing/fixtures';
import { buildTextDocument } from '@/lib/testing/pdf-fixture';

const PAGES = Number(process.env.BENCH_PAGES ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
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
function extractInWorker(pool: ExtractionWorkerPool, file: string, mode: ExtractionMode): Promise<ExtractResult> {
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
    onProgress: () => {},
    signal: new AbortController().signal,
    limits: { timeoutMs: 600_000, memoryMb: 4096 },
  });
}

async function speed() {
  const pdf = path.join(tmp, `born-digital-${PAGES}.pdf`);
  fs.writeFileSync(pdf, buildTextDocument(PAGES));
  console.log(`\nBorn-digital PDF, ${PAGES} pages (best of ${RUNS}; in the extraction worker process as the server runs it)`);
  const rows: [string, number][] = [];
  const pool = new ExtractionWorkerPool();
  try {
    for (const mode of ['simple', 'normal'] as const) {
      await extractInWorker(pool, pdf, mode); // warm-up: process, threads, module loading, font data
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

async function quality() {
  console.log('\nText similarity against the reference Markdown (normal mode)');
  for (const sample of samples()) {
    let line: string;
    try {
      const result = await extract(sample.file, sample.mode ?? 'normal', sample.language);
      const score = textSimilarity(result.markdown, fs.readFileSync(sample.reference, 'utf8'));
      const verdict = sample.goal === undefined ? '' : score >= sample.goal ? `  goal ${sample.goal} met` : `  goal ${sample.goal} MISSED`;
      line = `${score.toFixed(3)}${verdict}`;
    } catch (err) {
      line = `failed: ${(err as Error).message}`;
    }
    console.log(`  ${path.relative(FIXTURES_DIR, sample.file).padEnd(38)} ${line}`);
  }
}

async function main() {
  try {
    await speed();
    await ocrSpeed();
    await quality();
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
