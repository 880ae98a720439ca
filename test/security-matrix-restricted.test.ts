import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/endpoints';
import type { RouteHandler } from '@/lib/api/handler';
import { recentCompletedExtractions } from '@/lib/extraction/queries';
import { getExtraction } from '@/lib/extraction/service';
import { getFile } from '@/lib/files/service';
import { getDocument, listDocuments } from '@/lib/knowledge-bases/documents';
import { createKnowledgeBase, getKnowledgeBase, listKnowledgeBases } from '@/lib/knowledge-bases/service';
import { useTestApp, type CallOptions, type TestResponse } from '@/test/support/app';
import { formWith } from '@/test/support/fixtures';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';
import { ROUTE_FILES, routeFileOf, sourcesRoute, type Method } from './support/routes';

/*
 * The security matrix for API keys limited to knowledge bases: one row per protected operation of
 * the endpoint list (test/security-matrix.test.ts covers keys, scopes and addresses). The key here
 * is limited to knowledge bases A and A2 and holds every scope such a key can hold; B is another
 * knowledge base. Each row says what the key gets inside A and for B's things: B's knowledge base,
 * documents, files, extractions and sources answer 404 as if they did not exist, lists show only A's, and
 * everything that reaches beyond knowledge bases (creating one, free-standing files, keys,
 * webhooks, events, users, maintenance) is 403.
 */

const app = useTestApp();

const MISSING_KEY_ID = 'key_01jd0000000000000000000000';
const MISSING_WEBHOOK_ID = 'wh_01jd0000000000000000000000';
const MISSING_DELIVERY_ID = 'del_01jd0000000000000000000000';
const MISSING_USER_ID = 'usr_01jd0000000000000000000000';

/** Ids made in beforeAll. */
const s = {
  kbA: '',
  kbA2: '',
  kbB: '',
  fileA: '',
  fileA2: '',
  fileB: '',
  fileShared: '',
  fileOwn: '',
  fileFree: '',
  extA: '',
  extB: '',
  extFree: '',
  docA: '',
  docB: '',
  bBytes: '',
  key: '',
  keyId: '',
  srcA: '',
  srcB: '',
};

type Request = Omit<CallOptions, 'method' | 'key' | 'ip'>;
interface Expected {
  status: number;
  code?: string;
}
interface Case {
  what: string;
  request: () => Request;
  expect: Expected;
  check?: (res: TestResponse) => void | Promise<void>;
}
interface Row {
  name: string;
  cases: Case[];
}

const KB_404: Expected = { status: 404, code: 'KNOWLEDGE_BASE_NOT_FOUND' };
const FILE_404: Expected = { status: 404, code: 'FILE_NOT_FOUND' };
const EXT_404: Expected = { status: 404, code: 'EXTRACTION_NOT_FOUND' };
const DOC_404: Expected = { status: 404, code: 'DOCUMENT_NOT_FOUND' };
const REFUSED: Expected = { status: 403, code: 'INSUFFICIENT_SCOPE' };
const SOURCE_404: Expected = { status: 404, code: 'SOURCE_NOT_FOUND' };
const source = (id: string, rest = '') => ({ path: `/v1/sources/${id}${rest}`, params: { source_id: id } });
const MISSING_RUN_ID = 'srun_01jd0000000000000000000000';

const kb = (id: string, rest = '') => ({ path: `/v1/knowledge-bases/${id}${rest}`, params: { kb_id: id } });
const doc = (kbId: string, docId: string, rest = '') => ({
  path: `/v1/knowledge-bases/${kbId}/documents/${docId}${rest}`,
  params: { kb_id: kbId, document_id: docId },
});
const file = (id: string, rest = '') => ({ path: `/v1/files/${id}${rest}`, params: { file_id: id } });
const extraction = (id: string, rest = '') => ({ path: `/v1/extractions/${id}${rest}`, params: { extraction_id: id } });
const webhook = (rest = '') => ({ path: `/v1/webhooks/${MISSING_WEBHOOK_ID}${rest}`, params: { webhook_id: MISSING_WEBHOOK_ID } });
const delivery = (rest = '') => ({
  path: `/v1/webhooks/${MISSING_WEBHOOK_ID}/deliveries/${MISSING_DELIVERY_ID}${rest}`,
  params: { webhook_id: MISSING_WEBHOOK_ID, delivery_id: MISSING_DELIVERY_ID },
});

const inside = (what: string, request: () => Request, status: number, check?: Case['check']): Case => ({ what, request, expect: { status }, check });
const outside = (what: string, request: () => Request, expected: Expected): Case => ({ what, request, expect: expected });
const refused = (request: () => Request): Case => ({ what: 'refused', request, expect: REFUSED });

/** The ids of a list's items. */
const idsOf = (res: TestResponse) => (res.body.items as { id: string }[]).map((i) => i.id).sort();
/** The ids of the documents of A (and A2): search results may name only these. */
const docsOfA = new Set<string>();

const ROWS: Row[] = [
  {
    name: 'GET /v1/files',
    cases: [
      inside('only files that are documents of A and A2', () => ({ path: '/v1/files?limit=100' }), 200, (res) => {
        expect(idsOf(res)).toEqual(expect.arrayContaining([s.fileA, s.fileA2, s.fileShared].sort()));
        for (const hidden of [s.fileB, s.fileFree]) expect(idsOf(res)).not.toContain(hidden);
        expect(res.body.total).toBe(res.body.items.length);
      }),
    ],
  },
  {
    name: 'POST /v1/files',
    cases: [
      outside('a file in no knowledge base', () => ({ path: '/v1/files', body: formWith('free.txt', Buffer.from('free standing\n')) }), REFUSED),
      outside('into B', () => ({ path: '/v1/files', body: formWith('b.txt', Buffer.from('into b\n'), { knowledge_base_id: s.kbB }) }), KB_404),
      inside('into A', () => ({ path: '/v1/files', body: formWith('into-a.txt', Buffer.from('into a\n'), { knowledge_base_id: s.kbA }) }), 201, (res) => {
        expect(res.body.document.kb_id).toBe(s.kbA);
      }),
      // dedupe never finds B's file: the same bytes become a new file of A.
      inside('B’s content into A with dedupe', () => ({ path: '/v1/files', body: formWith('copy.txt', Buffer.from(s.bBytes), { knowledge_base_id: s.kbA, dedupe: 'true' }) }), 201, (res) => {
        expect(res.body.deduplicated).toBe(false);
        expect(res.body.id).not.toBe(s.fileB);
      }),
    ],
  },
  { name: 'GET /v1/files/types', cases: [inside('types', () => ({ path: '/v1/files/types' }), 200)] },
  {
    name: 'GET /v1/files/{file_id}',
    cases: [inside('A’s file', () => file(s.fileA), 200), outside('B’s file', () => file(s.fileB), FILE_404), outside('a file in no knowledge base', () => file(s.fileFree), FILE_404)],
  },
  {
    name: 'DELETE /v1/files/{file_id}',
    cases: [
      outside('B’s file', () => file(s.fileB), FILE_404),
      outside('a file in no knowledge base', () => file(s.fileFree), FILE_404),
      outside('a file in A and in B', () => file(s.fileShared), REFUSED),
      inside('a file only in A', () => file(s.fileOwn), 204),
    ],
  },
  {
    name: 'GET /v1/files/{file_id}/download',
    cases: [inside('A’s file', () => file(s.fileA, '/download'), 200), outside('B’s file', () => file(s.fileB, '/download'), FILE_404)],
  },
  {
    name: 'GET /v1/files/{file_id}/extractions',
    cases: [
      inside('A’s file', () => file(s.fileA, '/extractions'), 200, (res) => expect(idsOf(res)).toContain(s.extA)),
      outside('B’s file', () => file(s.fileB, '/extractions'), FILE_404),
    ],
  },
  {
    name: 'POST /v1/extractions',
    cases: [
      outside('B’s file', () => ({ path: '/v1/extractions', body: { file_id: s.fileB } }), FILE_404),
      outside('a file in no knowledge base', () => ({ path: '/v1/extractions', body: { file_id: s.fileFree } }), FILE_404),
      inside('A’s file', () => ({ path: '/v1/extractions', body: { file_id: s.fileA } }), 201),
    ],
  },
  {
    name: 'POST /v1/extractions/batch',
    cases: [
      inside('A’s, B’s and a free file', () => ({ path: '/v1/extractions/batch', body: { file_ids: [s.fileA, s.fileB, s.fileFree] } }), 207, (res) => {
        expect(res.body.results[0].extraction).toBeDefined();
        expect(res.body.results.slice(1).map((r: { error?: { code: string } }) => r.error?.code)).toEqual(['FILE_NOT_FOUND', 'FILE_NOT_FOUND']);
      }),
    ],
  },
  {
    name: 'GET /v1/extractions/{extraction_id}',
    cases: [
      inside('A’s extraction', () => extraction(s.extA), 200),
      outside('B’s extraction', () => extraction(s.extB), EXT_404),
      outside('an extraction of a file in no knowledge base', () => extraction(s.extFree), EXT_404),
    ],
  },
  {
    name: 'GET /v1/extractions/{extraction_id}/layout',
    cases: [inside('A’s extraction', () => extraction(s.extA, '/layout'), 200), outside('B’s extraction', () => extraction(s.extB, '/layout'), EXT_404)],
  },
  {
    name: 'GET /v1/extractions/{extraction_id}/document',
    cases: [
      // Past the reach check: A's extraction was seeded without a document model.
      { what: 'A’s extraction', request: () => extraction(s.extA, '/document'), expect: { status: 404, code: 'DOCUMENT_NOT_AVAILABLE' } },
      outside('B’s extraction', () => extraction(s.extB, '/document'), EXT_404),
      outside('an extraction of a file in no knowledge base', () => extraction(s.extFree, '/document'), EXT_404),
    ],
  },
  {
    name: 'POST /v1/extractions/{extraction_id}/cancel',
    cases: [
      // Past the reach check: A's completed extraction cannot be cancelled.
      { what: 'A’s extraction', request: () => extraction(s.extA, '/cancel'), expect: { status: 409, code: 'EXTRACTION_NOT_CANCELLABLE' } },
      outside('B’s extraction', () => extraction(s.extB, '/cancel'), EXT_404),
      outside('an extraction of a file in no knowledge base', () => extraction(s.extFree, '/cancel'), EXT_404),
    ],
  },
  {
    name: 'GET /v1/knowledge-bases',
    cases: [
      inside('only A and A2', () => ({ path: '/v1/knowledge-bases?limit=100' }), 200, (res) => {
        expect(idsOf(res)).toEqual([s.kbA, s.kbA2].sort());
        expect(res.body.total).toBe(2);
      }),
    ],
  },
  { name: 'POST /v1/knowledge-bases', cases: [refused(() => ({ path: '/v1/knowledge-bases', body: { name: 'mine' } }))] },
  {
    name: 'GET /v1/knowledge-bases/{kb_id}',
    cases: [inside('A', () => kb(s.kbA), 200), outside('B', () => kb(s.kbB), KB_404)],
  },
  {
    name: 'PATCH /v1/knowledge-bases/{kb_id}',
    cases: [inside('A', () => ({ ...kb(s.kbA), body: { description: 'by the limited key' } }), 200), outside('B', () => ({ ...kb(s.kbB), body: { description: 'x' } }), KB_404)],
  },
  { name: 'DELETE /v1/knowledge-bases/{kb_id}', cases: [outside('B', () => kb(s.kbB), KB_404)] },
  {
    name: 'GET /v1/knowledge-bases/{kb_id}/documents',
    cases: [
      inside('A', () => kb(s.kbA, '/documents'), 200, (res) => {
        expect(idsOf(res)).toContain(s.docA);
        expect(idsOf(res)).not.toContain(s.docB);
      }),
      outside('B', () => kb(s.kbB, '/documents'), KB_404),
    ],
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/documents',
    cases: [
      outside('B', () => ({ ...kb(s.kbB, '/documents'), body: { file_id: s.fileB } }), KB_404),
      outside('B’s file into A', () => ({ ...kb(s.kbA, '/documents'), body: { file_id: s.fileB } }), FILE_404),
      outside('a file in no knowledge base into A', () => ({ ...kb(s.kbA, '/documents'), body: { file_id: s.fileFree } }), FILE_404),
      inside('A2’s file into A', () => ({ ...kb(s.kbA, '/documents'), body: { file_id: s.fileA2 } }), 201),
    ],
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/documents/batch',
    cases: [
      outside('B', () => ({ ...kb(s.kbB, '/documents/batch'), body: { items: [{ file_id: s.fileB }] } }), KB_404),
      inside('B’s file and a free file into A', () => ({ ...kb(s.kbA, '/documents/batch'), body: { items: [{ file_id: s.fileB }, { file_id: s.fileFree }] } }), 207, (res) => {
        expect(res.body.results.map((r: { error?: { code: string } }) => r.error?.code)).toEqual(['FILE_NOT_FOUND', 'FILE_NOT_FOUND']);
      }),
    ],
  },
  {
    name: 'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}',
    cases: [inside('A’s document', () => doc(s.kbA, s.docA), 200), outside('B’s document', () => doc(s.kbB, s.docB), KB_404), outside('B’s document through A', () => doc(s.kbA, s.docB), DOC_404)],
  },
  {
    name: 'DELETE /v1/knowledge-bases/{kb_id}/documents/{document_id}',
    cases: [outside('B’s document', () => doc(s.kbB, s.docB), KB_404), outside('B’s document through A', () => doc(s.kbA, s.docB), DOC_404)],
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/documents/{document_id}/retry',
    cases: [
      { what: 'A’s indexed document', request: () => doc(s.kbA, s.docA, '/retry'), expect: { status: 409, code: 'DOCUMENT_NOT_FAILED' } },
      outside('B’s document', () => doc(s.kbB, s.docB, '/retry'), KB_404),
    ],
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/documents/{document_id}/reindex',
    cases: [outside('B’s document', () => ({ ...doc(s.kbB, s.docB, '/reindex'), body: {} }), KB_404), outside('B’s document through A', () => ({ ...doc(s.kbA, s.docB, '/reindex'), body: {} }), DOC_404)],
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/retry-failed',
    cases: [inside('A', () => kb(s.kbA, '/retry-failed'), 200), outside('B', () => kb(s.kbB, '/retry-failed'), KB_404)],
  },
  ...(['search', 'hybrid-search'] as const).map(
    (kind): Row => ({
      name: `POST /v1/knowledge-bases/{kb_id}/${kind}`,
      cases: [
        inside('A', () => ({ ...kb(s.kbA, `/${kind}`), body: { query: 'content' } }), 200, (res) => {
          expect(res.body.chunks.length).toBeGreaterThan(0);
          for (const chunk of res.body.chunks) expect(docsOfA.has(chunk.document_id), chunk.document_id).toBe(true);
        }),
        outside('B', () => ({ ...kb(s.kbB, `/${kind}`), body: { query: 'content' } }), KB_404),
      ],
    }),
  ),
  {
    name: 'GET /v1/sources',
    cases: [
      inside('only the sources of A and A2', () => ({ path: '/v1/sources?limit=100' }), 200, (res) => {
        expect(idsOf(res)).toEqual([s.srcA]);
        expect(res.body.total).toBe(1);
      }),
      inside('B’s sources, asked for by knowledge base: none', () => ({ path: `/v1/sources?knowledge_base_id=${s.kbB}` }), 200, (res) => {
        expect(res.body.items).toEqual([]);
      }),
    ],
  },
  {
    name: 'POST /v1/sources',
    cases: [
      outside('into B', () => ({ path: '/v1/sources', body: { type: 'url', knowledge_base_id: s.kbB, config: { url: 'https://93.184.216.34/b.pdf' }, sync: false } }), KB_404),
      inside('into A', () => ({ path: '/v1/sources', body: { type: 'url', knowledge_base_id: s.kbA, config: { url: 'https://93.184.216.34/a.pdf' }, sync: false } }), 201, (res) => {
        expect(res.body.knowledge_base_id).toBe(s.kbA);
      }),
    ],
  },
  {
    name: 'POST /v1/sources/test',
    cases: [{ what: 'a loopback address', request: () => ({ path: '/v1/sources/test', body: { type: 'url', config: { url: 'http://127.0.0.1:9/' } } }), expect: { status: 400, code: 'INVALID_REQUEST' } }],
  },
  { name: 'GET /v1/sources/{source_id}', cases: [inside('A’s source', () => source(s.srcA), 200), outside('B’s source', () => source(s.srcB), SOURCE_404)] },
  {
    name: 'PATCH /v1/sources/{source_id}',
    cases: [inside('A’s source', () => ({ ...source(s.srcA), body: { name: 'renamed by the limited key' } }), 200), outside('B’s source', () => ({ ...source(s.srcB), body: { enabled: false } }), SOURCE_404)],
  },
  { name: 'DELETE /v1/sources/{source_id}', cases: [outside('B’s source', () => source(s.srcB), SOURCE_404)] },
  { name: 'POST /v1/sources/{source_id}/sync', cases: [outside('B’s source', () => source(s.srcB, '/sync'), SOURCE_404)] },
  { name: 'GET /v1/sources/{source_id}/runs', cases: [inside('A’s source', () => source(s.srcA, '/runs'), 200), outside('B’s source', () => source(s.srcB, '/runs'), SOURCE_404)] },
  {
    name: 'GET /v1/sources/{source_id}/runs/{run_id}',
    cases: [outside('B’s source', () => ({ path: `/v1/sources/${s.srcB}/runs/${MISSING_RUN_ID}`, params: { source_id: s.srcB, run_id: MISSING_RUN_ID } }), SOURCE_404)],
  },
  {
    name: 'POST /v1/citations/verify',
    cases: [
      inside('A’s document is current, B’s is as if it did not exist', () => ({ path: '/v1/citations/verify', body: { citations: [{ document_id: s.docA }, { document_id: s.docB }] } }), 200, (res) => {
        expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['current', 'gone']);
        expect(res.body.results[1]).toMatchObject({ current_file_version: null, source_item: null });
      }),
    ],
  },
  { name: 'GET /v1/webhooks', cases: [refused(() => ({ path: '/v1/webhooks' }))] },
  { name: 'POST /v1/webhooks', cases: [refused(() => ({ path: '/v1/webhooks', body: { url: 'https://hooks.example.com/x', events: ['*'], secret: 'a secret of some length' } }))] },
  { name: 'GET /v1/webhooks/{webhook_id}', cases: [refused(() => webhook())] },
  { name: 'PATCH /v1/webhooks/{webhook_id}', cases: [refused(() => ({ ...webhook(), body: { enabled: false } }))] },
  { name: 'DELETE /v1/webhooks/{webhook_id}', cases: [refused(() => webhook())] },
  { name: 'GET /v1/webhooks/{webhook_id}/deliveries', cases: [refused(() => webhook('/deliveries'))] },
  { name: 'GET /v1/webhooks/{webhook_id}/deliveries/{delivery_id}', cases: [refused(() => delivery())] },
  { name: 'POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', cases: [refused(() => delivery('/redeliver'))] },
  { name: 'POST /v1/webhooks/{webhook_id}/test', cases: [refused(() => webhook('/test'))] },
  { name: 'GET /v1/events', cases: [refused(() => ({ path: '/v1/events' }))] },
  { name: 'GET /v1/users', cases: [refused(() => ({ path: '/v1/users' }))] },
  { name: 'POST /v1/users', cases: [refused(() => ({ path: '/v1/users', body: { email: 'limited@example.com', password: 'a long enough password' } }))] },
  { name: 'PATCH /v1/users/{user_id}', cases: [refused(() => ({ path: `/v1/users/${MISSING_USER_ID}`, params: { user_id: MISSING_USER_ID }, body: { name: 'x' } }))] },
  { name: 'GET /v1/api-keys', cases: [refused(() => ({ path: '/v1/api-keys' }))] },
  // Not even a key as narrow as itself: a limited key creates no keys.
  { name: 'POST /v1/api-keys', cases: [refused(() => ({ path: '/v1/api-keys', body: { name: 'child', scopes: ['kb:read'], knowledge_base_ids: [s.kbA] } }))] },
  { name: 'DELETE /v1/api-keys/{key_id}', cases: [refused(() => ({ path: `/v1/api-keys/${MISSING_KEY_ID}`, params: { key_id: MISSING_KEY_ID } }))] },
  { name: 'GET /admin/maintenance', cases: [refused(() => ({ path: '/admin/maintenance' }))] },
  { name: 'POST /admin/maintenance', cases: [refused(() => ({ path: '/admin/maintenance', body: { enabled: true } }))] },
  { name: 'GET /health/detailed', cases: [inside('health', () => ({ path: '/health/detailed' }), 200)] },
  {
    name: 'GET /v1/me',
    cases: [
      inside('its limits', () => ({ path: '/v1/me' }), 200, (res) => {
        expect(res.body).toMatchObject({ kind: 'api_key', id: s.keyId, scopes: ['files:*', 'extractions:*', 'kb:*', 'sources:*'] });
        expect([...res.body.knowledge_base_ids].sort()).toEqual([s.kbA, s.kbA2].sort());
      }),
    ],
  },
  {
    name: 'POST /mcp',
    cases: [
      inside('list_knowledge_bases shows only A and A2', () => mcpCall('list_knowledge_bases', {}), 200, (res) => {
        const text = JSON.stringify(res.body.result);
        for (const id of [s.kbA, s.kbA2]) expect(text).toContain(id);
        expect(text).not.toContain(s.kbB);
      }),
      inside('search_knowledge_base in B is not found', () => mcpCall('search_knowledge_base', { kb_id: s.kbB, query: 'content' }), 200, (res) => {
        const text = JSON.stringify(res.body);
        expect(text).toContain('KNOWLEDGE_BASE_NOT_FOUND');
        expect(text).not.toContain('bananas');
      }),
    ],
  },
];

function mcpCall(name: string, args: Record<string, unknown>): Request {
  return {
    path: '/mcp',
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  };
}

beforeAll(async () => {
  s.kbA = await createKb(app, { name: 'A' });
  s.kbA2 = await createKb(app, { name: 'A2' });
  s.kbB = await createKb(app, { name: 'B' });
  const seed = async (name: string, text: string, kbs: string[]) => {
    const { fileId, extractionId } = await extractedFile(app, name, text);
    const docs: string[] = [];
    for (const kbId of kbs) {
      const res = await addDoc(app, kbId, { file_id: fileId });
      expect(res.status, res.text).toBe(201);
      docs.push(res.body.id);
      if (kbId !== s.kbB) docsOfA.add(res.body.id);
    }
    return { fileId, extractionId, docs };
  };
  const a = await seed('a.txt', '# Apples\n\nAlpha content about apples.\n', [s.kbA]);
  const a2 = await seed('a2.txt', '# Apricots\n\nSecond content about apricots.\n', [s.kbA2]);
  s.bBytes = '# Bananas\n\nBravo content about bananas.\n';
  const b = await seed('b.txt', s.bBytes, [s.kbB]);
  const shared = await seed('shared.txt', '# Shared\n\nShared content about cherries.\n', [s.kbA, s.kbB]);
  const own = await seed('own.txt', '# Own\n\nOwn content about dates.\n', [s.kbA]);
  const free = await seed('free.txt', '# Free\n\nFree content about figs.\n', []);
  Object.assign(s, {
    fileA: a.fileId,
    extA: a.extractionId,
    docA: a.docs[0],
    fileA2: a2.fileId,
    fileB: b.fileId,
    extB: b.extractionId,
    docB: b.docs[0],
    fileShared: shared.fileId,
    fileOwn: own.fileId,
    fileFree: free.fileId,
    extFree: free.extractionId,
  });
  await drainWorkflows(app);
  // Sources that never sync here (no first sync, a public address that is never called).
  for (const [field, kbId] of [['srcA', s.kbA], ['srcB', s.kbB]] as const) {
    const res = await app.call(sourcesRoute.POST, {
      method: 'POST',
      path: '/v1/sources',
      body: { type: 'url', knowledge_base_id: kbId, config: { url: `https://93.184.216.34/${field}.pdf` }, sync: false },
    });
    expect(res.status, res.text).toBe(201);
    s[field] = res.body.id;
  }
  const limited = await app.createKey({ name: 'limited to A and A2', knowledgeBaseIds: [s.kbA, s.kbA2] });
  s.key = limited.key;
  s.keyId = limited.id;
});

function handlerOf(name: string): RouteHandler {
  const e = ENDPOINTS.find((x) => `${x.method} ${x.path}` === name)!;
  const handler = ROUTE_FILES[routeFileOf(e.path)][e.method as Method];
  if (typeof handler !== 'function') throw new Error(`${name}: no handler`);
  return handler;
}

describe('the restricted-key table', () => {
  it('has exactly one row for every protected operation of the endpoint list', () => {
    const declared = ENDPOINTS.filter((e) => e.auth !== 'public').map((e) => `${e.method} ${e.path}`);
    expect(ROWS.map((r) => r.name).sort()).toEqual([...declared].sort());
  });

  it('tries another knowledge base’s id on every route that takes one, and another’s file and extraction ids likewise', () => {
    for (const row of ROWS) {
      const codes = row.cases.map((c) => c.expect.code);
      if (row.name.includes('{kb_id}')) expect(codes, row.name).toContain('KNOWLEDGE_BASE_NOT_FOUND');
      if (row.name.includes('{file_id}')) expect(codes, row.name).toContain('FILE_NOT_FOUND');
      if (row.name.includes('{extraction_id}')) expect(codes, row.name).toContain('EXTRACTION_NOT_FOUND');
    }
  });
});

describe.each(ROWS)('$name with a key limited to knowledge bases A and A2', (row) => {
  it.each(row.cases)('$what', async (c) => {
    const [method] = row.name.split(' ');
    const res = await app.call(handlerOf(row.name), { method, ...c.request(), key: s.key });
    expect(res.status, res.text).toBe(c.expect.status);
    if (c.expect.code) {
      expect(res.body.error.code, res.text).toBe(c.expect.code);
      // Another knowledge base's thing is answered exactly as one that does not exist: its id only.
      if (c.expect.status === 404) expect(Object.keys(res.body.error.details ?? {})).toEqual(['id']);
    }
    await c.check?.(res);
  });
});

describe('after the restricted-key table', () => {
  it('left B, its document and its file in place', async () => {
    expect((await app.call(handlerOf('GET /v1/knowledge-bases/{kb_id}'), kb(s.kbB))).status).toBe(200);
    expect((await app.call(handlerOf('GET /v1/knowledge-bases/{kb_id}/documents/{document_id}'), doc(s.kbB, s.docB))).status).toBe(200);
    expect((await app.call(handlerOf('GET /v1/files/{file_id}'), file(s.fileB))).status).toBe(200);
    expect((await app.call(handlerOf('GET /v1/files/{file_id}'), file(s.fileShared))).status).toBe(200);
  });
});

describe('deleting knowledge bases', () => {
  it('takes a deleted knowledge base out of the keys limited to it; a key left with none reaches nothing', async () => {
    const c = await createKb(app, { name: 'C' });
    const d = await createKb(app, { name: 'D' });
    const { id, key } = await app.createKey({ name: 'limited to C and D', knowledgeBaseIds: [c, d] });
    const me = async () => (await app.call(handlerOf('GET /v1/me'), { path: '/v1/me', key })).body;
    const listed = async () =>
      (await app.call(handlerOf('GET /v1/api-keys'), { path: '/v1/api-keys?limit=100' })).body.items.find((k: { id: string }) => k.id === id);
    // Used once, so a key cache (the embedded database keeps one) holds it from now on.
    expect((await me()).knowledge_base_ids).toEqual([c, d]);

    expect((await app.call(handlerOf('DELETE /v1/knowledge-bases/{kb_id}'), { method: 'DELETE', ...kb(c) })).status).toBe(204);
    expect((await me()).knowledge_base_ids).toEqual([d]);
    expect((await listed()).knowledge_base_ids).toEqual([d]);

    // The key may delete its own knowledge base; it is then left with none.
    expect((await app.call(handlerOf('DELETE /v1/knowledge-bases/{kb_id}'), { method: 'DELETE', ...kb(d), key })).status).toBe(204);
    expect(await me()).toMatchObject({ knowledge_base_ids: [], scopes: ['files:*', 'extractions:*', 'kb:*', 'sources:*'] });
    expect((await listed()).knowledge_base_ids).toEqual([]);

    // Never widened: it reaches nothing at all.
    const as = (name: string, request: Request) => app.call(handlerOf(name), { method: name.split(' ')[0], ...request, key });
    const kbs = await as('GET /v1/knowledge-bases', { path: '/v1/knowledge-bases' });
    expect([kbs.status, kbs.body.items, kbs.body.total]).toEqual([200, [], 0]);
    const files = await as('GET /v1/files', { path: '/v1/files' });
    expect([files.status, files.body.items, files.body.total]).toEqual([200, [], 0]);
    expect((await as('GET /v1/knowledge-bases/{kb_id}', kb(s.kbA))).body.error.code).toBe('KNOWLEDGE_BASE_NOT_FOUND');
    expect((await as('POST /v1/knowledge-bases/{kb_id}/search', { ...kb(s.kbA, '/search'), body: { query: 'content' } })).body.error.code).toBe('KNOWLEDGE_BASE_NOT_FOUND');
    expect((await as('GET /v1/files/{file_id}', file(s.fileA))).body.error.code).toBe('FILE_NOT_FOUND');
    expect((await as('GET /v1/extractions/{extraction_id}', extraction(s.extA))).body.error.code).toBe('EXTRACTION_NOT_FOUND');
    expect((await as('POST /v1/knowledge-bases', { path: '/v1/knowledge-bases', body: { name: 'mine now' } })).status).toBe(403);
    expect((await as('POST /v1/files', { path: '/v1/files', body: formWith('x.txt', Buffer.from('x\n')) })).status).toBe(403);
  });

  it('leaves keys not limited to the deleted knowledge base as they were', async () => {
    const e = await createKb(app, { name: 'E' });
    const other = await app.createKey({ name: 'limited to A', knowledgeBaseIds: [s.kbA] });
    const unlimited = await app.createKey({ name: 'unlimited', scopes: ['kb:read'] });
    expect((await app.call(handlerOf('DELETE /v1/knowledge-bases/{kb_id}'), { method: 'DELETE', ...kb(e) })).status).toBe(204);
    const items = (await app.call(handlerOf('GET /v1/api-keys'), { path: '/v1/api-keys?limit=100' })).body.items as { id: string; knowledge_base_ids: string[] | null }[];
    expect(items.find((k) => k.id === other.id)?.knowledge_base_ids).toEqual([s.kbA]);
    expect(items.find((k) => k.id === unlimited.id)?.knowledge_base_ids).toBeNull();
    expect(items.find((k) => k.id === s.keyId)?.knowledge_base_ids).toEqual([s.kbA, s.kbA2]);
  });
});

describe('the services hold every caller to the limit (the MCP server calls them with the same context)', () => {
  it('refuses and hides what lies outside the key’s knowledge bases without going through a route', async () => {
    const principal = { keyId: 'key_service', name: 'service', scopes: ['files:*', 'extractions:*', 'kb:*', 'sources:*'], allowedIps: null, knowledgeBaseIds: [s.kbA] };
    const ctx = { db: app.db, storage: app.storage, requestId: null, principal };
    const page = { limit: 100, offset: 0 };
    expect((await listKnowledgeBases(ctx, { ...page, sort_by: 'name', order: 'asc' })).items.map((k) => k.id)).toEqual([s.kbA]);
    await expect(getKnowledgeBase(ctx, s.kbB)).rejects.toMatchObject({ code: 'KNOWLEDGE_BASE_NOT_FOUND' });
    await expect(getDocument(ctx, s.kbB, s.docB)).rejects.toMatchObject({ code: 'KNOWLEDGE_BASE_NOT_FOUND' });
    await expect(listDocuments(ctx, s.kbB, { ...page, sort_by: 'created_at', order: 'asc' })).rejects.toMatchObject({ code: 'KNOWLEDGE_BASE_NOT_FOUND' });
    await expect(createKnowledgeBase(ctx, { name: 'not allowed' })).rejects.toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    await expect(getFile(ctx, s.fileB)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(getExtraction(ctx, s.extB)).rejects.toMatchObject({ code: 'EXTRACTION_NOT_FOUND' });
    const recent = await recentCompletedExtractions(ctx, 100);
    expect(recent.map((r) => r.id)).toContain(s.extA);
    for (const hidden of [s.extB, s.extFree]) expect(recent.map((r) => r.id)).not.toContain(hidden);
    // Without a limit (console sessions, unlimited keys, background work) everything is reached.
    const open = { ...ctx, principal: { ...principal, knowledgeBaseIds: null } };
    expect(await getKnowledgeBase(open, s.kbB)).toMatchObject({ id: s.kbB });
    expect((await recentCompletedExtractions({ ...ctx, principal: null }, 100)).map((r) => r.id)).toContain(s.extB);
  });
});
