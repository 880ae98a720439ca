import fs from 'node:fs';
import path from 'node:path';
import type { WaitProgress } from '../wait.js';
import type { ExtractionMode, ExtractionOptions, UploadedFile } from '../types.js';
import { intOption, parseArgs, UsageError } from './args.js';
import { reportError, type CommandContext } from './report.js';
import { describeProgress, formatBytes, uploadBar, waitBar } from './progress.js';
import { tableLines } from './table.js';

const MODES = ['simple', 'normal', 'advanced'] as const;
export const COMMON = { json: { type: 'boolean' }, timeout: { type: 'string' } } as const;

export function timeoutOf(value: string | true | undefined): number | undefined {
  return value === undefined ? undefined : intOption(value, 'timeout', 0, { min: 0 }) * 1000;
}

/** Waits with a bar on a terminal, or a line per stage change elsewhere (unless --json). */
export async function withWaitBar<T>(ctx: CommandContext, label: string, json: boolean, wait: (onProgress: (p: WaitProgress) => void) => Promise<T>): Promise<T> {
  const { bar, onProgress } = waitBar(label, ctx.io.stderr, ctx.bars);
  let last = '';
  try {
    return await wait((p) => {
      onProgress(p);
      const text = describeProgress(p);
      if (!ctx.bars && !json && p.stage !== last) ctx.note(`${label}: ${text}`);
      last = p.stage;
    });
  } finally {
    bar.stop();
  }
}

export async function uploadCommand(ctx: CommandContext, argv: string[]): Promise<number> {
  const { positionals: files, options } = parseArgs(argv, {
    ...COMMON,
    extract: { type: 'optional', choices: MODES },
    kb: { type: 'string' },
    tags: { type: 'string' },
    metadata: { type: 'string' },
    dedupe: { type: 'boolean' },
    wait: { type: 'boolean' },
  });
  if (files.length === 0) throw new UsageError('upload needs at least one file');
  for (const file of files) {
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new UsageError(`${file} is not a file`);
  }
  let metadata: Record<string, unknown> | undefined;
  if (typeof options.metadata === 'string') {
    try {
      metadata = JSON.parse(options.metadata);
    } catch {
      throw new UsageError('--metadata must be a JSON object');
    }
    if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) throw new UsageError('--metadata must be a JSON object');
  }
  const json = options.json === true;
  const kb = typeof options.kb === 'string' ? options.kb : undefined;
  const extract = options.extract === undefined ? undefined : options.extract === true ? true : (options.extract as ExtractionMode);
  if (options.wait && !extract && !kb) throw new UsageError('--wait needs --extract or --kb');
  const timeoutMs = timeoutOf(options.timeout);

  let failures = 0;
  const uploaded: { name: string; file: UploadedFile }[] = [];
  for (const file of files) {
    const name = path.basename(file);
    const bar = uploadBar(name, fs.statSync(file).size, ctx.io.stderr, ctx.bars);
    try {
      const result = await ctx.client.uploadFile(file, {
        tags: typeof options.tags === 'string' ? options.tags : undefined,
        metadata,
        extract,
        knowledgeBaseId: kb,
        dedupe: options.dedupe === true ? true : undefined,
        onProgress: (sent) => bar.update(sent),
      });
      bar.stop();
      uploaded.push({ name, file: result });
      if (json) ctx.out(JSON.stringify(result));
      else {
        const extras = [
          result.deduplicated ? 'already stored' : undefined,
          result.extraction ? `extraction ${result.extraction.id} (${result.extraction.mode}, ${result.extraction.status})` : undefined,
          result.document ? `document ${result.document.id} in ${result.document.kb_id}` : undefined,
        ].filter(Boolean);
        ctx.out(`${result.id}  ${result.filename}  ${formatBytes(result.size)}${extras.length ? `  ${extras.join(', ')}` : ''}`);
      }
    } catch (err) {
      bar.stop();
      failures++;
      ctx.note(`${name}: upload failed`);
      const code = reportError(err, ctx);
      if (code !== 1) return code;
    }
  }
  if (!options.wait) return failures ? 1 : 0;

  let failedJobs = 0;
  for (const { name, file } of uploaded) {
    try {
      if (file.document) {
        const doc = await withWaitBar(ctx, name, json, (onProgress) =>
          ctx.client.waitForDocument(file.document!.kb_id, file.document!.id, { onProgress, timeoutMs }),
        );
        if (json) ctx.out(JSON.stringify(doc));
        else ctx.out(`${doc.id}  ${doc.title}  indexed, ${doc.chunk_count} chunks`);
      } else if (file.extraction) {
        const done = await withWaitBar(ctx, name, json, (onProgress) => ctx.client.waitForExtraction(file.extraction!.id, { onProgress, timeoutMs }));
        if (json) ctx.out(JSON.stringify({ ...done, markdown: undefined }));
        else ctx.out(`${done.id}  ${name}  completed, ${done.total_pages ?? 0} pages`);
      }
    } catch (err) {
      const code = reportError(err, ctx);
      if (code !== 3) return code;
      failedJobs++;
    }
  }
  return failures ? 1 : failedJobs ? 3 : 0;
}

export async function extractCommand(ctx: CommandContext, argv: string[]): Promise<number> {
  const { positionals, options } = parseArgs(argv, {
    ...COMMON,
    mode: { type: 'string', choices: MODES },
    language: { type: 'string', choices: ['en', 'zh', 'ja', 'ko'] },
    wait: { type: 'boolean' },
    output: { type: 'string', alias: 'o' },
  });
  if (positionals.length !== 1) throw new UsageError('extract needs one file id');
  if (options.output && !options.wait) throw new UsageError('--output needs --wait');
  const json = options.json === true;
  const created = await ctx.client.createExtraction(positionals[0], {
    mode: options.mode as ExtractionMode | undefined,
    options: typeof options.language === 'string' ? { language: options.language as ExtractionOptions['language'] } : undefined,
  });
  if (!options.wait) {
    ctx.out(json ? JSON.stringify(created) : `${created.id}  ${created.mode}  ${created.status}`);
    return 0;
  }
  if (!json) ctx.note(`${created.id}: ${created.mode} extraction of ${created.file_id}`);
  const done = await withWaitBar(ctx, created.id, json, (onProgress) =>
    ctx.client.waitForExtraction(created.id, { onProgress, timeoutMs: timeoutOf(options.timeout) }),
  );
  if (typeof options.output === 'string') fs.writeFileSync(options.output, done.markdown ?? '');
  if (json) ctx.out(JSON.stringify(options.output ? { ...done, markdown: undefined } : done));
  else ctx.out(`${done.id}  completed  ${done.total_pages ?? 0} pages${options.output ? `  written to ${options.output}` : ''}`);
  return 0;
}

export async function searchCommand(ctx: CommandContext, argv: string[]): Promise<number> {
  const { positionals, options } = parseArgs(argv, { ...COMMON, hybrid: { type: 'boolean' }, 'top-k': { type: 'string', alias: 'k' } });
  if (positionals.length !== 2) throw new UsageError('search needs a knowledge base id and a query');
  const [kbId, query] = positionals;
  const top_k = intOption(options['top-k'], 'top-k', 5, { max: 100 });
  const result = options.hybrid ? await ctx.client.hybridSearch(kbId, { query, top_k }) : await ctx.client.search(kbId, { query, top_k });
  if (options.json) {
    ctx.out(JSON.stringify(result));
    return 0;
  }
  if (result.chunks.length === 0) ctx.note('no results');
  result.chunks.forEach((chunk, i) => {
    const meta = chunk.metadata as { page?: number | null; section?: string | null };
    const where = [meta.page ? `p. ${meta.page}` : undefined, meta.section || undefined].filter(Boolean).join(' · ');
    ctx.out(`${i + 1}. ${chunk.score.toFixed(3)}  ${chunk.document_title}${where ? ` · ${where}` : ''}  (${chunk.document_id}${chunk.file_version === null ? '' : ` v${chunk.file_version}`}, ${chunk.id})`);
    if (chunk.source_item) ctx.out(`   ${chunk.source_item.url}`);
    const text = chunk.content.replace(/\s+/g, ' ').trim();
    ctx.out(`   ${text.length > 240 ? `${text.slice(0, 239)}…` : text}`);
  });
  return 0;
}

export async function kbCommand(ctx: CommandContext, argv: string[]): Promise<number> {
  const { positionals, options } = parseArgs(argv, COMMON);
  if (positionals[0] !== 'ls' || positionals.length !== 1) throw new UsageError('kb supports: kb ls');
  const all = await ctx.client.listAll('/v1/knowledge-bases', { query: { sort_by: 'created_at', order: 'asc' } });
  if (options.json) {
    for (const kb of all) ctx.out(JSON.stringify(kb));
    return 0;
  }
  if (all.length === 0) {
    ctx.note('no knowledge bases');
    return 0;
  }
  const rows = all.map((kb) => [kb.id, kb.name, String(kb.document_count), String(kb.chunk_count)]);
  for (const line of tableLines(['ID', 'NAME', 'DOCUMENTS', 'CHUNKS'], rows)) ctx.out(line);
  return 0;
}
