import { beforeAll, describe, expect, it } from 'vitest';
import * as sourcesRoute from '@/app/v1/sources/route';
import { useTestApp } from '@/test/support/app';
import { mcpRpc } from '@/test/support/mcp';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';

/**
 * The source and citation tools over MCP, in-process: listed per scope, refused without one, held
 * to a limited key's knowledge bases as over REST, verify_citations on a real indexed chunk, and
 * sync_source on a source created without a first sync. No sync ever runs here (nothing drains
 * the queue after a sync is requested), so no address is fetched.
 */
const app = useTestApp();

/** A literal public address: accepted without a DNS lookup, never called. */
const PUBLIC_URL = 'https://93.184.216.34/a.pdf';

const rpc = (key: string, method: string, params: Record<string, unknown> = {}) => mcpRpc(app, key, method, params);

/** A tool's structured answer; fails the test on a protocol or tool error. */
async function call(key: string, name: string, args: Record<string, unknown>): Promise<any> {
  const answer = await rpc(key, 'tools/call', { name, arguments: args });
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  expect(answer.result.isError, JSON.stringify(answer.result.content)).toBeFalsy();
  expect(JSON.parse(answer.result.content[0].text)).toEqual(answer.result.structuredContent);
  return answer.result.structuredContent;
}

/** A tool error's {code, message, details}. */
async function toolError(key: string, name: string, args: Record<string, unknown>) {
  const answer = await rpc(key, 'tools/call', { name, arguments: args });
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  expect(answer.result.isError, `${name} should fail`).toBe(true);
  return answer.result.structuredContent.error as { code: string; message: string; details?: any };
}

async function createSource(kbId: string): Promise<string> {
  const res = await app.call(sourcesRoute.POST, { method: 'POST', path: '/v1/sources', body: { type: 'url', knowledge_base_id: kbId, config: { url: PUBLIC_URL }, sync: false } });
  expect(res.status, res.text).toBe(201);
  expect(res.body.last_run).toBeNull();
  return res.body.id;
}

let kbA: string;
let kbB: string;
let docA: string;
let docB: string;

beforeAll(async () => {
  kbA = await createKb(app, { name: 'Sources A' });
  kbB = await createKb(app, { name: 'Sources B' });
  const a = await extractedFile(app, 'travel.md', '# Travel\n\nTrain tickets over 200 euros need approval from a manager.\n');
  const b = await extractedFile(app, 'billing.md', '# Billing\n\nInvoices are sent on the first working day of each month.\n');
  const addedA = await addDoc(app, kbA, { file_id: a.fileId });
  const addedB = await addDoc(app, kbB, { file_id: b.fileId });
  expect(addedA.status, addedA.text).toBe(201);
  expect(addedB.status, addedB.text).toBe(201);
  docA = addedA.body.id;
  docB = addedB.body.id;
  // Indexes both documents; sources are created after this, so no sync is ever drained.
  await drainWorkflows(app);
}, 60_000);

describe('source and citation tools', () => {
  it('are listed for the scopes of their REST endpoints', async () => {
    const names = async (scopes: string[]) => {
      const { key } = await app.createKey({ scopes });
      return (await rpc(key, 'tools/list')).result.tools.map((t: { name: string }) => t.name).sort();
    };
    expect(await names(['sources:read'])).toEqual(['get_source', 'get_source_run', 'list_source_runs', 'list_sources']);
    expect(await names(['sources:write'])).toEqual(['sync_source']);
    expect(await names(['kb:read'])).toContain('verify_citations');
    const all = (await rpc(app.adminKey, 'tools/list')).result.tools as { name: string; description: string; inputSchema: any; annotations: any }[];
    const verify = all.find((t) => t.name === 'verify_citations')!;
    expect(verify.description).toMatch(/current.*stale.*gone/s);
    expect(verify.inputSchema.required).toEqual(['citations']);
    expect(verify.annotations.readOnlyHint).toBe(true);
    expect(all.find((t) => t.name === 'sync_source')!.annotations.readOnlyHint).toBe(false);
    // Creating sources stays with REST, as creating knowledge bases does.
    expect(all.map((t) => t.name)).not.toContain('create_source');
    expect(all.map((t) => t.name)).not.toContain('create_knowledge_base');
  });

  it('refuses a tool outside the key’s scopes before it runs', async () => {
    const sourceId = await createSource(kbA);
    const { key } = await app.createKey({ scopes: ['sources:read', 'kb:search'] });
    const refused = await rpc(key, 'tools/call', { name: 'sync_source', arguments: { source_id: sourceId } });
    expect(refused.error?.message).toContain('needs the scope sources:write');
    expect(refused.error?.data).toMatchObject({ code: 'INSUFFICIENT_SCOPE', required_scope: 'sources:write' });
    const { key: searchOnly } = await app.createKey({ scopes: ['kb:search'] });
    const noRead = await rpc(searchOnly, 'tools/call', { name: 'list_sources', arguments: {} });
    expect(noRead.error?.data).toMatchObject({ code: 'INSUFFICIENT_SCOPE', required_scope: 'sources:read' });
    // Nothing was started by the refused sync.
    expect((await call(app.adminKey, 'get_source', { source_id: sourceId })).last_run).toBeNull();
  });

  it('verifies a cited chunk from search_knowledge_base as current, and unknown ones as gone', async () => {
    const { key } = await app.createKey({ scopes: ['kb:search'] });
    const found = await call(key, 'search_knowledge_base', { kb_id: kbA, query: 'train tickets approval' });
    const hit = found.results[0];
    expect(hit).toMatchObject({ document_id: docA, file_version: 1, source_item: null, chunk_id: expect.stringMatching(/^chunk_/) });

    const checked = await call(key, 'verify_citations', {
      citations: [
        { chunk_id: hit.chunk_id, document_id: hit.document_id, file_version: hit.file_version },
        { chunk_id: 'chunk_01jd0000000000000000000000' },
        { document_id: hit.document_id, file_version: 2 },
      ],
    });
    expect(checked.results.map((r: { status: string }) => r.status)).toEqual(['current', 'gone', 'gone']);
    expect(checked.results[0]).toMatchObject({ chunk_id: hit.chunk_id, document_id: docA, cited_file_version: 1, current_file_version: 1, source_checked: false, source_item: null });
    expect(checked.results[1]).toMatchObject({ chunk_id: 'chunk_01jd0000000000000000000000', document_id: null, reason: expect.stringContaining('No such passage') });

    const empty = await toolError(key, 'verify_citations', { citations: [] });
    expect(empty.code).toBe('INVALID_REQUEST');
    expect(empty.details.problems[0].field).toBe('citations');
  });

  it('lists, reads and syncs a source created without a first sync, with its history', async () => {
    const sourceId = await createSource(kbA);
    const listed = await call(app.adminKey, 'list_sources', { knowledge_base_id: kbA });
    expect(listed.sources.map((s: { id: string }) => s.id)).toContain(sourceId);
    expect(listed.sources.every((s: { knowledge_base_id: string }) => s.knowledge_base_id === kbA)).toBe(true);
    expect(listed).toMatchObject({ total: listed.sources.length, next_offset: null });
    expect((await call(app.adminKey, 'list_sources', { knowledge_base_id: kbB })).sources).toEqual([]);
    const paged = await call(app.adminKey, 'list_sources', { limit: 1 });
    expect(paged.sources).toHaveLength(1);
    expect(paged.next_offset).toBe(1);

    const before = await call(app.adminKey, 'get_source', { source_id: sourceId });
    expect(before).toMatchObject({ id: sourceId, type: 'url', config: { url: PUBLIC_URL }, has_credentials: false, item_count: 0, last_run: null });
    expect(before.credentials).toBeUndefined();

    const run = await call(app.adminKey, 'sync_source', { source_id: sourceId });
    expect(run).toMatchObject({ id: expect.stringMatching(/^srun_/), source_id: sourceId, status: 'queued', trigger: 'manual' });
    const busy = await toolError(app.adminKey, 'sync_source', { source_id: sourceId });
    expect(busy.code).toBe('SOURCE_BUSY');
    expect(busy.details).toMatchObject({ run_id: run.id, status: 'queued' });
    expect(busy.message).toContain(`get_source_run with source_id ${sourceId} and run_id ${run.id}`);

    const runs = await call(app.adminKey, 'list_source_runs', { source_id: sourceId });
    expect(runs).toMatchObject({ total: 1, next_offset: null });
    expect(runs.runs[0]).toMatchObject({ id: run.id, counts: { added: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, skipped: 0 } });
    const detail = await call(app.adminKey, 'get_source_run', { source_id: sourceId, run_id: run.id });
    expect(detail).toMatchObject({ id: run.id, status: 'queued', failures: [] });
    expect((await call(app.adminKey, 'get_source', { source_id: sourceId })).last_run).toMatchObject({ id: run.id, status: 'queued' });

    expect((await toolError(app.adminKey, 'get_source_run', { source_id: sourceId, run_id: 'srun_01jd0000000000000000000000' })).code).toBe('SOURCE_RUN_NOT_FOUND');
    expect((await toolError(app.adminKey, 'get_source', { source_id: 'src_01jd0000000000000000000000' })).code).toBe('SOURCE_NOT_FOUND');
  });

  it('holds a key limited to one knowledge base to its sources and documents', async () => {
    const mine = await createSource(kbA);
    const other = await createSource(kbB);
    const { key } = await app.createKey({ scopes: ['sources:read', 'sources:write', 'kb:search'], knowledgeBaseIds: [kbA] });

    const listed = await call(key, 'list_sources', {});
    const ids = listed.sources.map((s: { id: string }) => s.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(other);
    expect(listed.sources.every((s: { knowledge_base_id: string }) => s.knowledge_base_id === kbA)).toBe(true);
    expect((await call(key, 'list_sources', { knowledge_base_id: kbB })).sources).toEqual([]);
    expect((await call(key, 'get_source', { source_id: mine })).id).toBe(mine);
    for (const [name, args] of [
      ['get_source', { source_id: other }],
      ['sync_source', { source_id: other }],
      ['list_source_runs', { source_id: other }],
      ['get_source_run', { source_id: other, run_id: 'srun_01jd0000000000000000000000' }],
    ] as const) {
      expect((await toolError(key, name, args)).code, name).toBe('SOURCE_NOT_FOUND');
    }
    // The other knowledge base's source was not synced by the refused call.
    expect((await call(app.adminKey, 'get_source', { source_id: other })).last_run).toBeNull();

    const verdicts = await call(key, 'verify_citations', { citations: [{ document_id: docB }, { document_id: docA }] });
    expect(verdicts.results.map((r: { status: string }) => r.status)).toEqual(['gone', 'current']);
    expect(verdicts.results[0].reason).toContain('can reach');
  });
});
