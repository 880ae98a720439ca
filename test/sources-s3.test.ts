/**
 * An s3 source against a real S3-protocol server (s3rver) on loopback: the first sync stores
 * every object of the prefix; after objects change, go and arrive, the next sync updates,
 * removes and adds exactly those, leaves the rest alone without extracting them, and search
 * serves the new text only.
 */
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as searchRoute from '@/app/v1/knowledge-bases/[kb_id]/search/route';
import * as documentsRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/route';
import * as sourcesRoute from '@/app/v1/sources/route';
import * as sourceRoute from '@/app/v1/sources/[source_id]/route';
import * as runsRoute from '@/app/v1/sources/[source_id]/runs/route';
import * as syncRoute from '@/app/v1/sources/[source_id]/sync/route';
import { extractions, sourceItems } from '@/lib/db/schema';
import { useTestApp } from './support/app';
import { createKb, drainWorkflows } from './support/knowledge-bases';
import { S3_TEST_CREDENTIALS, startS3Server, type S3TestServer } from './support/s3-server';

const app = useTestApp({ QUARRY_SOURCES_ALLOW_PRIVATE: 'true' });
let s3: S3TestServer;
let client: S3Client;

const BUCKET = 'source-docs';
const text = (n: number, word: string) =>
  `# Policy ${n}\n\nPolicy number ${n} is about the ${word} procedure. Everyone who handles ${word} requests follows policy ${n}.\n`;

async function put(key: string, body: string) {
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentType: 'text/markdown' }));
}

beforeAll(async () => {
  s3 = await startS3Server({ bucket: BUCKET });
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
  });
  for (let n = 1; n <= 20; n++) await put(`handbook/policy-${String(n).padStart(2, '0')}.md`, text(n, `topic${n}`));
  // Outside the prefix: never synced.
  await put('other/outside.md', text(99, 'outside'));
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
});

async function runs(sourceId: string) {
  const res = await app.call(runsRoute.GET, { path: `/v1/sources/${sourceId}/runs`, params: { source_id: sourceId } });
  expect(res.status, res.text).toBe(200);
  return res.body.items as Array<{ id: string; status: string; counts: Record<string, number>; trigger: string; items_total: number }>;
}

async function extractionIds(): Promise<Set<string>> {
  return new Set((await app.db.select({ id: extractions.id }).from(extractions)).map((r) => r.id));
}

/** Extractions made since `before` was taken (those of deleted files go with them). */
async function newExtractions(before: Set<string>): Promise<number> {
  return [...(await extractionIds())].filter((id) => !before.has(id)).length;
}

async function search(kbId: string, query: string) {
  const res = await app.call(searchRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/search`, params: { kb_id: kbId }, body: { query, top_k: 5 } });
  expect(res.status, res.text).toBe(200);
  return res.body.chunks as Array<{ content: string; document_id: string }>;
}

describe('an s3 source', () => {
  let kbId: string;
  let sourceId: string;

  it('syncs every object of the prefix on creation: 20 added', async () => {
    kbId = await createKb(app);
    const res = await app.call(sourcesRoute.POST, {
      method: 'POST',
      path: '/v1/sources',
      body: {
        type: 's3',
        knowledge_base_id: kbId,
        config: { bucket: BUCKET, prefix: 'handbook/', endpoint: s3.endpoint, force_path_style: true },
        credentials: { access_key_id: S3_TEST_CREDENTIALS.accessKeyId, secret_access_key: S3_TEST_CREDENTIALS.secretAccessKey },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ type: 's3', knowledge_base_id: kbId, has_credentials: true, name: `s3://${BUCKET}/handbook/`, enabled: true });
    expect(res.text).not.toContain(S3_TEST_CREDENTIALS.secretAccessKey);
    expect(res.body.last_run).toMatchObject({ status: 'queued', trigger: 'created' });
    sourceId = res.body.id;

    await drainWorkflows(app);
    const [first] = await runs(sourceId);
    expect(first).toMatchObject({ status: 'completed', counts: { added: 20, updated: 0, unchanged: 0, deleted: 0, failed: 0, skipped: 0 }, items_total: 20 });
    expect(await newExtractions(new Set())).toBe(20);

    const docs = await app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents?limit=100`, params: { kb_id: kbId } });
    expect(docs.body.total).toBe(20);
    expect(docs.body.items.every((d: { status: string }) => d.status === 'indexed')).toBe(true);
    const hits = await search(kbId, 'topic7 procedure');
    expect(hits[0].content).toContain('topic7');

    const source = await app.call(sourceRoute.GET, { path: `/v1/sources/${sourceId}`, params: { source_id: sourceId } });
    expect(source.body).toMatchObject({ item_count: 20, last_run: { id: first.id, status: 'completed' } });
    expect(source.body.last_synced_at).not.toBeNull();
  }, 120_000);

  it('after 2 changed, 1 deleted and 1 new object: 2 updated, 1 deleted, 1 added, 17 unchanged, and the 17 are not extracted again', async () => {
    await put('handbook/policy-03.md', text(3, 'heliotrope'));
    await put('handbook/policy-04.md', text(4, 'marigold'));
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'handbook/policy-05.md' }));
    await put('handbook/policy-21.md', text(21, 'saffron'));
    const [item03] = await app.db.select().from(sourceItems).where(eq(sourceItems.key, 'handbook/policy-03.md'));
    const [item05] = await app.db.select().from(sourceItems).where(eq(sourceItems.key, 'handbook/policy-05.md'));
    const before = await extractionIds();

    const res = await app.call(syncRoute.POST, { method: 'POST', path: `/v1/sources/${sourceId}/sync`, params: { source_id: sourceId } });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', trigger: 'manual', source_id: sourceId });
    // Two syncs of one source never run at once.
    const again = await app.call(syncRoute.POST, { method: 'POST', path: `/v1/sources/${sourceId}/sync`, params: { source_id: sourceId } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'SOURCE_BUSY', details: { run_id: res.body.id } });

    await drainWorkflows(app);
    const [second] = await runs(sourceId);
    expect(second).toMatchObject({ id: res.body.id, status: 'completed', counts: { added: 1, updated: 2, deleted: 1, unchanged: 17, failed: 0, skipped: 0 } });
    // Only the 2 changed and the 1 new object were extracted.
    expect(await newExtractions(before)).toBe(3);

    const changed = await app.call(fileRoute.GET, { path: `/v1/files/${item03.fileId}`, params: { file_id: item03.fileId! } });
    expect(changed.body).toMatchObject({
      version: 2,
      source_item: { id: item03.id, source_id: sourceId, key: 'handbook/policy-03.md', url: `s3://${BUCKET}/handbook/policy-03.md` },
    });
    const gone = await app.call(fileRoute.GET, { path: `/v1/files/${item05.fileId}`, params: { file_id: item05.fileId! } });
    expect(gone.status).toBe(404);

    const docs = await app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents?limit=100`, params: { kb_id: kbId } });
    expect(docs.body.total).toBe(20);
    const heliotrope = await search(kbId, 'heliotrope procedure');
    expect(heliotrope[0].content).toContain('heliotrope');
    // The old text of policy 3 answers no more.
    const old = await search(kbId, 'topic3 procedure');
    expect(old.every((hit) => !hit.content.includes('topic3 procedure'))).toBe(true);
    expect((await search(kbId, 'saffron'))[0].content).toContain('saffron');
  }, 120_000);

  it('a sync with nothing changed costs no extraction: 20 unchanged', async () => {
    const before = await extractionIds();
    const res = await app.call(syncRoute.POST, { method: 'POST', path: `/v1/sources/${sourceId}/sync`, params: { source_id: sourceId } });
    expect(res.status).toBe(202);
    await drainWorkflows(app);
    const [third] = await runs(sourceId);
    expect(third.counts).toEqual({ added: 0, updated: 0, unchanged: 20, deleted: 0, failed: 0, skipped: 0 });
    expect(await newExtractions(before)).toBe(0);
  }, 60_000);

  it('a bucket that refuses the credentials fails the sync and removes nothing', async () => {
    const patched = await app.call(sourceRoute.PATCH, {
      method: 'PATCH',
      path: `/v1/sources/${sourceId}`,
      params: { source_id: sourceId },
      body: { config: { bucket: 'no-such-bucket', prefix: 'handbook/', endpoint: s3.endpoint, force_path_style: true } },
    });
    expect(patched.status, patched.text).toBe(200);
    await app.call(syncRoute.POST, { method: 'POST', path: `/v1/sources/${sourceId}/sync`, params: { source_id: sourceId } });
    await drainWorkflows(app);
    const [failed] = await runs(sourceId);
    expect(failed.status).toBe('failed');
    expect((failed as unknown as { error: { message: string } }).error.message).toMatch(/no-such-bucket/);
    const docs = await app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents?limit=1`, params: { kb_id: kbId } });
    expect(docs.body.total).toBe(20);
  }, 60_000);

  it('deleting the source deletes its documents and files', async () => {
    const res = await app.call(sourceRoute.DELETE, { method: 'DELETE', path: `/v1/sources/${sourceId}`, params: { source_id: sourceId } });
    expect(res.status, res.text).toBe(204);
    const docs = await app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents?limit=1`, params: { kb_id: kbId } });
    expect(docs.body.total).toBe(0);
    const again = await app.call(sourceRoute.GET, { path: `/v1/sources/${sourceId}`, params: { source_id: sourceId } });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('SOURCE_NOT_FOUND');
  }, 60_000);
});
