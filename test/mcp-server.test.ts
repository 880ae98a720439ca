import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '@/test/support/fixtures';
import { startTestServer } from '@/test/support/test-server';

/**
 * The MCP server at /mcp of the production server, driven by the official SDK client over real
 * HTTP: tools and resources per scope, every tool called, bad input, a missing scope, a revoked key.
 */
const ADMIN = 'sk_test_mcpserveradministratorkey00000001';
let server: Awaited<ReturnType<typeof startTestServer>>;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer('mcp', ADMIN);
}, 300_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await server?.stop();
});

async function rest(method: string, route: string, body?: unknown, key = ADMIN) {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function keyWith(scopes: string[]): Promise<{ id: string; key: string }> {
  const res = await rest('POST', '/v1/api-keys', { name: `mcp ${scopes.join(' ')}`, scopes });
  expect(res.status).toBe(201);
  return { id: res.body.id, key: res.body.key };
}

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'quarry-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A tool's structured answer; fails the test when the tool reported an error. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const text = (result.content as { type: string; text: string }[])[0].text;
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const ALL_TOOLS = [
  'add_to_knowledge_base',
  'extract_file',
  'get_document',
  'get_extraction_document',
  'get_extraction_status',
  'get_passage',
  'get_source',
  'get_source_run',
  'list_knowledge_bases',
  'list_source_runs',
  'list_sources',
  'read_extraction',
  'search_knowledge_base',
  'sync_source',
  'upload_file',
  'verify_citations',
];

describe('MCP server over Streamable HTTP', () => {
  it('lists the tools and resources each key’s scopes allow', async () => {
    const admin = await connect(ADMIN);
    expect(admin.getServerVersion()).toMatchObject({ name: 'quarry' });
    expect(admin.getInstructions()).toContain('search_knowledge_base');
    const all = (await admin.listTools()).tools;
    expect(all.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    for (const tool of all) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(all.find((t) => t.name === 'search_knowledge_base')!.inputSchema.required).toEqual(expect.arrayContaining(['kb_id', 'query']));

    const search = await connect((await keyWith(['kb:search'])).key);
    expect((await search.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_document', 'get_passage', 'list_knowledge_bases', 'search_knowledge_base', 'verify_citations']);
    expect((await search.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['quarry://knowledge-bases/{kb_id}']);

    const files = await connect((await keyWith(['files:write', 'extractions:read'])).key);
    expect((await files.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_extraction_document', 'get_extraction_status', 'read_extraction', 'upload_file']);

    const none = await connect((await keyWith(['webhooks:*'])).key);
    expect((await none.listTools()).tools).toEqual([]);
    expect((await none.listResources()).resources).toEqual([]);
  });

  it('uploads, extracts, indexes, searches and reads with citations, through every tool and both resources', async () => {
    const admin = await connect(ADMIN);
    const kbA = await rest('POST', '/v1/knowledge-bases', { name: 'MCP handbook' });
    const kbB = await rest('POST', '/v1/knowledge-bases', { name: 'MCP second' });
    const markdown = ['# Quarry handbook', '', '## Billing', '', 'Invoices are sent on the first working day of each month.', '', '## Travel', '', 'Train tickets over 200 euros need approval from a manager.'].join('\n');
    const uploaded = await call(admin, 'upload_file', {
      filename: 'handbook.md',
      content_base64: Buffer.from(markdown).toString('base64'),
      tags: ['policy', 'mcp'],
      extract: 'simple',
      knowledge_base_id: kbA.body.id,
    });
    expect(uploaded).toMatchObject({ filename: 'handbook.md', tags: ['policy', 'mcp'], extraction: { status: 'pending' }, document: { kb_id: kbA.body.id } });

    const done = await until('the extraction', async () => {
      const status = await call(admin, 'get_extraction_status', { extraction_id: uploaded.extraction.id });
      return status.status === 'completed' ? status : null;
    });
    expect(done).toMatchObject({ status: 'completed', markdown_length: expect.any(Number) });
    expect(done.markdown).toBeUndefined();

    const doc = await until('the document to be indexed', async () => {
      const d = await call(admin, 'get_document', { kb_id: kbA.body.id, document_id: uploaded.document.id });
      return d.status === 'indexed' ? d : null;
    });
    expect(doc.chunk_count).toBeGreaterThan(0);

    const searcher = await connect((await keyWith(['kb:search'])).key);
    const listed = await call(searcher, 'list_knowledge_bases', {});
    expect(listed.knowledge_bases.map((k: { name: string }) => k.name)).toEqual(expect.arrayContaining(['MCP handbook', 'MCP second']));
    for (const mode of ['hybrid', 'semantic']) {
      const found = await call(searcher, 'search_knowledge_base', { kb_id: kbA.body.id, query: 'when are invoices sent', mode, top_k: 3 });
      expect(found.mode).toBe(mode);
      const top = found.results[0];
      expect(top).toMatchObject({ rank: 1, document_id: uploaded.document.id, document_title: expect.any(String), section: expect.stringContaining('Billing') });
      expect(top.text).toContain('first working day');
      expect(top.citation).toContain(top.document_title);
      expect(top.score).toBeGreaterThan(0);
      // An uploaded file is at version 1 and synced from no source.
      expect(top).toMatchObject({ file_version: 1, source_item: null });
    }
    const hit = (await call(searcher, 'search_knowledge_base', { kb_id: kbA.body.id, query: 'train tickets approval' })).results[0];
    const passage = await call(searcher, 'get_passage', { kb_id: kbA.body.id, chunk_id: hit.chunk_id, neighbours: 2 });
    expect(passage).toMatchObject({ document_id: uploaded.document.id, chunk_id: hit.chunk_id });
    expect(passage.chunks.map((c: { id: string }) => c.id)).toContain(hit.chunk_id);
    expect(passage.chunks.map((c: { chunk_index: number }) => c.chunk_index)).toEqual([...passage.chunks.map((c: { chunk_index: number }) => c.chunk_index)].sort((a, b) => a - b));

    // Reading a long extraction a piece at a time.
    const read1 = await call(admin, 'read_extraction', { extraction_id: uploaded.extraction.id, max_chars: 1000 });
    expect(read1).toMatchObject({ offset: 0, total_chars: done.markdown_length, page_start: null });
    expect(read1.text).toContain('Quarry handbook');

    // A second file: extract_file, then add_to_knowledge_base with the finished extraction; a PDF read by page.
    const pdf = await call(admin, 'upload_file', { filename: 'paper.pdf', content_base64: fixture('pdf/code_and_formula.pdf').toString('base64') });
    const extraction = await call(admin, 'extract_file', { file_id: pdf.id, mode: 'simple' });
    expect(extraction).toMatchObject({ file_id: pdf.id, status: 'pending' });
    await until('the PDF extraction', async () => (await call(admin, 'get_extraction_status', { extraction_id: extraction.id })).status === 'completed');
    const page1 = await call(admin, 'read_extraction', { extraction_id: extraction.id, page_start: 1, page_end: 1, max_chars: 1000 });
    expect(page1).toMatchObject({ page_start: 1, page_end: 1, offset: 0 });
    expect(page1.text.length).toBeLessThanOrEqual(1000);
    if (page1.next_offset !== null) {
      const more = await call(admin, 'read_extraction', { extraction_id: extraction.id, page_start: 1, page_end: 1, offset: page1.next_offset, max_chars: 1000 });
      expect(more.offset).toBe(page1.next_offset);
      expect(more.text).not.toBe(page1.text);
    }
    // Its structure: the document model, by page.
    const structure = await call(admin, 'get_extraction_document', { extraction_id: extraction.id, page_start: 2 });
    expect(structure).toMatchObject({ extraction_id: extraction.id, version: 1, page_start: 2, page_end: 2 });
    expect(structure.blocks.map((b: { type: string; page?: number }) => [b.type, b.page])).toEqual([['section', 2]]);
    const added = await call(admin, 'add_to_knowledge_base', { kb_id: kbB.body.id, file_id: pdf.id, title: 'A paper' });
    expect(added).toMatchObject({ kb_id: kbB.body.id, file_id: pdf.id, title: 'A paper', extraction_id: extraction.id });

    // Resources: a knowledge base (JSON with its documents) and an extraction (Markdown).
    const resources = (await admin.listResources()).resources.map((r) => r.uri);
    expect(resources).toEqual(expect.arrayContaining([`quarry://knowledge-bases/${kbA.body.id}`, `quarry://extractions/${uploaded.extraction.id}`]));
    const kbResource = await admin.readResource({ uri: `quarry://knowledge-bases/${kbA.body.id}` });
    const kbJson = JSON.parse((kbResource.contents[0] as { text: string }).text);
    expect(kbJson).toMatchObject({ id: kbA.body.id, name: 'MCP handbook', documents: [expect.objectContaining({ id: uploaded.document.id })] });
    const md = await admin.readResource({ uri: `quarry://extractions/${uploaded.extraction.id}` });
    expect(md.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('Train tickets') });
    await expect(searcher.readResource({ uri: `quarry://extractions/${uploaded.extraction.id}` })).rejects.toThrow(/extractions:read/);
    expect(resources).toContain(`quarry://extractions/${extraction.id}/document`);
    const model = await admin.readResource({ uri: `quarry://extractions/${extraction.id}/document` });
    expect(model.contents[0]).toMatchObject({ mimeType: 'application/json' });
    expect(JSON.parse((model.contents[0] as { text: string }).text)).toMatchObject({ extraction_id: extraction.id, version: 1, blocks: expect.any(Array) });
  }, 180_000);

  it('answers bad arguments and unknown ids as tool errors a model can act on', async () => {
    const admin = await connect(ADMIN);
    const bad = await admin.callTool({ name: 'search_knowledge_base', arguments: { kb_id: 'kb_01jd0000000000000000000000', query: '', top_k: 0 } });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as any).error.code).toBe('INVALID_REQUEST');
    const fields = (bad.structuredContent as any).error.details.problems.map((p: { field: string }) => p.field);
    expect(fields).toEqual(expect.arrayContaining(['query', 'top_k']));
    const missing = await admin.callTool({ name: 'get_document', arguments: { kb_id: 'kb_01jd0000000000000000000000', document_id: 'doc_x' } });
    expect(missing.isError).toBe(true);
    expect((missing.structuredContent as any).error.code).toBe('KNOWLEDGE_BASE_NOT_FOUND');
    const notBase64 = await admin.callTool({ name: 'upload_file', arguments: { filename: 'x.txt', content_base64: '***' } });
    expect((notBase64.structuredContent as any).error.code).toBe('INVALID_REQUEST');
    const unsupported = await admin.callTool({ name: 'upload_file', arguments: { filename: 'x.zip', content_base64: Buffer.from('PK\u0003\u0004 not really').toString('base64') } });
    expect((unsupported.structuredContent as any).error.code).toBe('UNSUPPORTED_FORMAT');
    await expect(admin.callTool({ name: 'drop_database', arguments: {} })).rejects.toThrow(/Unknown tool drop_database/);
  });

  it('holds a key limited to one knowledge base to it, in every tool and resource as over REST', async () => {
    const mine = await rest('POST', '/v1/knowledge-bases', { name: 'Limited: mine' });
    const other = await rest('POST', '/v1/knowledge-bases', { name: 'Limited: other' });
    const created = await rest('POST', '/v1/api-keys', { name: 'one kb', scopes: ['kb:search', 'kb:read', 'extractions:read'], knowledge_base_ids: [mine.body.id] });
    expect(created.status).toBe(201);
    expect(created.body.knowledge_base_ids).toEqual([mine.body.id]);
    const limited = await connect(created.body.key);

    const listed = await call(limited, 'list_knowledge_bases', {});
    expect(listed.knowledge_bases.map((k: { id: string }) => k.id)).toEqual([mine.body.id]);
    expect((await call(limited, 'search_knowledge_base', { kb_id: mine.body.id, query: 'anything' })).results).toEqual([]);
    const outside: [string, Record<string, unknown>][] = [
      ['search_knowledge_base', { kb_id: other.body.id, query: 'anything' }],
      ['get_document', { kb_id: other.body.id, document_id: 'doc_01jd0000000000000000000000' }],
      ['get_passage', { kb_id: other.body.id, chunk_id: 'chunk_01jd0000000000000000000000' }],
    ];
    for (const [name, args] of outside) {
      const answer = await limited.callTool({ name, arguments: args });
      expect(answer.isError, name).toBe(true);
      expect((answer.structuredContent as any).error.code, name).toBe('KNOWLEDGE_BASE_NOT_FOUND');
    }
    const resources = (await limited.listResources()).resources.map((r) => r.uri);
    expect(resources).toContain(`quarry://knowledge-bases/${mine.body.id}`);
    expect(resources).not.toContain(`quarry://knowledge-bases/${other.body.id}`);
    expect(resources.filter((uri) => uri.startsWith('quarry://extractions/'))).toEqual([]);
    await expect(limited.readResource({ uri: `quarry://knowledge-bases/${other.body.id}` })).rejects.toThrow(/KNOWLEDGE_BASE_NOT_FOUND/);

    const overRest = await rest('GET', `/v1/knowledge-bases/${other.body.id}`, undefined, created.body.key);
    expect(overRest.status).toBe(404);
    expect(overRest.body.error.code).toBe('KNOWLEDGE_BASE_NOT_FOUND');
    expect((await rest('POST', '/v1/knowledge-bases', { name: 'new' }, created.body.key)).status).toBe(403);
  });

  it('refuses a tool outside the key’s scopes with an MCP error naming the scope', async () => {
    const search = await connect((await keyWith(['kb:search'])).key);
    const err = await search.callTool({ name: 'upload_file', arguments: { filename: 'a.txt', content_base64: 'YQ==' } }).catch((e) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(err.message).toContain('needs the scope files:write');
    expect(err.data).toMatchObject({ code: 'INSUFFICIENT_SCOPE', required_scope: 'files:write' });
    const files = await rest('GET', '/v1/files?limit=100');
    expect(files.body.items.some((f: { filename: string }) => f.filename === 'a.txt')).toBe(false);
  });

  it('refuses a missing, wrong or revoked key at the HTTP level, and GET with 405', async () => {
    const { id, key } = await keyWith(['kb:search']);
    const client = await connect(key);
    expect((await client.listTools()).tools.length).toBe(5);
    expect((await rest('DELETE', `/v1/api-keys/${id}`)).status).toBe(204);
    const refused = async (attempt: Promise<unknown>) => {
      const err = (await attempt.catch((e) => e)) as StreamableHTTPError;
      expect(err).toBeInstanceOf(StreamableHTTPError);
      expect(err.code).toBe(401);
      expect(err.message).toContain('UNAUTHORIZED');
    };
    await refused(client.listTools());
    await refused(connect(key));
    await refused(connect('sk_test_notakeyatallnotakeyatall00'));

    const anonymous = await fetch(`${server.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe('UNAUTHORIZED');
    const get = await fetch(`${server.baseUrl}/mcp`, { headers: { authorization: `Bearer ${ADMIN}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
  });
});
