import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuarryClient, QuarryError, QuarryJobFailedError, QuarryTimeoutError, type SourceRunDetail, type WaitProgress } from '@/clients/typescript/src/index';
import { startTestServer } from '@/test/support/test-server';

/**
 * The typed client's source and citation helpers: against the production server over HTTP for
 * everything that needs no outbound fetch (sources are created with sync: false at a literal
 * public address that is never called), and waitForSourceRun against scripted answers, since a
 * real sync would reach the network.
 */
const ADMIN = 'sk_test_clientsourcesadministratorkey0001';
const PUBLIC_URL = 'https://93.184.216.34/a.pdf';

let server: Awaited<ReturnType<typeof startTestServer>>;
let quarry: QuarryClient;

beforeAll(async () => {
  server = await startTestServer('client-sources', ADMIN);
  quarry = new QuarryClient({ baseUrl: server.baseUrl, apiKey: ADMIN });
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

describe('sources', () => {
  it('creates without a first sync, lists, reads, updates, lists runs and deletes a source', async () => {
    const kb = await quarry.unwrap(quarry.api.POST('/v1/knowledge-bases', { body: { name: 'client sources' } }));
    const other = await quarry.unwrap(quarry.api.POST('/v1/knowledge-bases', { body: { name: 'client sources, other' } }));
    const created = await quarry.createSource({ type: 'url', knowledge_base_id: kb.id, config: { url: PUBLIC_URL }, sync: false }, { idempotencyKey: 'client-source-1' });
    expect(created).toMatchObject({ type: 'url', knowledge_base_id: kb.id, config: { url: PUBLIC_URL }, has_credentials: false, last_run: null, schedule: null });
    // The same idempotency key answers the same source instead of a second one.
    const again = await quarry.createSource({ type: 'url', knowledge_base_id: kb.id, config: { url: PUBLIC_URL }, sync: false }, { idempotencyKey: 'client-source-1' });
    expect(again.id).toBe(created.id);
    const elsewhere = await quarry.createSource({ type: 'url', knowledge_base_id: other.id, config: { url: PUBLIC_URL }, sync: false });

    const page = await quarry.listSources({ knowledge_base_id: kb.id });
    expect(page).toMatchObject({ total: 1, items: [{ id: created.id }] });
    expect((await quarry.listSources({ limit: 1 })).items).toHaveLength(1);
    const all = await quarry.listAll('/v1/sources');
    expect(all.map((s) => s.id).sort()).toEqual([created.id, elsewhere.id].sort());

    expect(await quarry.getSource(created.id)).toMatchObject({ id: created.id, item_count: 0, last_synced_at: null });
    const updated = await quarry.updateSource(created.id, { name: 'Handbook PDF', schedule: { interval: '6h' }, extraction_mode: 'simple', enabled: false });
    expect(updated).toMatchObject({ name: 'Handbook PDF', schedule: { interval: '6h', interval_seconds: 21_600 }, schedule_description: 'Every 6 hours', extraction_mode: 'simple', enabled: false, next_sync_at: null });

    expect(await quarry.listSourceRuns(created.id)).toMatchObject({ items: [], total: 0 });
    await expect(quarry.getSourceRun(created.id, 'srun_01jd0000000000000000000000')).rejects.toMatchObject({ status: 404, code: 'SOURCE_RUN_NOT_FOUND' });

    await quarry.deleteSource(elsewhere.id, { keepDocuments: true });
    await quarry.deleteSource(created.id);
    const gone = await quarry.getSource(created.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(QuarryError);
    expect(gone).toMatchObject({ status: 404, code: 'SOURCE_NOT_FOUND' });
    await expect(quarry.syncSource(created.id)).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
  });

  it('tests settings, answering a refused address as a field error', async () => {
    const refused = (await quarry.testSource({ type: 'url', config: { url: 'http://127.0.0.1/private.pdf' } }).catch((e: unknown) => e)) as QuarryError;
    expect(refused).toBeInstanceOf(QuarryError);
    expect(refused).toMatchObject({ status: 400, code: 'INVALID_REQUEST', details: { field: 'config' } });
  });
});

describe('citations', () => {
  it('verifies a search result as current and an unknown chunk as gone', async () => {
    const kb = await quarry.unwrap(quarry.api.POST('/v1/knowledge-bases', { body: { name: 'client citations' } }));
    const file = await quarry.uploadFile(Buffer.from('# Leave\n\nEmployees get 25 days of paid leave a year.\n'), { filename: 'leave.md', knowledgeBaseId: kb.id, extract: 'simple' });
    await quarry.waitForDocument(kb.id, file.document!.id, { intervalMs: 100, timeoutMs: 120_000 });
    const [hit] = (await quarry.hybridSearch(kb.id, { query: 'paid leave days', top_k: 1 })).chunks;
    expect(hit).toMatchObject({ document_id: file.document!.id, file_version: 1, source_item: null });

    const { results } = await quarry.verifyCitations([
      { chunk_id: hit.id, document_id: hit.document_id, file_version: hit.file_version ?? undefined },
      { chunk_id: 'chunk_01jd0000000000000000000000' },
    ]);
    expect(results.map((r) => r.status)).toEqual(['current', 'gone']);
    expect(results[0]).toMatchObject({ chunk_id: hit.id, cited_file_version: 1, current_file_version: 1, source_checked: false });
    const unchecked = await quarry.verifyCitations([{ document_id: hit.document_id }], { checkSource: false });
    expect(unchecked.results[0].status).toBe('current');
    await expect(quarry.verifyCitations([])).rejects.toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
  }, 150_000);
});

describe('waiting for a sync', () => {
  const run = (over: Partial<SourceRunDetail>): SourceRunDetail => ({
    id: 'srun_1',
    source_id: 'src_1',
    status: 'queued',
    trigger: 'manual',
    counts: { added: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, skipped: 0 },
    items_total: 0,
    items_done: 0,
    limit_reached: false,
    error: null,
    created_at: '2026-01-01T00:00:00.000Z',
    started_at: null,
    completed_at: null,
    failures: [],
    ...over,
  });

  /** A client whose server answers the given runs in turn (the last one again after that). */
  function scripted(answers: SourceRunDetail[]) {
    const paths: string[] = [];
    const client = new QuarryClient({
      baseUrl: 'http://quarry.invalid',
      apiKey: 'sk_test_x',
      fetch: async (input) => {
        paths.push(new URL((input as Request).url).pathname);
        const body = answers[Math.min(paths.length - 1, answers.length - 1)];
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    return { client, paths };
  }

  it('reports queued, syncing with items done, indexing, then resolves with the completed run', async () => {
    const { client, paths } = scripted([
      run({}),
      run({ status: 'running', items_total: 4, items_done: 1 }),
      run({ status: 'indexing', items_total: 4, items_done: 4 }),
      run({ status: 'completed', items_total: 4, items_done: 4, counts: { added: 3, updated: 0, unchanged: 0, deleted: 0, failed: 1, skipped: 0 }, failures: [{ key: 'k', url: 'https://e.com/k', reason: 'HTTP 500' }] }),
    ]);
    const seen: WaitProgress[] = [];
    const done = await client.waitForSourceRun('src_1', 'srun_1', { intervalMs: 1, onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { stage: 'queued', percent: undefined },
      { stage: 'syncing', percent: 25 },
      { stage: 'indexing', percent: 100 },
      { stage: 'completed', percent: 100 },
    ]);
    expect(done.counts.failed).toBe(1);
    expect(done.failures[0].reason).toBe('HTTP 500');
    expect(new Set(paths)).toEqual(new Set(['/v1/sources/src_1/runs/srun_1']));
  });

  it('rejects with the run’s error when it fails, and times out', async () => {
    const failed = scripted([run({ status: 'failed', error: { code: 'SOURCE_UNREACHABLE', message: 'no answer' } })]);
    const err = await failed.client.waitForSourceRun('src_1', 'srun_1', { intervalMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryJobFailedError);
    expect(err).toMatchObject({ code: 'SOURCE_UNREACHABLE', message: 'sync srun_1 failed: SOURCE_UNREACHABLE: no answer' });
    const stuck = scripted([run({ status: 'running' })]);
    await expect(stuck.client.waitForSourceRun('src_1', 'srun_1', { intervalMs: 5, timeoutMs: 20 })).rejects.toBeInstanceOf(QuarryTimeoutError);
  });
});
