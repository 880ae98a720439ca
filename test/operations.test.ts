import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import * as maintenanceRoute from '@/app/admin/maintenance/route';
import * as healthRoute from '@/app/health/route';
import * as detailedHealthRoute from '@/app/health/detailed/route';
import * as apiKeysRoute from '@/app/v1/api-keys/route';
import * as filesRoute from '@/app/v1/files/route';
import * as openApiRoute from '@/app/v1/openapi.json/route';
import * as catchAllRoute from '@/app/v1/[...path]/route';
import { MAX_JSON_BODY_BYTES, route, type RouteHandler } from '@/lib/api/handler';
import { getDatabase, setDatabase } from '@/lib/db/client';
import { settings, workflowRuns } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { clearMaintenanceCache } from '@/lib/ops/maintenance';
import { getStorage, setStorage, type Storage } from '@/lib/storage';
import { useTestApp } from '@/test/support/app';
import { formWith } from '@/test/support/fixtures';

const app = useTestApp();
const ROOT = path.resolve(__dirname, '..');
const PACKAGE_VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const setMaintenanceMode = (body: unknown, key?: string | null) =>
  app.call(maintenanceRoute.POST, { method: 'POST', path: '/admin/maintenance', body, key });

describe('GET /health', () => {
  it('needs no key and reports healthy with the package version', async () => {
    const res = await app.call(healthRoute.GET, { path: '/health', key: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'healthy', version: PACKAGE_VERSION });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('ignores an invalid key rather than failing', async () => {
    const res = await app.call(healthRoute.GET, { path: '/health', key: 'sk_test_not_a_real_key_at_all_00000' });
    expect(res.status).toBe(200);
  });
});

describe('GET /health/detailed', () => {
  it('needs a key', async () => {
    const res = await app.call(detailedHealthRoute.GET, { path: '/health/detailed', key: null });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect(res.body).not.toHaveProperty('components');
  });

  it('reports database and storage healthy to any valid key', async () => {
    const { key } = await app.createKey({ scopes: ['files:read'] });
    const res = await app.call(detailedHealthRoute.GET, { path: '/health/detailed', key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'healthy',
      version: PACKAGE_VERSION,
      maintenance: { enabled: false },
      components: {
        database: { status: 'healthy', kind: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' },
        storage: { status: 'healthy', kind: inject('s3Env') ? 's3' : 'local' },
        pipeline: { status: 'healthy', kind: 'embedded', queued: expect.any(Number), running: expect.any(Number), oldest_wait_s: expect.any(Number) },
      },
    });
    expect(typeof res.body.components.database.latency_ms).toBe('number');
  });

  it('reports the pipeline backlog: runs due and how long the oldest has waited', async () => {
    const id = newId('run');
    const due = new Date(Date.now() - 120_000);
    await app.db.insert(workflowRuns).values({
      id,
      workflow: 'no-such-workflow',
      input: {},
      status: 'queued',
      attempt: 0,
      maxAttempts: 1,
      nextRunAt: due,
      createdAt: due,
      updatedAt: due,
    });
    try {
      const res = await app.call(detailedHealthRoute.GET, { path: '/health/detailed' });
      expect(res.body.components.pipeline.queued).toBeGreaterThanOrEqual(1);
      expect(res.body.components.pipeline.oldest_wait_s).toBeGreaterThanOrEqual(119);
    } finally {
      await app.db.delete(workflowRuns).where(eq(workflowRuns.id, id));
    }
  });

  it('answers 503 with storage unhealthy when the storage probe fails', async () => {
    const real = getStorage();
    const broken: Storage = {
      kind: 'broken',
      stage: () => Promise.reject(new Error('not used')),
      read: () => Promise.reject(new Error('not used')),
      delete: () => Promise.reject(new Error('not used')),
      probe: () => Promise.reject(new Error('disk unavailable')),
      list: () => Promise.reject(new Error('not used')),
      sweepStaging: () => Promise.reject(new Error('not used')),
    };
    setStorage(broken);
    try {
      const res = await app.call(detailedHealthRoute.GET, { path: '/health/detailed' });
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('unhealthy');
      expect(res.body.components.storage).toMatchObject({ status: 'unhealthy', error: 'disk unavailable' });
      expect(res.body.components.database.status).toBe('healthy');
    } finally {
      setStorage(real);
    }
    const restored = await app.call(detailedHealthRoute.GET, { path: '/health/detailed' });
    expect(restored.status).toBe(200);
    expect(restored.body.components.storage.status).toBe('healthy');
  });

  it('answers 503 with database unhealthy when the database probe fails', async () => {
    const real = await getDatabase();
    setDatabase({ ...real, ping: () => Promise.reject(new Error('connection reset')) });
    try {
      const res = await app.call(detailedHealthRoute.GET, { path: '/health/detailed' });
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('unhealthy');
      expect(res.body.components.database).toMatchObject({ status: 'unhealthy', error: 'connection reset' });
      expect(res.body.components.storage.status).toBe('healthy');
    } finally {
      setDatabase(real);
    }
    expect((await app.call(detailedHealthRoute.GET, { path: '/health/detailed' })).status).toBe(200);
  });
});

describe('maintenance mode', () => {
  afterEach(async () => {
    // Never leave the service in maintenance for the next test.
    await setMaintenanceMode({ enabled: false });
  });

  it('needs an administrator key', async () => {
    const files = await app.createKey({ scopes: ['files:*'] });
    const res = await setMaintenanceMode({ enabled: true }, files.key);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const anonymous = await setMaintenanceMode({ enabled: true }, null);
    expect(anonymous.status).toBe(401);
    const state = await app.call(maintenanceRoute.GET, { path: '/admin/maintenance' });
    expect(state.body.enabled).toBe(false);

    const keyAdmin = await app.createKey({ scopes: ['api-keys:*'] });
    const ok = await setMaintenanceMode({ enabled: false }, keyAdmin.key);
    expect(ok.status).toBe(200);
  });

  it('validates the body', async () => {
    for (const body of [{ enabled: 'yes' }, {}, { enabled: true, message: 42 }, { enabled: true, message: 'm'.repeat(1001) }]) {
      const res = await setMaintenanceMode(body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details.field).toBeTruthy();
    }
    const res = await setMaintenanceMode({ enabled: 'yes' });
    expect(res.body.error.details.field).toBe('enabled');
    expect((await app.call(maintenanceRoute.GET, { path: '/admin/maintenance' })).body.enabled).toBe(false);
  });

  it('closes every /v1 route with 503 and the admin message, keeps operations open, persists, and reopens', async () => {
    const message = 'Upgrading the database until 14:00 UTC';
    const on = await setMaintenanceMode({ enabled: true, message });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ enabled: true, message, updated_at: expect.any(String) });
    expect(new Date(on.body.updated_at).toISOString()).toBe(on.body.updated_at);

    const { key: filesKey } = await app.createKey({ scopes: ['files:*'] });
    const closed = [
      await app.call(filesRoute.GET, { path: '/v1/files' }),
      await app.call(filesRoute.GET, { path: '/v1/files', key: filesKey }),
      await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith('m.txt', Buffer.from('m')) }),
      await app.call(apiKeysRoute.GET, { path: '/v1/api-keys' }),
      await app.call(apiKeysRoute.POST, { method: 'POST', path: '/v1/api-keys', body: { name: 'during maintenance' } }),
      await app.call(catchAllRoute.GET, { path: '/v1/nothing/here', params: { path: ['nothing', 'here'] } }),
      await app.call(catchAllRoute.POST, { method: 'POST', path: '/v1/nothing', params: { path: ['nothing'] }, key: null }),
      await app.call(openApiRoute.GET, { path: '/v1/openapi.json', key: null }),
      // Maintenance is answered before authentication: even a bad key learns only that.
      await app.call(filesRoute.GET, { path: '/v1/files', key: null }),
    ];
    for (const res of closed) {
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.body.error.message).toBe(message);
      expect(res.body.error.request_id).toMatch(/^req_/);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }

    expect((await app.call(healthRoute.GET, { path: '/health', key: null })).status).toBe(200);
    const detailed = await app.call(detailedHealthRoute.GET, { path: '/health/detailed', key: filesKey });
    expect(detailed.status).toBe(200);
    expect(detailed.body.maintenance).toEqual({ enabled: true, message });
    const state = await app.call(maintenanceRoute.GET, { path: '/admin/maintenance' });
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ enabled: true, message });

    // Persisted: a process without the cached state still sees it, from the settings table.
    clearMaintenanceCache();
    const [row] = await app.db.select().from(settings).where(eq(settings.key, 'maintenance'));
    expect(row.value).toEqual({ enabled: true, message });
    const afterReload = await app.call(filesRoute.GET, { path: '/v1/files' });
    expect(afterReload.status).toBe(503);
    expect(afterReload.body.error.message).toBe(message);

    const off = await setMaintenanceMode({ enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, message: null });
    expect((await app.call(filesRoute.GET, { path: '/v1/files' })).status).toBe(200);
    expect((await app.call(apiKeysRoute.GET, { path: '/v1/api-keys' })).status).toBe(200);
    clearMaintenanceCache();
    expect((await app.call(filesRoute.GET, { path: '/v1/files' })).status).toBe(200);
  });

  it('uses a default message when the administrator gives none', async () => {
    await setMaintenanceMode({ enabled: true });
    const res = await app.call(filesRoute.GET, { path: '/v1/files' });
    expect(res.status).toBe(503);
    expect(res.body.error.message).toMatch(/maintenance/i);
  });
});

describe('unknown paths and methods', () => {
  it('answers 404 NOT_FOUND in JSON for an unknown /v1 path, GET or POST, without a key', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await app.call(catchAllRoute[method], {
        method,
        path: '/v1/does-not-exist/42',
        params: { path: ['does-not-exist', '42'] },
        key: null,
        ...(method === 'POST' ? { body: { any: 'thing' } } : {}),
      });
      expect(res.status, method).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(res.body.error.message).toContain('/v1/does-not-exist/42');
      expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
    }
  });

  it('answers 405 METHOD_NOT_ALLOWED with an Allow header for an unsupported method', async () => {
    const res = await app.call(filesRoute.PUT, { method: 'PUT', path: '/v1/files', body: {} });
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);

    const health = await app.call(healthRoute.POST, { method: 'POST', path: '/health', key: null });
    expect(health.status).toBe(405);
    expect(health.headers.get('allow')).toBe('GET');
  });
});

describe('request bodies and errors', () => {
  it('answers 400 INVALID_REQUEST for a body that is not valid JSON', async () => {
    const res = await app.call(apiKeysRoute.POST, {
      method: 'POST',
      path: '/v1/api-keys',
      headers: { 'content-type': 'application/json' },
      body: '{"name": "unterminated',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(res.body.error.details.field).toBe('body');
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a JSON body over 1 MB, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(MAX_JSON_BODY_BYTES) });
    expect(MAX_JSON_BODY_BYTES).toBe(1024 * 1024);
    // Without a Content-Length header the size is counted while reading.
    const streamed = await app.call(apiKeysRoute.POST, {
      method: 'POST',
      path: '/v1/api-keys',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(streamed.status).toBe(413);
    expect(streamed.body.error.code).toBe('PAYLOAD_TOO_LARGE');

    const declared = await app.call(apiKeysRoute.POST, {
      method: 'POST',
      path: '/v1/api-keys',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('PAYLOAD_TOO_LARGE');

    // Just under the limit is parsed (and then fails validation on the name's length, not on size).
    const under = JSON.stringify({ name: 'x'.repeat(MAX_JSON_BODY_BYTES - 20) });
    expect(Buffer.byteLength(under)).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES);
    const ok = await app.call(apiKeysRoute.POST, { method: 'POST', path: '/v1/api-keys', headers: { 'content-type': 'application/json' }, body: under });
    expect(ok.status).toBe(400);
    expect(ok.body.error.code).toBe('INVALID_REQUEST');
  });

  it('answers 500 INTERNAL_ERROR for a thrown Error without leaking its message or stack', async () => {
    const secret = 'connection to db://admin:hunter2@10.0.0.5 refused';
    const failing = route({ auth: 'public' }, async () => {
      throw new Error(secret);
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await app.call(failing, { path: '/v1/boom', key: null });
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('INTERNAL_ERROR');
      expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message', 'request_id']);
      const requestId = res.headers.get('x-request-id')!;
      expect(res.body.error.request_id).toBe(requestId);
      expect(res.body.error.message).toContain(requestId);
      expect(res.text).not.toContain('hunter2');
      expect(res.text).not.toContain(secret);
      expect(res.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
      expect(res.text).not.toContain('stack');
      // The operator still gets the cause in the server log, tagged with the request id.
      expect(logged).toHaveBeenCalled();
      expect(String(logged.mock.calls[0][0])).toContain(requestId);
    } finally {
      logged.mockRestore();
    }
  });
});

/** Every route.ts under app/, as its URL path ([param] → {param}) and module file. */
function appRoutes(): { urlPath: string; file: string }[] {
  const found: { urlPath: string; file: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const rel = path.relative(path.join(ROOT, 'app'), dir).split(path.sep);
        const segments = rel.filter((s) => s !== '' && !/^\(.*\)$/.test(s)).map((s) => s.replace(/^\[(\w+)\]$/, '{$1}'));
        found.push({ urlPath: `/${segments.join('/')}`, file: full });
      }
    }
  };
  walk(path.join(ROOT, 'app'));
  // app/api/ holds framework endpoints (the Inngest serve handler), not part of the documented API.
  // /api/ holds framework endpoints (sign-in, Inngest); /pdfjs/ serves pdf.js's own data files to the console.
  return found.filter((r) => !r.urlPath.startsWith('/api/') && !r.urlPath.startsWith('/pdfjs/'));
}

describe('GET /v1/openapi.json', () => {
  it('is public, OpenAPI 3.1.0, and names the shared schemas', async () => {
    const res = await app.call(openApiRoute.GET, { path: '/v1/openapi.json', key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe(PACKAGE_VERSION);
    for (const name of ['File', 'ApiKey', 'Error']) expect(res.body.components.schemas, name).toHaveProperty(name);
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('is a valid OpenAPI 3.1 document by the specification\'s own JSON schema, and the check can fail', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const doc = (await app.call(openApiRoute.GET, { path: '/v1/openapi.json', key: null })).body;
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const broken = structuredClone(doc);
    broken.paths['/v1/files'].get.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('gives every operation a unique operationId and documents what each declares', async () => {
    const doc = (await app.call(openApiRoute.GET, { path: '/v1/openapi.json', key: null })).body;
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    const upload = doc.paths['/v1/files'].post;
    expect(upload.operationId).toBe('uploadFile');
    expect(Object.keys(upload.responses).sort()).toEqual(['200', '201', '400', '401', '403', '404', '409', '413', '415', '429', '503']);
    expect(upload.responses['409'].description).toBe('IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE, DOCUMENT_EXISTS');
    expect(upload.responses['403'].description).toBe('IP_NOT_ALLOWED, INSUFFICIENT_SCOPE');
    expect(doc.paths['/v1/setup'].post.security).toEqual([]);
    expect(doc.paths['/v1/users'].get.description).toBe('Required scope: * (all permissions).');
  });

  it('documents every route under app/, and exactly the methods each one serves', async () => {
    const doc = (await app.call(openApiRoute.GET, { path: '/v1/openapi.json', key: null })).body;
    const routes = appRoutes().filter((r) => !r.urlPath.includes('[...'));
    expect(routes.map((r) => r.urlPath)).toEqual(expect.arrayContaining(['/v1/files', '/v1/files/{file_id}', '/health', '/admin/maintenance']));

    const missing = routes.map((r) => r.urlPath).filter((p) => !(p in doc.paths));
    expect(missing, 'routes missing from the OpenAPI document').toEqual([]);
    const extra = Object.keys(doc.paths).filter((p) => !routes.some((r) => r.urlPath === p));
    expect(extra, 'documented paths without a route').toEqual([]);

    for (const { urlPath, file } of routes) {
      const mod = (await import(file)) as Partial<Record<(typeof METHODS)[number], RouteHandler>>;
      const served: string[] = [];
      for (const method of METHODS) {
        const handler = mod[method];
        if (!handler) continue;
        // Without a key a served method answers 401 (or 200 when public); an unserved one answers 405.
        const res = await app.call(handler, { method, path: urlPath, key: null });
        if (res.status !== 405) served.push(method.toLowerCase());
      }
      const documented = Object.keys(doc.paths[urlPath]).filter((k) => METHODS.some((m) => m.toLowerCase() === k));
      expect(documented.sort(), `methods of ${urlPath}`).toEqual(served.sort());
    }
  });
});
