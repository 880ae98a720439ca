/**
 * GET /v1/extractions/{id}/document: the document model kept beside a completed extraction.
 * Extractions are run in-process here (no worker pool) and recorded as the task runner does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as documentRoute from '@/app/v1/extractions/[extraction_id]/document/route';
import * as extractionRoute from '@/app/v1/extractions/[extraction_id]/route';
import * as extractionsRoute from '@/app/v1/extractions/route';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as filesRoute from '@/app/v1/files/route';
import { extractionDocumentSchema } from '@/lib/api/schemas/documents';
import { extractionDocuments, extractions } from '@/lib/db/schema';
import type { QuarryDocument } from '@/lib/document/types';
import { extractPdf } from '@/lib/extraction/engine';
import { completeExtraction, failExtraction, startExtraction } from '@/lib/extraction/task';
import type { ExtractInput, ExtractResult } from '@/lib/extraction/types';
import { getStorage } from '@/lib/storage';
import { useTestApp } from '@/test/support/app';
import { fixture, FIXTURES_DIR, formWith } from '@/test/support/fixtures';
import { addDoc, createKb, extractedFile } from '@/test/support/knowledge-bases';

const app = useTestApp();
let tmp: string;
let pdfResult: ExtractResult;
beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-document-api-'));
  const input: ExtractInput = {
    path: path.join(FIXTURES_DIR, 'pdf/code_and_formula.pdf'),
    mimeType: 'application/pdf',
    extension: '.pdf',
    mode: 'simple',
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: () => undefined,
    signal: new AbortController().signal,
    maxPages: 100,
    tmpDir: tmp,
  };
  pdfResult = await extractPdf(input, null);
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ctx = () => ({ db: app.db, storage: getStorage(), requestId: null, principal: null });

async function createTask(name: string, bytes: Buffer): Promise<{ fileId: string; id: string }> {
  const file = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith(name, bytes) });
  expect(file.status).toBe(201);
  const res = await app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body: { file_id: file.body.id, mode: 'simple' } });
  expect(res.status).toBe(201);
  return { fileId: file.body.id, id: res.body.id };
}

async function complete(id: string, result: ExtractResult): Promise<void> {
  expect(await startExtraction(ctx(), id)).toBe(true);
  expect(await completeExtraction(ctx(), id, result)).toBe(true);
}

function getDocument(id: string, key?: string) {
  return app.call(documentRoute.GET, { path: `/v1/extractions/${id}/document`, params: { extraction_id: id }, key });
}

describe('GET /v1/extractions/{id}/document', () => {
  it('answers the document model of a completed PDF, valid by its schema, and the extraction itself is unchanged', async () => {
    const { id } = await createTask('paper.pdf', fixture('pdf/code_and_formula.pdf'));
    await complete(id, pdfResult);

    const res = await getDocument(id);
    expect(res.status, res.text).toBe(200);
    expect(extractionDocumentSchema.safeParse(res.body).success).toBe(true);
    const { extraction_id, ...model } = res.body;
    expect(extraction_id).toBe(id);
    expect(model).toEqual(JSON.parse(JSON.stringify(pdfResult.document)));
    const pages = (model as QuarryDocument).blocks.filter((b) => b.type === 'section' && b.kind === 'page');
    expect(pages).toHaveLength(2);

    // Reading the extraction neither loads nor shows the model.
    const extraction = await app.call(extractionRoute.GET, { path: `/v1/extractions/${id}`, params: { extraction_id: id } });
    expect(Object.keys(extraction.body).sort()).toEqual(['completed_at', 'created_at', 'file_id', 'id', 'markdown', 'metadata', 'mode', 'status', 'total_pages']);
    expect(extraction.body.markdown).toBe(pdfResult.markdown);
    const [row] = await app.db.select().from(extractions).where(eq(extractions.id, id));
    expect(Object.keys(row)).not.toContain('document');
  });

  it('answers 409 EXTRACTION_NOT_COMPLETED while the task is pending or processing, and a failed one likewise', async () => {
    const { id } = await createTask('later.pdf', fixture('pdf/code_and_formula.pdf'));
    const pending = await getDocument(id);
    expect(pending.status).toBe(409);
    expect(pending.body.error).toMatchObject({ code: 'EXTRACTION_NOT_COMPLETED', details: { status: 'pending' }, request_id: expect.stringMatching(/^req_/) });
    expect(Object.keys(pending.body)).toEqual(['error']);

    expect(await startExtraction(ctx(), id)).toBe(true);
    const processing = await getDocument(id);
    expect(processing.status).toBe(409);
    expect(processing.body.error).toMatchObject({ code: 'EXTRACTION_NOT_COMPLETED', details: { status: 'processing' } });

    expect(await failExtraction(ctx(), id, 'CORRUPT_DOCUMENT', 'broken')).toBe(true);
    const failed = await getDocument(id);
    expect(failed.status).toBe(409);
    expect(failed.body.error).toMatchObject({ code: 'EXTRACTION_NOT_COMPLETED', details: { status: 'failed' } });
  });

  it('answers 404 EXTRACTION_NOT_FOUND for an unknown id', async () => {
    const missing = await getDocument('ext_01jd0000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('EXTRACTION_NOT_FOUND');
  });

  it('answers 404 DOCUMENT_NOT_AVAILABLE for an extraction completed before models were kept', async () => {
    const { extractionId } = await extractedFile(app, 'old.md', '# Old\n\nExtracted long ago.\n');
    const res = await getDocument(extractionId);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('DOCUMENT_NOT_AVAILABLE');
    expect(res.body.error.message).toMatch(/Run the extraction again/);
    expect(res.body.error.details).toEqual({ id: extractionId });
  });

  it('holds a key limited to a knowledge base to the extractions of its files (404 outside, as if absent)', async () => {
    const inside = await createTask('inside.pdf', fixture('pdf/code_and_formula.pdf'));
    await complete(inside.id, pdfResult);
    const outside = await createTask('outside.pdf', fixture('pdf/code_and_formula.pdf'));
    await complete(outside.id, pdfResult);
    const kbId = await createKb(app, { name: 'reach' });
    expect((await addDoc(app, kbId, { file_id: inside.fileId })).status).toBe(201);
    const limited = await app.createKey({ name: 'one kb', scopes: ['extractions:read'], knowledgeBaseIds: [kbId] });

    expect((await getDocument(inside.id, limited.key)).status).toBe(200);
    const refused = await getDocument(outside.id, limited.key);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('EXTRACTION_NOT_FOUND');
    // A key without the scope is refused before anything is looked up.
    const files = await app.createKey({ name: 'files only', scopes: ['files:read'] });
    expect((await getDocument(inside.id, files.key)).body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('stores text the database cannot hold (NUL, unpaired surrogates) cleaned, rather than failing the task', async () => {
    const { id } = await createTask('hostile.txt', Buffer.from('hostile'));
    const document: QuarryDocument = {
      version: 1,
      metadata: { title: 'Bad\u0000title' },
      blocks: [
        { type: 'heading', level: 1, content: [{ type: 'text', text: 'Half \ud800 a pair' }] },
        { type: 'table', header_rows: 0, rows: [[{ content: [{ type: 'text', text: 'nul\u0000cell' }], col_span: 2 }]] },
      ],
    };
    await complete(id, { markdown: 'hostile', totalPages: 1, metadata: {}, document });
    const res = await getDocument(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.metadata.title).toBe('Badtitle');
    expect(res.body.blocks[0].content[0].text).toBe('Half \ufffd a pair');
    expect(res.body.blocks[1].rows[0][0]).toEqual({ content: [{ type: 'text', text: 'nulcell' }], col_span: 2 });
  });

  it('is deleted with its file', async () => {
    const { fileId, id } = await createTask('gone.pdf', fixture('pdf/code_and_formula.pdf'));
    await complete(id, pdfResult);
    expect(await app.db.select().from(extractionDocuments).where(eq(extractionDocuments.extractionId, id))).toHaveLength(1);
    const deleted = await app.call(fileRoute.DELETE, { method: 'DELETE', path: `/v1/files/${fileId}`, params: { file_id: fileId } });
    expect(deleted.status).toBe(204);
    expect(await app.db.select().from(extractionDocuments).where(eq(extractionDocuments.extractionId, id))).toHaveLength(0);
    expect((await getDocument(id)).status).toBe(404);
  });
});
