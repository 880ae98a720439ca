/**
 * From a file to a searchable document in one step: uploads that also extract and add to a
 * knowledge base, documents that wait for their extraction (and fail with it), extraction pinning,
 * content deduplication. Over the route handlers, on PGlite and (in CI) PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as extractionsRoute from '@/app/v1/extractions/route';
import * as filesRoute from '@/app/v1/files/route';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as documentRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/[document_id]/route';
import * as documentsRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/route';
import * as searchRoute from '@/app/v1/knowledge-bases/[kb_id]/search/route';
import { extractions, files, kbDocuments, workflowRuns } from '@/lib/db/schema';
import { failExtraction } from '@/lib/extraction/task';
import { insertDocument } from '@/lib/knowledge-bases/add-document';
import { failWaitingDocuments } from '@/lib/knowledge-bases/waiting-workflow';
import { getStorage } from '@/lib/storage';
import { useTestApp } from '@/test/support/app';
import { formWith } from '@/test/support/fixtures';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';

const app = useTestApp();
const services = () => ({ db: app.db, storage: getStorage(), requestId: null, principal: null });

function upload(filename: string, text: string, fields: Record<string, string> = {}, key?: string, headers?: Record<string, string>) {
  return app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith(filename, Buffer.from(text), fields), key, headers });
}

function getDocument(kbId: string, documentId: string) {
  return app.call(documentRoute.GET, {
    path: `/v1/knowledge-bases/${kbId}/documents/${documentId}`,
    params: { kb_id: kbId, document_id: documentId },
  });
}

async function fileCount(): Promise<number> {
  return (await app.db.select({ id: files.id }).from(files)).length;
}

async function pendingExtraction(fileId: string): Promise<string> {
  const res = await app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body: { file_id: fileId } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe('POST /v1/files with extract and knowledge_base_id', () => {
  it('a document titled by its filename while waiting takes the title its extraction finds; a given title stays', async () => {
    const kbId = await createKb(app);
    const untitled = await upload('harbours-survey.md', '# Survey of the harbours\n\nSchooners carried cinnamon into the old port.\n', {
      extract: 'simple',
      knowledge_base_id: kbId,
    });
    const titled = await upload('harbours-notes.md', '# Notes on the harbours\n\nThe harbour master counted every ship.\n', {
      extract: 'simple',
      knowledge_base_id: kbId,
      document_title: 'My own title',
    });
    expect((await getDocument(kbId, untitled.body.document.id)).body.title).toBe('harbours-survey.md');
    await drainWorkflows(app);
    const [extraction] = await app.db.select().from(extractions).where(eq(extractions.id, untitled.body.extraction.id));
    expect(extraction.metadata).toMatchObject({ title: 'Survey of the harbours' });
    expect((await getDocument(kbId, untitled.body.document.id)).body).toMatchObject({ status: 'indexed', title: 'Survey of the harbours' });
    expect((await getDocument(kbId, titled.body.document.id)).body).toMatchObject({ status: 'indexed', title: 'My own title' });
  }, 60_000);

  it('stores, extracts and indexes in one call; the document is searchable once the pipeline has run', async () => {
    const kbId = await createKb(app);
    const res = await upload('pipeline.md', '# Pipelines\n\nA quarry of granite and basalt near the river.\n', {
      extract: 'simple',
      knowledge_base_id: kbId,
      document_title: 'Granite notes',
      document_metadata: '{"team": "geology"}',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.extraction).toMatchObject({ status: 'pending', mode: 'simple' });
    expect(res.body.document).toMatchObject({ kb_id: kbId, status: 'pending' });

    const waiting = await getDocument(kbId, res.body.document.id);
    expect(waiting.body).toMatchObject({ status: 'pending', waiting_for: 'extraction', extraction_progress: 0, title: 'Granite notes' });
    expect(waiting.body.extraction_id).toBe(res.body.extraction.id);

    await drainWorkflows(app);
    const indexed = await getDocument(kbId, res.body.document.id);
    expect(indexed.body).toMatchObject({ status: 'indexed', metadata: { team: 'geology' } });
    expect(indexed.body.waiting_for).toBeUndefined();
    const search = await app.call(searchRoute.POST, {
      method: 'POST',
      path: `/v1/knowledge-bases/${kbId}/search`,
      params: { kb_id: kbId },
      body: { query: 'granite basalt quarry' },
    });
    expect(search.status, search.text).toBe(200);
    expect(search.body.chunks[0]).toMatchObject({ document_id: res.body.document.id, document_title: 'Granite notes' });
  }, 60_000);

  it('extract alone starts the extraction; a JSON object carries options', async () => {
    const res = await upload('options.md', 'Some text to read.\n', { extract: '{"mode": "normal", "options": {"extract_tables": false}}' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.extraction).toMatchObject({ status: 'pending', mode: 'normal' });
    expect(res.body.document).toBeUndefined();
    const [row] = await app.db.select().from(extractions).where(eq(extractions.id, res.body.extraction.id));
    expect(row.options).toMatchObject({ extract_tables: false, ocr_provider: 'default' });
  });

  it('refuses before storing anything: unknown knowledge base, bad parts, missing scopes', async () => {
    const before = await fileCount();
    const unknown = await upload('a.md', 'unknown kb', { knowledge_base_id: 'kb_01jd0000000000000000000000' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'KNOWLEDGE_BASE_NOT_FOUND']);
    const badMode = await upload('b.md', 'bad mode', { extract: 'fastest' });
    expect([badMode.status, badMode.body.error.code, badMode.body.error.details.field]).toEqual([400, 'INVALID_REQUEST', 'extract']);
    const badMeta = await upload('c.md', 'bad meta', { document_metadata: '[1, 2]' });
    expect([badMeta.status, badMeta.body.error.details.field]).toEqual([400, 'document_metadata']);

    const filesOnly = await app.createKey({ scopes: ['files:write'] });
    const noExtract = await upload('d.md', 'no scope', { extract: 'normal' }, filesOnly.key);
    expect([noExtract.status, noExtract.body.error.code, noExtract.body.error.details.required_scope]).toEqual([403, 'INSUFFICIENT_SCOPE', 'extractions:write']);
    const kbId = await createKb(app);
    const noKb = await upload('e.md', 'no kb scope', { knowledge_base_id: kbId }, (await app.createKey({ scopes: ['files:write', 'extractions:write'] })).key);
    expect([noKb.status, noKb.body.error.details.required_scope]).toEqual([403, 'kb:write']);
    expect(await fileCount()).toBe(before);
  });

  it('an idempotent replay answers the first response and starts nothing twice', async () => {
    const kbId = await createKb(app);
    const headers = { 'idempotency-key': 'ingest-once-1' };
    const first = await upload('once.md', 'Only once, please.\n', { knowledge_base_id: kbId }, undefined, headers);
    const second = await upload('once.md', 'Only once, please.\n', { knowledge_base_id: kbId }, undefined, headers);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
    const runs = await app.db.select().from(extractions).where(eq(extractions.fileId, first.body.id));
    expect(runs).toHaveLength(1);
    const other = await upload('once.md', 'Only once, please.\n', { knowledge_base_id: await createKb(app) }, undefined, headers);
    expect([other.status, other.body.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
  });
});

describe('dedupe and content already in a knowledge base', () => {
  it('dedupe=true returns the stored file with the same content (200) instead of storing a copy', async () => {
    const text = `Deduplicated content ${Date.now()}\n`;
    const stored = await upload('first.md', text);
    expect(stored.status).toBe(201);
    const before = await fileCount();
    const again = await upload('copy.md', text, { dedupe: 'true' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: stored.body.id, deduplicated: true, sha256: stored.body.sha256, filename: 'first.md' });
    const fresh = await upload('new.md', `${text}more`, { dedupe: 'true' });
    expect(fresh.status).toBe(201);
    expect(fresh.body.deduplicated).toBe(false);
    expect(await fileCount()).toBe(before + 1);
    // Without dedupe a copy is stored, as the contract has it.
    const copy = await upload('copy.md', text);
    expect([copy.status, copy.body.id === stored.body.id]).toEqual([201, false]);

    const kbId = await createKb(app);
    const added = await upload('x.md', text, { dedupe: 'true', knowledge_base_id: kbId });
    expect(added.status, added.text).toBe(200);
    expect(added.body.document).toMatchObject({ kb_id: kbId, status: 'pending' });
    // The same content again, as another file: 409 naming the document that has it.
    const twice = await addDoc(app, kbId, { file_id: copy.body.id, extract: 'normal' });
    expect([twice.status, twice.body.error.code, twice.body.error.details.document_id]).toEqual([409, 'DOCUMENT_EXISTS', added.body.document.id]);
  });
});

describe('documents that wait for their extraction', () => {
  it('a document added while the extraction runs waits, then is indexed; extract starts one for a file never extracted', async () => {
    const kbId = await createKb(app);
    const stored = await upload('later.md', '# Later\n\nIndexed after its extraction.\n');
    const never = await addDoc(app, kbId, { file_id: stored.body.id });
    expect([never.status, never.body.error.code]).toEqual([409, 'EXTRACTION_NOT_COMPLETED']);
    const noScope = await app.createKey({ scopes: ['kb:write'] });
    const refused = await app.call((await import('@/app/v1/knowledge-bases/[kb_id]/documents/route')).POST, {
      method: 'POST',
      path: `/v1/knowledge-bases/${kbId}/documents`,
      params: { kb_id: kbId },
      body: { file_id: stored.body.id, extract: 'simple' },
      key: noScope.key,
    });
    expect([refused.status, refused.body.error.details.required_scope]).toEqual([403, 'extractions:write']);

    const started = await addDoc(app, kbId, { file_id: stored.body.id, extract: 'simple' });
    expect(started.status, started.text).toBe(201);
    expect((await getDocument(kbId, started.body.id)).body).toMatchObject({ status: 'pending', waiting_for: 'extraction' });
    await drainWorkflows(app);
    expect((await getDocument(kbId, started.body.id)).body).toMatchObject({ status: 'indexed' });
    // Released once: one indexing run for the document.
    const runs = await app.db.select().from(workflowRuns).where(eq(workflowRuns.workflow, 'index-document'));
    expect(runs.filter((r) => (r.input as { document_id?: string }).document_id === started.body.id)).toHaveLength(1);
    const releases = await app.db.select().from(workflowRuns).where(eq(workflowRuns.workflow, 'release-waiting-documents'));
    expect(releases.filter((r) => (r.input as { extraction_id?: string }).extraction_id === started.body.extraction_id)).toHaveLength(1);
  }, 60_000);

  it('a failed extraction fails its waiting documents with EXTRACTION_FAILED and the reason', async () => {
    const kbId = await createKb(app);
    const stored = await upload('doomed.md', 'This extraction will fail.\n');
    const extractionId = await pendingExtraction(stored.body.id);
    const doc = await addDoc(app, kbId, { file_id: stored.body.id });
    expect(doc.status, doc.text).toBe(201);
    await failExtraction(services(), extractionId, 'CORRUPT_DOCUMENT', 'The file is damaged');
    await drainWorkflows(app);
    const failed = await getDocument(kbId, doc.body.id);
    expect(failed.body).toMatchObject({ status: 'failed', error: { code: 'EXTRACTION_FAILED' } });
    expect(failed.body.error.message).toContain('The file is damaged');
    // The list says why too, so a page of documents explains its failures in one request.
    const list = await app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents`, params: { kb_id: kbId } });
    expect(list.body.items).toEqual([expect.objectContaining({ id: doc.body.id, status: 'failed', error: failed.body.error })]);
  }, 60_000);

  it('an extraction that ends while the document is being added still finds it (the race)', async () => {
    const kbId = await createKb(app);
    const stored = await upload('race.md', 'Racing the extraction.\n');
    const extractionId = await pendingExtraction(stored.body.id);
    const [file] = await app.db.select().from(files).where(eq(files.id, stored.body.id));
    let ended: Promise<number> | undefined;
    const doc = await app.db.transaction(async (tx) => {
      const row = await insertDocument(tx, services(), kbId, file, { file_id: file.id });
      // The extraction fails now, from another transaction, and its waiting documents are
      // looked for at once: that must wait for this document to be committed.
      ended = failExtraction(services(), extractionId, 'CORRUPT_DOCUMENT', 'raced').then(() => failWaitingDocuments(services(), extractionId));
      await new Promise((resolve) => setTimeout(resolve, 300));
      return row;
    });
    expect(await ended).toBe(1);
    const [row] = await app.db.select().from(kbDocuments).where(eq(kbDocuments.id, doc.id));
    expect(row).toMatchObject({ status: 'failed', errorCode: 'EXTRACTION_FAILED', awaitingExtraction: false });
  }, 60_000);

  it('extraction_id pins a completed extraction of the file; another file\'s is 400, an unfinished one 409', async () => {
    const kbId = await createKb(app);
    const a = await extractedFile(app, 'pin-a.md', '# A\n\nfirst version');
    const b = await extractedFile(app, 'pin-b.md', '# B\n\nother file');
    const other = await addDoc(app, kbId, { file_id: a.fileId, extraction_id: b.extractionId });
    expect([other.status, other.body.error.code, other.body.error.details.field]).toEqual([400, 'INVALID_REQUEST', 'extraction_id']);
    const running = await pendingExtraction(a.fileId);
    const unfinished = await addDoc(app, kbId, { file_id: a.fileId, extraction_id: running });
    expect([unfinished.status, unfinished.body.error.code]).toEqual([409, 'EXTRACTION_NOT_COMPLETED']);
    const pinned = await addDoc(app, kbId, { file_id: a.fileId, extraction_id: a.extractionId });
    expect(pinned.status, pinned.text).toBe(201);
    expect(pinned.body.extraction_id).toBe(a.extractionId);
    // Deleting the file takes its documents with it.
    const gone = await app.call(fileRoute.DELETE, { method: 'DELETE', path: `/v1/files/${a.fileId}`, params: { file_id: a.fileId } });
    expect(gone.status).toBe(204);
    expect(await app.db.select().from(kbDocuments).where(eq(kbDocuments.id, pinned.body.id))).toHaveLength(0);
  });
});

describe('retry and re-index', () => {
  const post = async (path: string, params: Record<string, string>, file: string, body?: unknown, key?: string) => {
    const mod = (await import(`@/app/v1/knowledge-bases/[kb_id]/${file}/route`)) as typeof fileRoute & { POST: typeof filesRoute.POST };
    return app.call(mod.POST, { method: 'POST', path, params, body, key });
  };
  const retry = (kbId: string, documentId: string, key?: string) =>
    post(`/v1/knowledge-bases/${kbId}/documents/${documentId}/retry`, { kb_id: kbId, document_id: documentId }, 'documents/[document_id]/retry', undefined, key);

  async function failedDocument(kbId: string, name: string) {
    const stored = await upload(name, `Text of ${name}, read again on retry.\n`);
    const extractionId = await pendingExtraction(stored.body.id);
    const doc = await addDoc(app, kbId, { file_id: stored.body.id });
    await failExtraction(services(), extractionId, 'EXTRACTION_TIMEOUT', 'took too long');
    await drainWorkflows(app);
    expect((await getDocument(kbId, doc.body.id)).body.status).toBe('failed');
    return { documentId: doc.body.id as string, extractionId, fileId: stored.body.id as string };
  }

  it('a document failed by its extraction is retried with a new extraction of the same mode, then indexed', async () => {
    const kbId = await createKb(app);
    const { documentId, extractionId } = await failedDocument(kbId, 'retry-me.md');
    const kbOnly = await app.createKey({ scopes: ['kb:write', 'kb:read'] });
    const refused = await retry(kbId, documentId, kbOnly.key);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'EXTRACTION_NOT_COMPLETED']);

    const res = await retry(kbId, documentId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending', waiting_for: 'extraction' });
    expect(res.body.extraction_id).not.toBe(extractionId);
    await drainWorkflows(app);
    expect((await getDocument(kbId, documentId)).body).toMatchObject({ status: 'indexed' });
    const again = await retry(kbId, documentId);
    expect([again.status, again.body.error.code]).toEqual([409, 'DOCUMENT_NOT_FAILED']);
  }, 60_000);

  it('retry-failed retries every failed document and says what happened to each', async () => {
    const kbId = await createKb(app);
    const a = await failedDocument(kbId, 'all-a.md');
    const b = await failedDocument(kbId, 'all-b.md');
    const res = await post(`/v1/knowledge-bases/${kbId}/retry-failed`, { kb_id: kbId }, 'retry-failed');
    expect(res.status, res.text).toBe(200);
    expect(res.body.retried).toBe(2);
    expect(res.body.results.map((r: { document_id: string }) => r.document_id).sort()).toEqual([a.documentId, b.documentId].sort());
    await drainWorkflows(app);
    for (const id of [a.documentId, b.documentId]) expect((await getDocument(kbId, id)).body.status).toBe('indexed');
    const none = await post(`/v1/knowledge-bases/${kbId}/retry-failed`, { kb_id: kbId }, 'retry-failed');
    expect(none.body).toEqual({ retried: 0, results: [] });
  }, 60_000);

  it('re-indexes an indexed document from a newer completed extraction; a busy one is 409', async () => {
    const kbId = await createKb(app);
    const first = await extractedFile(app, 'versions.md', '# Old\n\nThe old wording about zeppelins.');
    const doc = await addDoc(app, kbId, { file_id: first.fileId });
    await drainWorkflows(app);
    const newer = new Date(Date.now() + 1000);
    const [second] = await app.db
      .insert(extractions)
      .values({ id: `ext_${Date.now()}reindex`, fileId: first.fileId, status: 'completed', mode: 'advanced', progress: 100, markdown: '# New\n\nThe new wording about airships.', totalPages: 1, metadata: {}, createdAt: newer, updatedAt: newer, completedAt: newer })
      .returning();
    const path = `/v1/knowledge-bases/${kbId}/documents/${doc.body.id}/reindex`;
    const params = { kb_id: kbId, document_id: doc.body.id };
    const res = await post(path, params, 'documents/[document_id]/reindex', {});
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending', extraction_id: second.id });
    const busy = await post(path, params, 'documents/[document_id]/reindex', {});
    expect([busy.status, busy.body.error.code]).toEqual([409, 'DOCUMENT_BUSY']);
    await drainWorkflows(app);
    const search = await app.call(searchRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/search`, params: { kb_id: kbId }, body: { query: 'airships' } });
    expect(search.body.chunks[0].content).toContain('airships');
    const pinnedBack = await post(path, params, 'documents/[document_id]/reindex', { extraction_id: first.extractionId });
    expect(pinnedBack.body.extraction_id).toBe(first.extractionId);
  }, 60_000);
});

describe('GET /v1/files?q=', () => {
  it('finds files by part of their name across all pages, in any case; % and _ match themselves', async () => {
    const marker = `Qz${Date.now()}`;
    const names = [`${marker}-Annual_Report.md`, `${marker}-annual-summary.md`, `${marker}-100%.md`, `${marker}-other.md`];
    for (const name of names) expect((await upload(name, `content of ${name}`)).status).toBe(201);
    const list = (q: string, extra = '') => app.call(filesRoute.GET, { path: `/v1/files?q=${encodeURIComponent(q)}${extra}` });
    const annual = await list(`${marker.toLowerCase()}-ANNUAL`);
    expect(annual.body.items.map((f: { filename: string }) => f.filename).sort()).toEqual([names[0], names[1]].sort());
    expect(annual.body.total).toBe(2);
    const paged = await list(marker, '&limit=1&offset=3&sort_by=filename&order=asc');
    expect([paged.body.total, paged.body.items.length]).toEqual([4, 1]);
    expect((await list(`${marker}-Annual_`)).body.items.map((f: { filename: string }) => f.filename)).toEqual([names[0]]);
    expect((await list(`${marker}-100%`)).body.total).toBe(1);
    expect((await list(`${marker}-1_0`)).body.total).toBe(0);
    // Each item says where its text stands: its newest extraction, or null.
    expect(annual.body.items.every((f: { latest_extraction: unknown }) => f.latest_extraction === null)).toBe(true);
    const started = await upload(`${marker}-started.md`, 'to be read', { extract: 'advanced' });
    const [item] = (await list(`${marker}-started`)).body.items;
    expect(item.latest_extraction).toEqual({ id: started.body.extraction.id, status: 'pending', mode: 'advanced', progress: 0 });
  });
});

describe('batches', () => {
  it('adds good items and reports bad ones, each on its own; a replay answers the same', async () => {
    const kbId = await createKb(app);
    const good = await extractedFile(app, 'batch-good.md', '# Good\n\nready to index');
    const fresh = await upload('batch-fresh.md', 'never extracted yet');
    const twin = await extractedFile(app, 'batch-twin.md', '# Good\n\nready to index');
    const { POST } = await import('@/app/v1/knowledge-bases/[kb_id]/documents/batch/route');
    const body = {
      items: [{ file_id: good.fileId, title: 'Good one' }, { file_id: 'not-a-file' }, { file_id: 'file_01jd0000000000000000000000' }, { file_id: fresh.body.id }, { file_id: twin.fileId }],
      extract: 'simple',
    };
    const call = () => app.call(POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/documents/batch`, params: { kb_id: kbId }, body, headers: { 'idempotency-key': 'batch-1' } });
    const res = await call();
    expect(res.status, res.text).toBe(207);
    expect([res.body.created, res.body.failed]).toEqual([2, 3]);
    const byIndex = res.body.results;
    expect(byIndex[0].document).toMatchObject({ title: 'Good one', status: 'pending', extraction_id: good.extractionId });
    expect(byIndex[1].error.code).toBe('INVALID_FILE_ID');
    expect(byIndex[2].error.code).toBe('FILE_NOT_FOUND');
    expect(byIndex[3].document).toMatchObject({ status: 'pending' });
    expect(byIndex[4].error).toMatchObject({ code: 'DOCUMENT_EXISTS', details: { document_id: byIndex[0].document.id } });
    expect((await call()).body).toEqual(res.body);

    await drainWorkflows(app);
    for (const id of [byIndex[0].document.id, byIndex[3].document.id]) expect((await getDocument(kbId, id)).body.status).toBe('indexed');
    const unknown = await app.call(POST, { method: 'POST', path: '/v1/knowledge-bases/kb_01jd0000000000000000000000/documents/batch', params: { kb_id: 'kb_01jd0000000000000000000000' }, body: { items: [{ file_id: good.fileId }] } });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'KNOWLEDGE_BASE_NOT_FOUND']);
    const tooMany = await app.call(POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/documents/batch`, params: { kb_id: kbId }, body: { items: Array.from({ length: 101 }, () => ({ file_id: good.fileId })) } });
    expect([tooMany.status, tooMany.body.error.details.field]).toEqual([400, 'items']);
  }, 60_000);

  it('starts an extraction of each file, reporting the files that cannot have one', async () => {
    const a = await upload('ex-a.md', 'first batch file');
    const b = await upload('ex-b.md', 'second batch file');
    const { POST } = await import('@/app/v1/extractions/batch/route');
    const res = await app.call(POST, { method: 'POST', path: '/v1/extractions/batch', body: { file_ids: [a.body.id, 'file_01jd0000000000000000000000', b.body.id], mode: 'simple' } });
    expect(res.status, res.text).toBe(207);
    expect([res.body.created, res.body.failed]).toEqual([2, 1]);
    expect(res.body.results[0].extraction).toMatchObject({ file_id: a.body.id, status: 'pending', mode: 'simple' });
    expect(res.body.results[1]).toMatchObject({ index: 1, error: { code: 'FILE_NOT_FOUND' } });
    expect(res.body.results[2].extraction.file_id).toBe(b.body.id);
    // Nothing waits for these extractions: their ends start no run that would find nothing to do.
    await drainWorkflows(app);
    const ids = [res.body.results[0].extraction.id, res.body.results[2].extraction.id];
    const done = await app.db.select().from(extractions).where(eq(extractions.status, 'completed'));
    expect(done.map((e) => e.id)).toEqual(expect.arrayContaining(ids));
    const waitingRuns = await app.db.select().from(workflowRuns);
    expect(waitingRuns.filter((r) => ids.includes((r.input as { extraction_id?: string }).extraction_id ?? '') && r.workflow !== 'extract-document')).toEqual([]);
  });
});
