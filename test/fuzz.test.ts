import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MAX_JSON_DEPTH } from '@/lib/text/clean';
import { files } from '@/lib/db/schema';
import { useTestApp, type CallOptions, type TestResponse } from '@/test/support/app';
import { formWith } from '@/test/support/fixtures';
import { ROUTE_FILES, routeFileOf, filesRoute, kbsRoute, maintenanceRoute, openapiRoute, sourcesRoute, webhooksRoute, type Method } from './support/routes';

/*
 * Every operation of the published OpenAPI document, called with hostile input in each path
 * parameter, query parameter, body field and whole body: NUL characters, unpaired surrogates,
 * JSON nested far too deep, huge strings and wrong types. No answer may be a 5xx, every error must
 * be the contract's error body with a request id, and input the database cannot store must be a 400.
 */

// A limit far above the few thousand requests made here, so every answer is about the input.
const app = useTestApp({ QUARRY_RATE_LIMIT_PER_MINUTE: '100000' });

interface Operation {
  method: Method;
  path: string;
  file: string;
  pathParams: string[];
  queryParams: string[];
  bodyProps: string[];
  json: boolean;
  multipart: boolean;
}

type Failure = { case: string; status: number; body: string };

const ids: Record<string, string> = {
  file_id: 'file_01jd0000000000000000000000',
  extraction_id: 'ext_01jd0000000000000000000000',
  kb_id: 'kb_01jd0000000000000000000000',
  document_id: 'doc_01jd0000000000000000000000',
  webhook_id: 'wh_01jd0000000000000000000000',
  delivery_id: 'del_01jd0000000000000000000000',
  key_id: 'key_01jd0000000000000000000000',
  user_id: 'usr_01jd0000000000000000000000',
  source_id: 'src_01jd0000000000000000000000',
  run_id: 'srun_01jd0000000000000000000000',
};

/** A valid body per operation, so that one hostile field is the only thing wrong with a request. */
function validBody(op: Operation): Record<string, unknown> {
  const bodies: Record<string, Record<string, unknown>> = {
    'POST /v1/extractions': { file_id: ids.file_id, mode: 'simple' },
    'POST /v1/knowledge-bases': { name: 'fuzz' },
    'PATCH /v1/knowledge-bases/{kb_id}': { name: 'fuzz' },
    'POST /v1/knowledge-bases/{kb_id}/documents': { file_id: ids.file_id },
    'POST /v1/knowledge-bases/{kb_id}/search': { query: 'hello' },
    'POST /v1/knowledge-bases/{kb_id}/hybrid-search': { query: 'hello' },
    'POST /v1/webhooks': { url: 'https://hooks.example.com/fuzz', events: ['*'], secret: 'a long enough webhook secret' },
    'PATCH /v1/webhooks/{webhook_id}': { enabled: true },
    'POST /v1/users': { email: 'fuzz@example.com', password: 'a long enough password' },
    'PATCH /v1/users/{user_id}': { name: 'fuzz' },
    'POST /v1/setup': { email: 'setup@example.com', password: 'a long enough password' },
    'POST /v1/api-keys': { name: 'fuzz', scopes: ['files:read'] },
    // A literal public address (no DNS) that is never fetched: no first sync.
    'POST /v1/sources': { type: 'url', knowledge_base_id: ids.kb_id, config: { url: 'https://93.184.216.34/fuzz.pdf' }, sync: false },
    'PATCH /v1/sources/{source_id}': { enabled: true },
    // Refused before any request (a loopback address): the test connection never waits on the network.
    'POST /v1/sources/test': { type: 'url', config: { url: 'http://127.0.0.1:9/fuzz.pdf' } },
    'POST /v1/citations/verify': { citations: [{ chunk_id: 'chunk_01jd0000000000000000000000' }] },
    // Maintenance stays off: an enabled maintenance mode would rightly answer 503 to everything after it.
    'POST /admin/maintenance': { enabled: false, message: 'fuzz' },
  };
  return { ...(bodies[`${op.method} ${op.path}`] ?? {}) };
}

const deepJson = (depth: number, open = '{"a":', close = '}') => `${open.repeat(depth)}1${close.repeat(depth)}`;
const deepValue = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

/** Values the database cannot store: each must be a 400 wherever it appears. */
const UNSTORABLE: [string, unknown][] = [
  ['NUL', 'a\u0000b'],
  ['lone high surrogate', 'a\ud800b'],
  ['lone low surrogate', '\udc00'],
  ['NUL in a nested key', { 'k\u0000': 1 }],
  ['NUL in an array', ['ok', 'x\u0000']],
  ['too deep', deepValue(MAX_JSON_DEPTH + 8)],
];

/** Values that are merely wrong: any 4xx (or a 2xx when the field accepts them), never a 5xx. */
const WRONG: [string, unknown][] = [
  ['huge string', 'x'.repeat(300_000)],
  ['control characters', 'a\r\nX-Injected: 1\u0007\u009b'],
  ['empty string', ''],
  ['huge number', 1e308],
  ['negative', -1],
  ['fraction', 0.5],
  ['boolean', true],
  ['null', null],
  ['array', [1, 'two', null]],
  ['object', { $gt: '', nested: { a: [1] } }],
  ['long array', Array.from({ length: 5000 }, (_, i) => i)],
];

const RAW_BODIES: [string, string | Uint8Array, boolean][] = [
  // [label, body, whether it must be a 400]
  ['JSON nested 20,000 deep (objects)', deepJson(20_000), true],
  ['JSON nested 20,000 deep (arrays)', deepJson(20_000, '[', ']'), true],
  ['NUL escape in a key', '{"\\u0000":1}', true],
  ['NUL escape in a value', '{"name":"\\u0000"}', true],
  ['lone surrogate escape', '{"name":"\\ud83d"}', true],
  ['invalid UTF-8 bytes', new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), false],
  ['truncated JSON', '{"name":', true],
  ['a JSON array', '[]', false],
  ['a JSON string', '"text"', false],
  ['JSON null', 'null', false],
  ['a byte order mark', '\ufeff{}', false],
];

const PATH_VALUES: [string, string, boolean][] = [
  ['NUL', 'file_\u0000', true],
  ['lone surrogate', 'x\ud800', true],
  ['huge', 'x'.repeat(100_000), false],
  ['traversal', '../../../etc/passwd', false],
  ['percent sign', '%FF%FE', false],
];

const QUERY_VALUES: [string, string, boolean][] = [
  ['NUL', 'a\u0000', true],
  ['huge', 'x'.repeat(100_000), false],
  ['negative', '-1', false],
  ['overflowing number', '1e400', false],
  ['NaN', 'NaN', false],
  ['control characters', '\r\n', false],
];

async function operations(): Promise<Operation[]> {
  const doc = (await app.call(openapiRoute.GET, { path: '/v1/openapi.json', key: null })).body;
  const schemas = doc.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []) as { in: string; name: string }[];
      const content = op.requestBody?.content ?? {};
      const schema = (content['application/json'] ?? content['multipart/form-data'])?.schema;
      const resolved = schema?.$ref ? schemas[schema.$ref.split('/').pop()] : schema;
      ops.push({
        method: method.toUpperCase() as Method,
        path,
        file: routeFileOf(path),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyProps: Object.keys(resolved?.properties ?? {}),
        json: 'application/json' in content,
        multipart: 'multipart/form-data' in content,
      });
    }
  }
  return ops;
}

function urlOf(op: Operation, params: Record<string, string>, query = ''): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name].toWellFormed()));
  return `${path}${query}`;
}

describe('fuzzing every operation of /v1/openapi.json', () => {
  let ops: Operation[] = [];
  const failures: Failure[] = [];
  let calls = 0;

  async function send(op: Operation, label: string, mustBe400: boolean, options: Omit<CallOptions, 'path'> & { params?: Record<string, string>; query?: string }) {
    const params = { ...Object.fromEntries(op.pathParams.map((p) => [p, ids[p]])), ...options.params };
    const handler = ROUTE_FILES[op.file]?.[op.method];
    if (!handler) throw new Error(`no handler for ${op.method} ${op.file}`);
    const res: TestResponse = await app.call(handler, { ...options, method: op.method, path: urlOf(op, params, options.query), params });
    calls++;
    const problem = checkResponse(res, mustBe400);
    if (problem) failures.push({ case: `${op.method} ${op.path} ${label}: ${problem}`, status: res.status, body: res.text.slice(0, 300) });
    if (op.path === '/admin/maintenance' && op.method === 'POST') {
      await app.call(maintenanceRoute.POST, { method: 'POST', path: '/admin/maintenance', body: { enabled: false } });
    }
    return res;
  }

  beforeAll(async () => {
    ops = await operations();
    // Real resources behind the path ids, so requests get past "not found" into the services.
    const upload = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith('fuzz.txt', Buffer.from('fuzz text')) });
    ids.file_id = upload.body.id;
    ids.kb_id = (await app.call(kbsRoute.POST, { method: 'POST', path: '/v1/knowledge-bases', body: { name: 'fuzz kb' } })).body.id;
    ids.webhook_id = (
      await app.call(webhooksRoute.POST, {
        method: 'POST',
        path: '/v1/webhooks',
        body: { url: 'https://hooks.example.com/x', events: ['*'], secret: 'a long enough webhook secret' },
      })
    ).body.id;
    ids.source_id = (
      await app.call(sourcesRoute.POST, {
        method: 'POST',
        path: '/v1/sources',
        body: { type: 'url', knowledge_base_id: ids.kb_id, config: { url: 'https://93.184.216.34/fuzz.pdf' }, sync: false },
      })
    ).body.id;
  });

  it('covers every operation with a route handler', () => {
    expect(ops.length).toBeGreaterThanOrEqual(40);
    for (const op of ops) expect(ROUTE_FILES[op.file]?.[op.method], `${op.method} ${op.path}`).toBeTypeOf('function');
  });

  it('path parameters', async () => {
    for (const op of ops) {
      for (const name of op.pathParams) {
        for (const [label, value, strict] of PATH_VALUES) {
          await send(op, `path ${name}=${label}`, strict, { params: { [name]: value }, body: op.json ? validBody(op) : undefined });
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('query parameters, declared or not', async () => {
    for (const op of ops) {
      for (const name of [...op.queryParams, 'unexpected']) {
        for (const [label, value, strict] of QUERY_VALUES) {
          await send(op, `query ${name}=${label}`, strict, { query: `?${new URLSearchParams({ [name]: value })}`, body: op.json ? validBody(op) : undefined });
        }
      }
      await send(op, 'query with a NUL in its name', true, { query: '?a%00b=1' });
    }
    expect(failures).toEqual([]);
  });

  it('JSON body fields', async () => {
    for (const op of ops.filter((o) => o.json)) {
      for (const prop of [...op.bodyProps, 'unexpected']) {
        for (const [label, value] of UNSTORABLE) await send(op, `body ${prop}=${label}`, true, { body: { ...validBody(op), [prop]: value } });
        for (const [label, value] of WRONG) await send(op, `body ${prop}=${label}`, false, { body: { ...validBody(op), [prop]: value } });
      }
    }
    expect(failures).toEqual([]);
  });

  it('whole JSON bodies', async () => {
    for (const op of ops.filter((o) => o.json)) {
      for (const [label, body, strict] of RAW_BODIES) {
        await send(op, `raw body ${label}`, strict, { body, headers: { 'content-type': 'application/json' } });
      }
    }
    expect(failures).toEqual([]);
  });

  it('headers: malformed Idempotency-Key and session cookies', async () => {
    for (const op of ops) {
      await send(op, 'cookie with a malformed escape', false, { key: null, headers: { cookie: 'next-auth.session-token=%FF%E0' }, body: op.json ? validBody(op) : undefined });
      await send(op, 'idempotency key with spaces', false, { headers: { 'idempotency-key': 'a b\u007f' }, body: op.json ? validBody(op) : undefined });
    }
    expect(failures).toEqual([]);
  });

  it('multipart uploads: filenames, metadata and tags', async () => {
    const upload = ops.find((o) => o.multipart)!;
    const cases: [string, FormData | string, boolean][] = [
      ['NUL in the filename', formWith('a\u0000.txt', Buffer.from('x')), true],
      ['NUL in metadata', formWith('a.txt', Buffer.from('x'), { metadata: '{"k":"\\u0000"}' }), true],
      ['NUL in a metadata key', formWith('a.txt', Buffer.from('x'), { metadata: '{"\\u0000":1}' }), true],
      ['lone surrogate in metadata', formWith('a.txt', Buffer.from('x'), { metadata: '{"k":"\\udfff"}' }), true],
      ['metadata nested 20,000 deep', formWith('a.txt', Buffer.from('x'), { metadata: deepJson(20_000) }), true],
      ['NUL in tags', formWith('a.txt', Buffer.from('x'), { tags: 'a,b\u0000' }), true],
      ['huge tags', formWith('a.txt', Buffer.from('x'), { tags: 'x'.repeat(60_000) }), false],
      ['huge filename', formWith(`${'x'.repeat(10_000)}.txt`, Buffer.from('x')), false],
      ['not multipart', 'plain text body', false],
    ];
    for (const [label, body, strict] of cases) {
      await send(upload, label, strict, { body, headers: typeof body === 'string' ? { 'content-type': 'multipart/form-data; boundary=x' } : undefined });
    }
    expect(failures).toEqual([]);
  });

  it('stores control characters in names as spaces and serves safe download headers', async () => {
    const upload = await app.call(filesRoute.POST, {
      method: 'POST',
      path: '/v1/files',
      body: formWith('evil\r\nX-Injected: 1\r.txt', Buffer.from('x'), { tags: 'a\u0001b, c\u009bd' }),
    });
    expect(upload.status, upload.text).toBe(201);
    expect(upload.body.filename).toBe('evil X-Injected: 1 .txt');
    expect(upload.body.tags).toEqual(['a b', 'c d']);
    // A name stored before cleaning existed still gives a header without control characters.
    await app.db.update(files).set({ filename: 'old\r\nX-Injected: 1.txt' }).where(eq(files.id, upload.body.id));
    const handler = ROUTE_FILES['app/v1/files/[file_id]/download/route.ts'].GET!;
    const download = await app.call(handler, { path: `/v1/files/${upload.body.id}/download`, params: { file_id: upload.body.id } });
    const disposition = download.headers.get('content-disposition') ?? '';
    expect(disposition).toBe('attachment; filename="old X-Injected: 1.txt"');
    const kb = await app.call(kbsRoute.POST, { method: 'POST', path: '/v1/knowledge-bases', body: { name: '\u0000' } });
    expect([kb.status, kb.body.error.details.field]).toEqual([400, 'name']);
    const named = await app.call(kbsRoute.POST, { method: 'POST', path: '/v1/knowledge-bases', body: { name: ' Line\r\nbreak\t ' } });
    expect(named.body.name).toBe('Line break');
  });

  it('made well over a thousand requests', () => {
    expect(calls).toBeGreaterThan(1500);
  });
});

function checkResponse(res: TestResponse, mustBe400: boolean): string | null {
  if (res.status >= 500) return `answered ${res.status}`;
  if (res.status >= 400) {
    const error = res.body?.error;
    if (typeof error?.code !== 'string' || typeof error?.message !== 'string') return 'error body is not the contract’s';
    if (!/^req_[0-9a-z]{26}$/.test(error.request_id ?? '')) return 'error body has no req_ id';
    if (res.headers.get('x-request-id') !== error.request_id) return 'X-Request-Id differs from the body';
  }
  if (mustBe400 && res.status !== 400) return `expected 400, got ${res.status}`;
  return null;
}
