// `quarry sources …` and `quarry citations verify`: sources kept in step with a knowledge base,
// their syncs, and whether cited passages still hold.
import fs from 'node:fs';
import type { CitationInput, CreateSourceRequest, ExtractionMode, Source, SourceRun, SourceRunDetail } from '../types.js';
import { parseArgs, UsageError } from './args.js';
import { COMMON, timeoutOf, withWaitBar } from './commands.js';
import type { CommandContext } from './report.js';
import { tableLines } from './table.js';

const TYPES = ['url', 'web', 's3'] as const;
const MODES = ['simple', 'normal', 'advanced'] as const;

/** A JSON object given inline, as @file, or as @- (stdin). */
function jsonObject(value: string, option: string): Record<string, unknown> {
  let text = value;
  if (value.startsWith('@')) {
    const file = value.slice(1);
    try {
      text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch {
      throw new UsageError(`${option}: cannot read ${file}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${option} must be a JSON object (or @file)`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${option} must be a JSON object (or @file)`);
  return parsed as Record<string, unknown>;
}

const str = (value: string | true | undefined) => (typeof value === 'string' ? value : undefined);

function counts(run: SourceRun): string {
  const c = run.counts;
  return `${c.added} added, ${c.updated} updated, ${c.unchanged} unchanged, ${c.deleted} deleted, ${c.failed} failed, ${c.skipped} skipped`;
}

function runLine(run: SourceRun): string {
  const error = run.error ? `  ${run.error.code}: ${run.error.message}` : '';
  return `${run.id}  ${run.status}  ${counts(run)}${run.limit_reached ? '  (limit reached)' : ''}${error}`;
}

function sourceLines(source: Source): string[] {
  return [
    `${source.id}  ${source.type}  ${source.name}  in ${source.knowledge_base_id}${source.enabled ? '' : '  (disabled)'}`,
    `  schedule: ${source.schedule_description ?? 'only when asked'}${source.next_sync_at ? `, next ${source.next_sync_at}` : ''}`,
    `  items: ${source.item_count}, last synced: ${source.last_synced_at ?? 'never'}`,
    ...(source.last_run ? [`  last run: ${runLine(source.last_run)}`] : []),
  ];
}

/** The create body from --from (a whole CreateSource JSON), the type, --config and the shorthand flags, later ones winning. */
function createBody(positionals: string[], options: Record<string, string | true | undefined>): CreateSourceRequest {
  // --from names a file (or - for stdin); --config and --credentials take JSON or @file.
  const base = typeof options.from === 'string' ? jsonObject(options.from.startsWith('@') ? options.from : `@${options.from}`, '--from') : {};
  const type = positionals[0] ?? (base.type as string | undefined);
  if (positionals.length > 1) throw new UsageError('sources create takes one type (url, web or s3)');
  if (!type || !(TYPES as readonly string[]).includes(type)) throw new UsageError('sources create needs a type: url, web or s3 (or --from with one)');
  const config: Record<string, unknown> = { ...((base.config as Record<string, unknown>) ?? {}), ...(typeof options.config === 'string' ? jsonObject(options.config, '--config') : {}) };
  if (typeof options.url === 'string') config[type === 'web' ? 'start_url' : 'url'] = options.url;
  for (const flag of ['bucket', 'prefix', 'endpoint', 'region'] as const) {
    if (typeof options[flag] !== 'string') continue;
    if (type !== 's3') throw new UsageError(`--${flag} is for s3 sources`);
    config[flag] = options[flag];
  }
  const body: Record<string, unknown> = { ...base, type, config };
  if (typeof options.kb === 'string') body.knowledge_base_id = options.kb;
  if (!body.knowledge_base_id) throw new UsageError('sources create needs --kb <kb_id>');
  if (typeof options.name === 'string') body.name = options.name;
  if (typeof options.credentials === 'string') body.credentials = jsonObject(options.credentials, '--credentials');
  if (typeof options.mode === 'string') body.extraction_mode = options.mode as ExtractionMode;
  if (typeof options.schedule === 'string') {
    const interval = /^\d+\s*(m|min|h|d)$/i.test(options.schedule);
    if (interval && options.timezone) throw new UsageError('--timezone is for a cron --schedule');
    body.schedule = interval ? { interval: options.schedule } : { cron: options.schedule, ...(str(options.timezone) ? { timezone: str(options.timezone) } : {}) };
  } else if (options.timezone) throw new UsageError('--timezone needs --schedule');
  if (options['no-sync']) body.sync = false;
  return body as CreateSourceRequest;
}

async function waitAndReport(ctx: CommandContext, run: SourceRun, json: boolean, timeout: string | true | undefined): Promise<number> {
  const done: SourceRunDetail = await withWaitBar(ctx, run.id, json, (onProgress) =>
    ctx.client.waitForSourceRun(run.source_id, run.id, { onProgress, timeoutMs: timeoutOf(timeout) }),
  );
  if (json) ctx.out(JSON.stringify(done));
  else {
    ctx.out(runLine(done));
    for (const f of done.failures) ctx.note(`  failed: ${f.url}: ${f.reason}`);
  }
  return 0;
}

export async function sourcesCommand(ctx: CommandContext, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'ls':
    case 'list': {
      const { positionals, options } = parseArgs(rest, { ...COMMON, kb: { type: 'string' } });
      if (positionals.length) throw new UsageError('sources ls takes no arguments (filter with --kb)');
      const all = await ctx.client.listAll('/v1/sources', { query: { knowledge_base_id: str(options.kb) } });
      if (options.json) {
        for (const s of all) ctx.out(JSON.stringify(s));
        return 0;
      }
      if (all.length === 0) {
        ctx.note('no sources');
        return 0;
      }
      const rows = all.map((s) => [s.id, s.type, s.knowledge_base_id, String(s.item_count), s.last_run?.status ?? '-', s.name]);
      for (const line of tableLines(['ID', 'TYPE', 'KNOWLEDGE BASE', 'ITEMS', 'LAST RUN', 'NAME'], rows)) ctx.out(line);
      return 0;
    }
    case 'get': {
      const { positionals, options } = parseArgs(rest, COMMON);
      if (positionals.length !== 1) throw new UsageError('sources get needs one source id');
      const source = await ctx.client.getSource(positionals[0]);
      if (options.json) ctx.out(JSON.stringify(source));
      else for (const line of sourceLines(source)) ctx.out(line);
      return 0;
    }
    case 'create': {
      const { positionals, options } = parseArgs(rest, {
        ...COMMON,
        kb: { type: 'string' },
        from: { type: 'string' },
        config: { type: 'string' },
        credentials: { type: 'string' },
        url: { type: 'string' },
        bucket: { type: 'string' },
        prefix: { type: 'string' },
        endpoint: { type: 'string' },
        region: { type: 'string' },
        name: { type: 'string' },
        schedule: { type: 'string' },
        timezone: { type: 'string' },
        mode: { type: 'string', choices: MODES },
        'no-sync': { type: 'boolean' },
        wait: { type: 'boolean' },
      });
      const body = createBody(positionals, options);
      if (options.wait && body.sync === false) throw new UsageError('--wait needs the first sync (leave out --no-sync)');
      const source = await ctx.client.createSource(body);
      if (options.json) ctx.out(JSON.stringify(source));
      else for (const line of sourceLines(source)) ctx.out(line);
      if (!options.wait || !source.last_run) return 0;
      return waitAndReport(ctx, source.last_run, options.json === true, options.timeout);
    }
    case 'sync': {
      const { positionals, options } = parseArgs(rest, { ...COMMON, wait: { type: 'boolean' } });
      if (positionals.length !== 1) throw new UsageError('sources sync needs one source id');
      const run = await ctx.client.syncSource(positionals[0]);
      if (!options.wait) {
        ctx.out(options.json ? JSON.stringify(run) : runLine(run));
        return 0;
      }
      if (!options.json) ctx.note(`${run.id}: sync of ${run.source_id} queued`);
      return waitAndReport(ctx, run, options.json === true, options.timeout);
    }
    case 'runs': {
      const { positionals, options } = parseArgs(rest, COMMON);
      if (positionals.length === 2) {
        const run = await ctx.client.getSourceRun(positionals[0], positionals[1]);
        if (options.json) ctx.out(JSON.stringify(run));
        else {
          ctx.out(runLine(run));
          for (const f of run.failures) ctx.out(`  failed: ${f.url}: ${f.reason}`);
        }
        return 0;
      }
      if (positionals.length !== 1) throw new UsageError('sources runs needs a source id (and a run id for one run)');
      const all = await ctx.client.listAll('/v1/sources/{source_id}/runs', { path: { source_id: positionals[0] } });
      if (options.json) {
        for (const r of all) ctx.out(JSON.stringify(r));
        return 0;
      }
      if (all.length === 0) {
        ctx.note('no syncs yet');
        return 0;
      }
      const rows = all.map((r) => [r.id, r.status, r.trigger, ...Object.values(r.counts).map(String), r.created_at]);
      for (const line of tableLines(['ID', 'STATUS', 'TRIGGER', ...Object.keys(all[0].counts).map((k) => k.toUpperCase()), 'CREATED'], rows)) ctx.out(line);
      return 0;
    }
    default:
      throw new UsageError('sources supports: ls, get, create, sync, runs');
  }
}

/** A citation from the command line: chunk_…, doc_…, either with @<file version>, or chunk_…:doc_…@<version>. */
function citationOf(arg: string): CitationInput {
  const match = /^([^@:]+)(?::([^@:]+))?(?:@(\d+))?$/.exec(arg);
  if (!match) throw new UsageError(`${arg} is not a citation (chunk_…, doc_…, chunk_…:doc_…, each with an optional @version)`);
  const [, first, second, version] = match;
  const citation: CitationInput = {};
  for (const part of [first, second]) {
    if (!part) continue;
    if (part.startsWith('chunk_')) citation.chunk_id = part;
    else if (part.startsWith('doc_')) citation.document_id = part;
    else throw new UsageError(`${part} is neither a chunk id (chunk_…) nor a document id (doc_…)`);
  }
  if (version) citation.file_version = Number(version);
  return citation;
}

/** Citations from a JSON file: an array, {citations: […]}, or a search answer ({chunks: […]}). */
function citationsFromFile(value: string): CitationInput[] {
  const file = value === '-' ? 0 : value;
  let parsed: any;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new UsageError(`--file: ${value} is not readable JSON`);
  }
  const list = Array.isArray(parsed) ? parsed : Array.isArray(parsed?.citations) ? parsed.citations : Array.isArray(parsed?.chunks) ? parsed.chunks : null;
  if (!list) throw new UsageError('--file must hold an array of citations, {"citations": […]} or a search answer');
  return list.map((c: any) => {
    const chunkId = c.chunk_id ?? (typeof c.id === 'string' && c.id.startsWith('chunk_') ? c.id : undefined);
    return { chunk_id: chunkId, document_id: c.document_id ?? undefined, file_version: c.file_version ?? undefined };
  });
}

export async function citationsCommand(ctx: CommandContext, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'verify') throw new UsageError('citations supports: citations verify');
  const { positionals, options } = parseArgs(rest, { ...COMMON, file: { type: 'string' }, 'no-source-check': { type: 'boolean' } });
  const citations = [...(typeof options.file === 'string' ? citationsFromFile(options.file) : []), ...positionals.map(citationOf)];
  if (citations.length === 0) throw new UsageError('citations verify needs citations (chunk_…[@version], doc_…@version) or --file');
  const { results } = await ctx.client.verifyCitations(citations, options['no-source-check'] ? { checkSource: false } : {});
  for (const r of results) {
    if (options.json) {
      ctx.out(JSON.stringify(r));
      continue;
    }
    const versions = r.cited_file_version === null && r.current_file_version === null ? '' : `  v${r.cited_file_version ?? '?'} → v${r.current_file_version ?? '?'}`;
    ctx.out(`${r.status.padEnd(7)}  ${r.chunk_id ?? '-'}  ${r.document_id ?? '-'}${versions}  ${r.reason}${r.source_item ? `  (${r.source_item.url})` : ''}`);
  }
  return 0;
}
