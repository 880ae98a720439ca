import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Block } from '@/lib/document/types';
import { extractPdf } from '@/lib/extraction/engine';
import { completeExtraction, startExtraction } from '@/lib/extraction/task';
import { blocksOnPages } from '@/lib/mcp/pages';
import { getStorage } from '@/lib/storage';
import { useTestApp } from '@/test/support/app';
import { mcpRpc } from '@/test/support/mcp';
import { fixture, FIXTURES_DIR, formWith } from '@/test/support/fixtures';
import { extractedFile } from '@/test/support/knowledge-bases';
import * as extractionsRoute from '@/app/v1/extractions/route';
import * as filesRoute from '@/app/v1/files/route';

/**
 * The document model over MCP, in-process: the quarry://extractions/{id}/document resource (listed,
 * templated, read) and the get_extraction_document tool, under the extraction resource's scope.
 */
const app = useTestApp();

const rpc = (key: string, method: string, params: Record<string, unknown> = {}) => mcpRpc(app, key, method, params);

/** A PDF extraction, completed in-process as the task runner records it. */
async function completedPdf(): Promise<string> {
  const file = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith('paper.pdf', fixture('pdf/code_and_formula.pdf')) });
  const created = await app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body: { file_id: file.body.id, mode: 'simple' } });
  const id = created.body.id as string;
  const ctx = { db: app.db, storage: getStorage(), requestId: null, principal: null };
  const result = await extractPdf(
    {
      path: path.join(FIXTURES_DIR, 'pdf/code_and_formula.pdf'),
      mimeType: 'application/pdf',
      extension: '.pdf',
      mode: 'simple',
      options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
      onProgress: () => undefined,
      signal: new AbortController().signal,
      maxPages: 100,
      tmpDir: app.dataDir,
    },
    null,
  );
  expect(await startExtraction(ctx, id)).toBe(true);
  expect(await completeExtraction(ctx, id, result)).toBe(true);
  return id;
}

describe('the document model over MCP', () => {
  it('is a resource template, listed for extractions that have one, and read as JSON', async () => {
    const id = await completedPdf();
    const old = await extractedFile(app, 'old.md', '# Old\n\nNo model kept.\n');
    const { key } = await app.createKey({ scopes: ['extractions:read'] });

    const templates = (await rpc(key, 'resources/templates/list')).result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate);
    expect(templates).toEqual(['quarry://extractions/{extraction_id}', 'quarry://extractions/{extraction_id}/document']);
    const listed = (await rpc(key, 'resources/list')).result.resources as { uri: string; mimeType: string }[];
    expect(listed).toContainEqual(expect.objectContaining({ uri: `quarry://extractions/${id}/document`, mimeType: 'application/json' }));
    expect(listed.map((r) => r.uri)).toContain(`quarry://extractions/${old.extractionId}`);
    expect(listed.map((r) => r.uri)).not.toContain(`quarry://extractions/${old.extractionId}/document`);

    const read = await rpc(key, 'resources/read', { uri: `quarry://extractions/${id}/document` });
    const content = read.result.contents[0];
    expect(content).toMatchObject({ uri: `quarry://extractions/${id}/document`, mimeType: 'application/json' });
    const model = JSON.parse(content.text);
    expect(model).toMatchObject({ extraction_id: id, version: 1 });
    expect(model.blocks.filter((b: Block) => b.type === 'section')).toHaveLength(2);

    const missing = await rpc(key, 'resources/read', { uri: `quarry://extractions/${old.extractionId}/document` });
    expect(missing.error?.data).toMatchObject({ code: 'DOCUMENT_NOT_AVAILABLE' });
    const unknown = await rpc(key, 'resources/read', { uri: 'quarry://extractions/ext_01jd0000000000000000000000/document' });
    expect(unknown.error?.data).toMatchObject({ code: 'EXTRACTION_NOT_FOUND' });

    const search = await app.createKey({ scopes: ['kb:search'] });
    const refused = await rpc(search.key, 'resources/read', { uri: `quarry://extractions/${id}/document` });
    expect(refused.error?.message).toMatch(/extractions:read/);
    expect((await rpc(search.key, 'resources/templates/list')).result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      'quarry://knowledge-bases/{kb_id}',
    ]);
  });

  it('get_extraction_document answers the model, by page range, and tool errors a model can act on', async () => {
    const id = await completedPdf();
    const { key } = await app.createKey({ scopes: ['extractions:read'] });
    const call = async (args: Record<string, unknown>) => (await rpc(key, 'tools/call', { name: 'get_extraction_document', arguments: args })).result;

    const all = await call({ extraction_id: id });
    expect(all.isError).toBeFalsy();
    expect(all.structuredContent).toMatchObject({ extraction_id: id, version: 1, page_start: 1, page_end: 2 });
    const second = (await call({ extraction_id: id, page_start: 2, page_end: 2 })).structuredContent;
    expect(second.blocks).toHaveLength(1);
    expect(second.blocks[0]).toMatchObject({ type: 'section', kind: 'page', page: 2 });

    const backwards = await call({ extraction_id: id, page_start: 2, page_end: 1 });
    expect(backwards.isError).toBe(true);
    expect(backwards.structuredContent.error.code).toBe('INVALID_REQUEST');
    const old = await extractedFile(app, 'old2.md', '# Old\n');
    const unavailable = await call({ extraction_id: old.extractionId });
    expect(unavailable.isError).toBe(true);
    expect(unavailable.structuredContent.error.code).toBe('DOCUMENT_NOT_AVAILABLE');
  });
});

describe('choosing a model’s pages', () => {
  const para = (text: string): Block => ({ type: 'paragraph', content: [{ type: 'text', text }] });
  const page = (n: number): Block => ({ type: 'section', kind: 'page', page: n, content: [para(`page ${n}`)] });
  const blocks: Block[] = [para('before'), page(1), page(2), para('between'), page(3)];

  it('keeps the sections in range, with the blocks around them', () => {
    expect(blocksOnPages(blocks, 2, 2)).toEqual({ blocks: [page(2), para('between')], first: 2, last: 2 });
    expect(blocksOnPages(blocks, 1, 1).blocks).toEqual([para('before'), page(1)]);
    expect(blocksOnPages(blocks, undefined, undefined)).toMatchObject({ first: 1, last: 3 });
    expect(blocksOnPages(blocks, 7, 9)).toEqual({ blocks: [], first: null, last: null });
    expect(blocksOnPages([para('unpaged')], 2, 3)).toEqual({ blocks: [para('unpaged')], first: null, last: null });
  });
});
