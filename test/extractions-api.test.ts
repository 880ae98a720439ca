import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as fileExtractionsRoute from '@/app/v1/files/[file_id]/extractions/route';
import * as filesRoute from '@/app/v1/files/route';
import * as eventsRoute from '@/app/v1/events/route';
import * as extractionsRoute from '@/app/v1/extractions/route';
import * as extractionRoute from '@/app/v1/extractions/[extraction_id]/route';
import * as cancelRoute from '@/app/v1/extractions/[extraction_id]/cancel/route';
import { extractions, workflowRuns } from '@/lib/db/schema';
import { sweepStaleExtractions } from '@/lib/extraction/task';
import { getStorage } from '@/lib/storage';
import { useTestApp } from '@/test/support/app';
import { fixture, formWith } from '@/test/support/fixtures';

const app = useTestApp();

async function upload(name: string, bytes: Buffer) {
  const res = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith(name, bytes) });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

function create(body: unknown, headers?: Record<string, string>) {
  return app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body, headers });
}

function get(id: string) {
  return app.call(extractionRoute.GET, { path: `/v1/extractions/${id}`, params: { extraction_id: id } });
}

describe('POST /v1/extractions (API only; no runner is started in this file)', () => {
  it('queues a pending task with defaults and a workflow run in the same transaction', async () => {
    const fileId = await upload('doc.pdf', fixture('pdf/code_and_formula.pdf'));
    const res = await create({ file_id: fileId });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'file_id', 'id', 'mode', 'status']);
    expect(res.body).toMatchObject({ file_id: fileId, status: 'pending', mode: 'normal' });
    expect(res.body.id).toMatch(/^ext_[0-9a-z]{26}$/);

    const [row] = await app.db.select().from(extractions).where(eq(extractions.id, res.body.id));
    expect(row.options).toEqual({ ocr_provider: 'default', extract_tables: true, preserve_layout: false });
    const runs = await app.db.select().from(workflowRuns).where(eq(workflowRuns.workflow, 'extract-document'));
    expect(runs.some((r) => r.input.extraction_id === res.body.id && r.status === 'queued')).toBe(true);

    const status = await get(res.body.id);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ id: res.body.id, status: 'pending', mode: 'normal', file_id: fileId });
  });

  it('takes mode and options', async () => {
    const fileId = await upload('scan.png', fixture('ocr/chinese_traditional.png'));
    const res = await create({ file_id: fileId, mode: 'advanced', options: { language: 'zh', extract_tables: false, preserve_layout: true } });
    expect(res.status).toBe(201);
    const [row] = await app.db.select().from(extractions).where(eq(extractions.id, res.body.id));
    expect(row.options).toEqual({ language: 'zh', ocr_provider: 'default', extract_tables: false, preserve_layout: true });
    const apart = await create({ file_id: fileId, options: { merge_tables: false } });
    expect(apart.status).toBe(201);
    const [kept] = await app.db.select().from(extractions).where(eq(extractions.id, apart.body.id));
    expect(kept.options).toEqual({ ocr_provider: 'default', extract_tables: true, preserve_layout: false, merge_tables: false });
  });

  it('answers 400 INVALID_FILE_ID for a missing or malformed file id, 404 for an unknown one', async () => {
    for (const body of [{}, { file_id: 42 }, { file_id: 'not-a-file' }, { file_id: 'file_' }, { file_id: 'ext_01jd0000000000000000000000' }]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_FILE_ID');
      expect(res.body.error.details.field).toBe('file_id');
    }
    const missing = await create({ file_id: 'file_01jd0000000000000000000000' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('FILE_NOT_FOUND');
  });

  it('validates mode and options with 400 INVALID_REQUEST', async () => {
    const fileId = await upload('v.txt', Buffer.from('hello'));
    for (const body of [
      { file_id: fileId, mode: 'turbo' },
      { file_id: fileId, options: { language: 'fr' } },
      { file_id: fileId, options: { ocr_provider: 'abbyy' } },
      { file_id: fileId, options: { extract_tables: 'yes' } },
      { file_id: fileId, options: { merge_tables: 'no' } },
      { file_id: fileId, options: 'fast' },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
  });

  it('refuses simple mode for images and the cloud provider when it is not configured', async () => {
    const image = await upload('p.png', fixture('ocr/chinese_traditional.png'));
    const simple = await create({ file_id: image, mode: 'simple' });
    expect(simple.status).toBe(400);
    expect(simple.body.error.details.field).toBe('mode');
    const cloud = await create({ file_id: image, options: { ocr_provider: 'cloud' } });
    expect(cloud.status).toBe(400);
    expect(cloud.body.error.message).toContain('QUARRY_OCR_CLOUD_URL');
  });

  it('is idempotent with Idempotency-Key', async () => {
    const fileId = await upload('i.txt', Buffer.from('idempotent'));
    const first = await create({ file_id: fileId }, { 'idempotency-key': 'extract-once' });
    const again = await create({ file_id: fileId }, { 'idempotency-key': 'extract-once' });
    expect(again.body.id).toBe(first.body.id);
    const rows = await app.db.select().from(extractions).where(eq(extractions.fileId, fileId));
    expect(rows).toHaveLength(1);
  });
});

describe('the stale-task sweeper', () => {
  it('ends a task that has shown no progress for longer than the time limit, and leaves live ones alone', async () => {
    const fileId = await upload('s.txt', Buffer.from('stale'));
    const stale = (await create({ file_id: fileId })).body.id as string;
    const live = (await create({ file_id: fileId })).body.id as string;
    const longAgo = new Date(Date.now() - 600_000 - 6 * 60_000);
    await app.db.update(extractions).set({ status: 'processing', updatedAt: longAgo }).where(eq(extractions.id, stale));
    await app.db.update(extractions).set({ status: 'processing', updatedAt: new Date() }).where(eq(extractions.id, live));
    const ctx = { db: app.db, storage: getStorage(), requestId: null, principal: null };
    expect(await sweepStaleExtractions(ctx)).toBe(1);
    expect((await get(stale)).body).toMatchObject({ status: 'failed', error: { code: 'EXTRACTION_TIMEOUT' } });
    expect((await get(live)).body.status).toBe('processing');
  });
});

describe('GET /v1/extractions/{id}, cancel, and the file cascade', () => {
  it('404s an unknown task', async () => {
    const res = await get('ext_01jd0000000000000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('EXTRACTION_NOT_FOUND');
  });

  it('cancels a pending task: it fails with CANCELLED, records extraction.failed, and cannot be cancelled twice', async () => {
    const fileId = await upload('c.txt', Buffer.from('cancel me'));
    const created = await create({ file_id: fileId });
    const id = created.body.id;
    const res = await app.call(cancelRoute.POST, { method: 'POST', path: `/v1/extractions/${id}/cancel`, params: { extraction_id: id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'failed', error: { code: 'CANCELLED' } });
    expect(res.body.completed_at).toBeTruthy();

    const again = await app.call(cancelRoute.POST, { method: 'POST', path: `/v1/extractions/${id}/cancel`, params: { extraction_id: id } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('EXTRACTION_NOT_CANCELLABLE');

    const failed = await get(id);
    expect(failed.status).toBe(200);
    expect(Object.keys(failed.body).sort()).toEqual(['completed_at', 'created_at', 'error', 'file_id', 'id', 'mode', 'status']);

    const events = await app.call(eventsRoute.GET, { path: '/v1/events?type=extraction.failed' });
    const event = events.body.items.find((e: { data: { extraction_id: string } }) => e.data.extraction_id === id);
    expect(event.data).toEqual({ extraction_id: id, file_id: fileId, status: 'failed', error: { code: 'CANCELLED', message: 'The extraction was cancelled' } });
  });

  it('lists a file’s extractions newest first and removes them with the file', async () => {
    const fileId = await upload('l.md', Buffer.from('# Title\n'));
    const a = await create({ file_id: fileId, mode: 'simple' });
    const b = await create({ file_id: fileId, mode: 'advanced' });
    const list = await app.call(fileExtractionsRoute.GET, { path: '/x', params: { file_id: fileId } });
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([b.body.id, a.body.id]);
    expect(Object.keys(list.body.items[0]).sort()).toEqual(['created_at', 'id', 'mode', 'status', 'total_pages']);

    const del = await app.call(fileRoute.DELETE, { method: 'DELETE', path: '/x', params: { file_id: fileId } });
    expect(del.status).toBe(204);
    expect((await get(a.body.id)).status).toBe(404);
    expect(await app.db.select().from(extractions).where(eq(extractions.fileId, fileId))).toHaveLength(0);
  });
});
