import { expect } from 'vitest';
import * as filesRoute from '@/app/v1/files/route';
import * as documentsRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/route';
import * as kbsRoute from '@/app/v1/knowledge-bases/route';
import { extractionDocuments, extractions } from '@/lib/db/schema';
import { documentFromMarkdown } from '@/lib/document/from-markdown';
import { newId } from '@/lib/ids';
import { EmbeddedRunner } from '@/lib/workflows/embedded';
import { WORKFLOWS } from '@/lib/ops/workflows';
import type { TestApp } from './app';
import { formWith } from './fixtures';

/**
 * Uploads a text file and records a completed extraction of it with the given Markdown; with
 * `document`, also its document model as a Markdown file's extraction keeps it (otherwise the
 * extraction is one from before models were kept).
 */
export async function extractedFile(
  app: TestApp,
  filename: string,
  markdown: string,
  metadata: Record<string, unknown> = {},
  { document = false }: { document?: boolean } = {},
): Promise<{ fileId: string; extractionId: string }> {
  const res = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith(filename, Buffer.from(markdown)) });
  expect(res.status, res.text).toBe(201);
  const extractionId = newId('extraction');
  const now = new Date();
  await app.db.insert(extractions).values({
    id: extractionId,
    fileId: res.body.id,
    status: 'completed',
    mode: 'normal',
    progress: 100,
    markdown,
    totalPages: 1,
    metadata,
    createdAt: now,
    updatedAt: now,
    completedAt: now,
  });
  if (document) {
    const model = documentFromMarkdown(markdown, metadata, { spans: true }) as unknown as Record<string, unknown>;
    await app.db.insert(extractionDocuments).values({ extractionId, document: model });
  }
  return { fileId: res.body.id, extractionId };
}

export async function createKb(app: TestApp, body: Record<string, unknown> = {}): Promise<string> {
  const res = await app.call(kbsRoute.POST, { method: 'POST', path: '/v1/knowledge-bases', body: { name: 'kb', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

export async function addDoc(app: TestApp, kbId: string, body: Record<string, unknown>) {
  return app.call(documentsRoute.POST, {
    method: 'POST',
    path: `/v1/knowledge-bases/${kbId}/documents`,
    params: { kb_id: kbId },
    body,
  });
}

/** Runs every queued workflow (indexing, re-indexing) to the end. */
export async function drainWorkflows(app: TestApp): Promise<void> {
  const runner = new EmbeddedRunner({ db: app.db, workflows: WORKFLOWS, pollMs: 50 });
  await runner.drain();
}
