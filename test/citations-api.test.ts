/**
 * GET /v1/extractions/{id}/layout: the positions kept beside a completed extraction's Markdown.
 * Extractions are run in-process here (no worker pool) and recorded as the task runner does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as extractionsRoute from '@/app/v1/extractions/route';
import * as extractionRoute from '@/app/v1/extractions/[extraction_id]/route';
import * as layoutRoute from '@/app/v1/extractions/[extraction_id]/layout/route';
import * as filesRoute from '@/app/v1/files/route';
import { chunkMarkdown } from '@/lib/chunking';
import * as kbRoute from '@/app/v1/knowledge-bases/[kb_id]/route';
import { extractionLayouts, kbChunks, kbDocuments } from '@/lib/db/schema';
import { extractPdf } from '@/lib/extraction/engine';
import { completeExtraction, startExtraction } from '@/lib/extraction/task';
import type { ExtractInput, ExtractResult } from '@/lib/extraction/types';
import { getStorage } from '@/lib/storage';
import { useTestApp } from '@/test/support/app';
import { fixture, FIXTURES_DIR, formWith } from '@/test/support/fixtures';
import { addDoc, createKb, drainWorkflows } from '@/test/support/knowledge-bases';

const app = useTestApp();
let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-citations-api-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ctx = () => ({ db: app.db, storage: getStorage(), requestId: null, principal: null });

async function createTask(name: string, bytes: Buffer): Promise<string> {
  const file = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith(name, bytes) });
  expect(file.status).toBe(201);
  const res = await app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body: { file_id: file.body.id, mode: 'simple' } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function complete(id: string, result: ExtractResult): Promise<void> {
  expect(await startExtraction(ctx(), id)).toBe(true);
  expect(await completeExtraction(ctx(), id, result)).toBe(true);
}

function getLayout(id: string) {
  return app.call(layoutRoute.GET, { path: `/v1/extractions/${id}/layout`, params: { extraction_id: id } });
}

async function extractFixture(relative: string): Promise<ExtractResult> {
  const input: ExtractInput = {
    path: path.join(FIXTURES_DIR, relative),
    mimeType: 'application/pdf',
    extension: '.pdf',
    mode: 'simple',
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: () => undefined,
    signal: new AbortController().signal,
    maxPages: 100,
    tmpDir: tmp,
  };
  return extractPdf(input, null);
}

describe('GET /v1/extractions/{id}/layout', () => {
  it('answers the blocks and lines of a completed PDF, and the extraction itself is unchanged', async () => {
    const id = await createTask('paper.pdf', fixture('pdf/code_and_formula.pdf'));
    const result = await extractFixture('pdf/code_and_formula.pdf');
    await complete(id, result);

    const res = await getLayout(id);
    expect(res.status).toBe(200);
    expect(res.body.extraction_id).toBe(id);
    expect(res.body.pages.map((p: { page: number }) => p.page)).toEqual([1, 2]);
    const block = res.body.pages[0].blocks[1];
    expect(Object.keys(block).sort()).toEqual(['char_end', 'char_start', 'lines', 'x0', 'x1', 'y0', 'y1']);
    expect(block.lines.length).toBeGreaterThan(3);
    expect(result.markdown.slice(block.lines[0].char_start, block.lines[0].char_end)).toMatch(/^Lorem ipsum dolor sit amet/);
    for (const line of block.lines) {
      expect(line.x0).toBeGreaterThanOrEqual(block.x0);
      expect(line.y1).toBeLessThanOrEqual(block.y1);
    }

    const extraction = await app.call(extractionRoute.GET, { path: `/v1/extractions/${id}`, params: { extraction_id: id } });
    expect(Object.keys(extraction.body).sort()).toEqual(['completed_at', 'created_at', 'file_id', 'id', 'markdown', 'metadata', 'mode', 'status', 'total_pages']);
    expect(extraction.body.markdown).toBe(result.markdown);

    // The stored record gives chunks the same boxes as the extractor's own.
    const [stored] = await app.db.select().from(extractionLayouts).where(eq(extractionLayouts.extractionId, id));
    const strategy = { type: 'paragraph', chunk_size: 128, overlap: 0 } as const;
    const fromStored = await chunkMarkdown(extraction.body.markdown, strategy, { layout: stored.layout as never });
    const fromResult = await chunkMarkdown(result.markdown, strategy, { layout: result.layout });
    expect(fromStored.map((c) => c.metadata)).toEqual(fromResult.map((c) => c.metadata));
    expect(fromStored.every((c) => (c.metadata.boxes?.length ?? 0) > 0)).toBe(true);
  });

  it('answers an empty page list for a format without positions', async () => {
    const id = await createTask('notes.txt', Buffer.from('Plain text has no pages.\n'));
    await complete(id, { markdown: 'Plain text has no pages.\n', totalPages: 1, metadata: {} });
    const res = await getLayout(id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ extraction_id: id, pages: [] });
  });

  it('409s a task that has not completed and 404s an unknown one', async () => {
    const id = await createTask('later.txt', Buffer.from('later'));
    const pending = await getLayout(id);
    expect(pending.status).toBe(409);
    expect(pending.body.error.code).toBe('EXTRACTION_NOT_COMPLETED');

    const missing = await getLayout('ext_01jd0000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('EXTRACTION_NOT_FOUND');
  });

  it('gives indexed chunks their boxes, and keeps them through a re-index with another chunking strategy', async () => {
    const id = await createTask('indexed.pdf', fixture('pdf/code_and_formula.pdf'));
    await complete(id, await extractFixture('pdf/code_and_formula.pdf'));
    const [extraction] = await app.db.select().from(extractionLayouts).where(eq(extractionLayouts.extractionId, id));
    expect(extraction).toBeDefined();
    const file = (await app.call(extractionRoute.GET, { path: `/v1/extractions/${id}`, params: { extraction_id: id } })).body.file_id;
    const kbId = await createKb(app, { name: 'boxes', chunking_strategy: { type: 'paragraph', chunk_size: 256 } });
    const doc = await addDoc(app, kbId, { file_id: file });
    expect(doc.status).toBe(201);
    await drainWorkflows(app);
    const boxesOf = async () => {
      const rows = await app.db.select().from(kbChunks).where(eq(kbChunks.documentId, doc.body.id));
      return rows.map((r) => r.metadata as { boxes?: unknown[]; char_start?: number });
    };
    const before = await boxesOf();
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((m) => (m.boxes?.length ?? 0) > 0 && typeof m.char_start === 'number')).toBe(true);

    const patched = await app.call(kbRoute.PATCH, {
      method: 'PATCH',
      path: `/v1/knowledge-bases/${kbId}`,
      params: { kb_id: kbId },
      body: { chunking_strategy: { type: 'fixed', chunk_size: 64, overlap: 8 } },
    });
    expect(patched.status).toBe(200);
    await drainWorkflows(app);
    const [row] = await app.db.select().from(kbDocuments).where(eq(kbDocuments.id, doc.body.id));
    expect(row.status).toBe('indexed');
    const after = await boxesOf();
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.every((m) => (m.boxes?.length ?? 0) > 0)).toBe(true);
  }, 60_000);
});
