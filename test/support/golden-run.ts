/**
 * Extracts the golden documents (golden-corpus.ts) as the server does, and writes and checks their
 * golden files under test/golden: `<name>.md` (the Markdown) and `<name>.json` (pages, metadata,
 * document model), or `<name>.error.json` for a document that fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getConfig } from '@/lib/config';
import { ApiError } from '@/lib/errors';
import { extractionRefusal, LIBREOFFICE_TYPES } from '@/lib/extraction/formats';
import { ExtractionWorkerPool } from '@/lib/extraction/pool';
import { ExtractionError, type DocumentMetadata } from '@/lib/extraction/types';
import { detectFileOnDisk } from '@/lib/files/detect-file';
import { extractInput } from '@/test/support/extract-input';
import type { GoldenDocument } from '@/test/support/golden-corpus';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const GOLDEN_DIR = path.join(REPO_ROOT, 'test', 'golden');
export const UPDATE_HINT = 'UPDATE_GOLDEN=1 npm run test:golden';

export type GoldenOutcome =
  | { kind: 'extracted'; markdown: string; document: unknown; totalPages: number; metadata: DocumentMetadata }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'skipped'; reason: string };

/** Extracts one document in `pool`: typed from its content, the API's default options, the server's limits. */
async function extractGolden(pool: ExtractionWorkerPool, doc: GoldenDocument, tmpRoot: string): Promise<GoldenOutcome> {
  const unavailable = doc.unavailable();
  if (unavailable) return { kind: 'skipped', reason: unavailable };
  const file = doc.path();
  // What the upload would answer: the golden of a file the server refuses is that refusal.
  const type = await detectFileOnDisk(file, path.basename(doc.name)).catch((err: unknown) => {
    if (err instanceof ApiError) return err;
    throw err;
  });
  if (type instanceof ApiError) return { kind: 'failed', code: type.code, message: type.message };
  // Only LibreOffice's formats depend on this machine; any other refusal is the server's answer.
  const refusal = LIBREOFFICE_TYPES.has(type.mime_type) ? extractionRefusal(type.mime_type) : null;
  if (refusal) return { kind: 'skipped', reason: refusal };
  const { extraction } = getConfig();
  const tmpDir = fs.mkdtempSync(path.join(tmpRoot, 'task-'));
  try {
    // Functions do not cross to the worker process: the pool takes progress and signal beside the input.
    const { onProgress: _progress, signal: _signal, ...input } = extractInput(file, type, tmpDir, { maxPages: extraction.maxPages });
    const result = await pool.run({
      input,
      onProgress: () => {},
      signal: new AbortController().signal,
      limits: { timeoutMs: extraction.timeoutMs, memoryMb: extraction.memoryMb, maxImagePixels: extraction.maxImagePixels },
    });
    // Read loosely: the document model (`document`) is new to ExtractResult and not every format has it yet.
    const document = (result as { document?: unknown }).document ?? null;
    return { kind: 'extracted', markdown: result.markdown, document, totalPages: result.totalPages, metadata: result.metadata };
  } catch (err) {
    if (err instanceof ExtractionError) return { kind: 'failed', code: err.code, message: err.message };
    throw err;
  } finally {
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
}

/**
 * Extracts every document, `concurrency` at a time, largest file first (the 600-page documents
 * would otherwise start last and leave the other worker idle at the end).
 */
export async function runGoldenCorpus(docs: readonly GoldenDocument[], concurrency = os.availableParallelism()): Promise<Map<string, GoldenOutcome>> {
  // No warm-up runs: they only make a worker's first PDF faster (the output was the same with
  // them) and would take the cores the documents in flight need.
  const pool = new ExtractionWorkerPool({ warmUpRuns: 0 });
  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-golden-run-'));
  const size = new Map(docs.map((doc) => [doc.name, doc.unavailable() ? 0 : fs.statSync(doc.path()).size]));
  const queue = [...docs].sort((a, b) => size.get(b.name)! - size.get(a.name)!);
  const outcomes = new Map<string, GoldenOutcome>();
  try {
    const lane = async () => {
      for (let doc = queue.shift(); doc; doc = queue.shift()) outcomes.set(doc.name, await extractGolden(pool, doc, tmpRoot));
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
  } finally {
    await pool.close();
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  }
  return outcomes;
}

const isNumberArray = (v: unknown[]) => v.length > 0 && v.every((x) => typeof x === 'number');

/**
 * JSON with keys in a fixed order (`leading` keys first in that order, the rest sorted) and a
 * 1-space indent, except that an array of numbers (a bounding box) stays on one line: the same
 * value always gives the same text, and a moved box is a one-line diff.
 */
export function stableJson(value: unknown, leading: readonly string[] = []): string {
  const rank = (key: string) => (leading.includes(key) ? leading.indexOf(key) : leading.length);
  const order = (a: string, b: string) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
  const write = (v: unknown, indent: string): string | undefined => {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON: () => unknown }).toJSON();
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
    const inner = `${indent} `;
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      if (isNumberArray(v)) return `[${v.map((n) => JSON.stringify(n)).join(', ')}]`;
      return `[\n${v.map((item) => `${inner}${write(item, inner) ?? 'null'}`).join(',\n')}\n${indent}]`;
    }
    const entries = Object.keys(v)
      .sort(order)
      .flatMap((key) => {
        const text = write((v as Record<string, unknown>)[key], inner);
        return text === undefined ? [] : [`${inner}${JSON.stringify(key)}: ${text}`];
      });
    return entries.length === 0 ? '{}' : `{\n${entries.join(',\n')}\n${indent}}`;
  };
  return write(value, '') ?? 'null';
}

/** Keys first in the golden JSON: the summary before the (long) model, a block's type before its content. */
const GOLDEN_KEY_ORDER = ['total_pages', 'metadata', 'document', 'code', 'message', 'type'];
const SUFFIXES = ['.error.json', '.json', '.md'] as const;

/** The golden files of an outcome, by suffix. A UTF-8 file cannot hold an unpaired surrogate: U+FFFD stands in. */
export function goldenFiles(outcome: Exclude<GoldenOutcome, { kind: 'skipped' }>): Partial<Record<(typeof SUFFIXES)[number], string>> {
  if (outcome.kind === 'failed') return { '.error.json': `${stableJson({ code: outcome.code, message: outcome.message }, GOLDEN_KEY_ORDER)}\n` };
  const summary = { total_pages: outcome.totalPages, metadata: outcome.metadata, document: outcome.document ?? null };
  return { '.md': outcome.markdown.toWellFormed(), '.json': `${stableJson(summary, GOLDEN_KEY_ORDER)}\n` };
}

const goldenPath = (name: string, suffix: string, dir: string) => path.join(dir, ...`${name}${suffix}`.split('/'));
const shown = (line: string | undefined) => (line === undefined ? '' : line.length > 160 ? `${line.slice(0, 160)}…` : line);

/**
 * Null when `actual` equals `expected`; otherwise where they first differ (line numbers in each)
 * and a unified-style excerpt: `context` lines around, at most `limit` removed and added lines.
 */
export function describeDifference(file: string, expected: string, actual: string, context = 3, limit = 8): string | null {
  if (expected === actual) return null;
  const a = expected.split('\n');
  const b = actual.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const before = a.slice(Math.max(0, start - context), start).map((l) => `  ${shown(l)}`);
  const removed = a.slice(start, Math.min(endA, start + limit)).map((l) => `- ${shown(l)}`);
  const added = b.slice(start, Math.min(endB, start + limit)).map((l) => `+ ${shown(l)}`);
  const more = (n: number, sign: string) => (n > limit ? [`${sign} … ${n - limit} more line(s)`] : []);
  const after = a.slice(endA, endA + context).map((l) => `  ${shown(l)}`);
  // As in a unified diff, an empty side names the line before the change.
  const hunk = (sign: string, count: number) => `${sign}${count === 0 ? start : start + 1},${count}`;
  const span = (from: number, to: number) => (to - from > 1 ? `lines ${from + 1}–${to}` : `line ${from + 1}`);
  return [
    `${file} differs from the extracted output: ${span(start, Math.max(endA, start + 1))} of the golden file, ${span(start, Math.max(endB, start + 1))} of the output`,
    `@@ ${hunk('-', endA - start)} ${hunk('+', endB - start)} @@`,
    ...before,
    ...removed,
    ...more(endA - start, '-'),
    ...added,
    ...more(endB - start, '+'),
    ...after,
    `If the change is intended: ${UPDATE_HINT}`,
  ].join('\n');
}

/** What is wrong with a document's golden files (empty when they match the outcome). */
export function checkGolden(name: string, outcome: Exclude<GoldenOutcome, { kind: 'skipped' }>, dir = GOLDEN_DIR): string[] {
  const expected = goldenFiles(outcome);
  const problems: string[] = [];
  for (const suffix of SUFFIXES) {
    const file = goldenPath(name, suffix, dir);
    const label = file.startsWith(REPO_ROOT + path.sep) ? path.relative(REPO_ROOT, file) : file;
    const content = expected[suffix];
    const exists = fs.existsSync(file);
    if (content === undefined) {
      if (exists) problems.push(`${label} is stale: the document now ${outcome.kind === 'failed' ? 'fails' : 'extracts'}. Run ${UPDATE_HINT}`);
    } else if (!exists) {
      problems.push(`${label} is missing. Run ${UPDATE_HINT}`);
    } else {
      const difference = describeDifference(label, fs.readFileSync(file, 'utf8'), content);
      if (difference) problems.push(difference);
    }
  }
  return problems;
}

/** Writes a document's golden files and removes those of the other outcome (an error file once it extracts). */
export function writeGolden(name: string, outcome: Exclude<GoldenOutcome, { kind: 'skipped' }>, dir = GOLDEN_DIR): void {
  const files = goldenFiles(outcome);
  for (const suffix of SUFFIXES) {
    const file = goldenPath(name, suffix, dir);
    const content = files[suffix];
    if (content === undefined) fs.rmSync(file, { force: true });
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== content) fs.writeFileSync(file, content);
    }
  }
}

/** Golden files (paths relative to `dir`) that belong to no document of `names`. */
export function orphanGoldenFiles(names: ReadonlySet<string>, dir = GOLDEN_DIR): string[] {
  if (!fs.existsSync(dir)) return [];
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split(path.sep).join('/')).filter((f) => fs.statSync(path.join(dir, f)).isFile());
  return files.filter((f) => {
    const suffix = SUFFIXES.find((s) => f.endsWith(s));
    return !suffix || !names.has(f.slice(0, -suffix.length));
  }).sort();
}

/** Removes the orphan golden files and the folders they leave empty. */
export function removeOrphanGoldenFiles(orphans: readonly string[], dir = GOLDEN_DIR): void {
  for (const f of orphans) {
    fs.rmSync(path.join(dir, f), { force: true });
    for (let d = path.dirname(path.join(dir, f)); d.startsWith(dir) && d !== dir && fs.readdirSync(d).length === 0; d = path.dirname(d)) fs.rmdirSync(d);
  }
}
