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
import path from 'node:path';
import { getConfig } from '@/lib/config';
import { ExtractionWorkerPool } from '@/lib/extraction/pool';
import { createTesseractCliEngine, createTesseractJsEngine, probeTesseractCli } from '@/lib/extraction/ocr';
import { textSimilarity } from '@/lib/extraction/quality';
import { headingRecall, tableCellF1 } from '@/lib/extraction/structure-quality';
import type { ExtractionMode } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { buildTextDocument } from '@/test/support/pdf-fixture';
import { buildStructuredReport } from '@/test/support/pdf-report-fixture';
import { best, extract, extractInWorker, have, PAGES, RUNS, tmp } from './bench-extract/common';
import { largeFixtures } from './bench-extract/large';

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
