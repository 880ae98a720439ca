/**
 * The endpoint list (lib/api/endpoints) is the one declaration of each operation: the route
 * wrapper answers with its status and, under test, checks every JSON response against its
 * response schema; the README's scope table is generated from it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { endpoint, errorCodesOf } from '@/lib/api/endpoint';
import { endpointTable, TABLE_END, TABLE_START } from '@/lib/api/endpoint-table';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { route } from '@/lib/api/handler';
import { useTestApp } from '@/test/support/app';
import { routeFileOf } from '@/test/support/routes';

const app = useTestApp();
const ROOT = path.resolve(__dirname, '..');

const thing = endpoint({
  id: 'getThing',
  method: 'GET',
  path: '/v1/things/{thing_id}',
  summary: 'A thing',
  auth: 'files:read',
  params: z.object({ thing_id: z.string() }),
  response: { status: 200, description: 'The thing', schema: z.object({ id: z.string(), size: z.number().int(), tags: z.array(z.string()) }) },
  errors: ['FILE_NOT_FOUND'],
});

const call = (handler: ReturnType<typeof route>) => app.call(handler, { path: '/v1/things/t1', params: { thing_id: 't1' } });

describe('the route wrapper answers with the endpoint declaration', () => {
  it('serialises a result with the declared status', async () => {
    const res = await call(route(thing, async ({ params }) => ({ id: params.thing_id, size: 3, tags: ['a'] })));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 't1', size: 3, tags: ['a'] });
  });

  it('turns a response that drifts from its schema into a 500 naming the field (under test)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const extra = await call(route(thing, async () => ({ id: 't1', size: 3, tags: [], secret: 'x' }) as never));
      expect(extra.status).toBe(500);
      expect(String(errors.mock.calls.at(-1)?.[1])).toMatch(/getThing: the response has fields its schema does not document: \["secret"\]/);
      const wrong = await call(route(thing, async () => ({ id: 't1', size: 2.5, tags: [] })));
      expect(wrong.status).toBe(500);
      expect(String(errors.mock.calls.at(-1)?.[1])).toMatch(/getThing: the response does not match its schema at size/);
      const nested = await call(route(thing, async () => ({ id: 't1', size: 1, tags: [7] }) as never));
      expect(nested.status).toBe(500);
      expect(String(errors.mock.calls.at(-1)?.[1])).toMatch(/at tags\.0/);
    } finally {
      errors.mockRestore();
    }
  });

  it('answers 204 with no body for an endpoint that declares it', async () => {
    const gone = endpoint({ ...thing, id: 'deleteThing', method: 'DELETE', response: { status: 204, description: 'Deleted' } });
    const res = await call(route(gone, async () => {}));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });
});

describe('the endpoint list', () => {
  it('names every operation once, with a route file at its path serving its method', async () => {
    const keys = ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(ENDPOINTS.map((e) => e.id)).size).toBe(ENDPOINTS.length);
    for (const e of ENDPOINTS) {
      const file = path.join(ROOT, routeFileOf(e.path));
      expect(fs.existsSync(file), file).toBe(true);
      const source = fs.readFileSync(file, 'utf8');
      expect(source, `${e.id} in ${file}`).toMatch(new RegExp(`export const ${e.method} = route\\(endpoints\\.${e.id},`));
    }
  });

  it('adds the errors the wrapper can answer with to each operation', () => {
    const upload = ENDPOINTS.find((e) => e.id === 'uploadFile')!;
    expect(errorCodesOf(upload)).toEqual(
      expect.arrayContaining(['UNAUTHORIZED', 'INSUFFICIENT_SCOPE', 'IDEMPOTENCY_KEY_REUSED', 'SERVICE_UNAVAILABLE', 'UNSUPPORTED_FORMAT']),
    );
    const health = ENDPOINTS.find((e) => e.id === 'getHealth')!;
    expect(errorCodesOf(health)).toEqual([]);
  });

  it('the README carries the table generated from it (npm run docs:endpoints rewrites it)', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf(TABLE_START);
    const end = readme.indexOf(TABLE_END);
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start, end + TABLE_END.length)).toBe(endpointTable());
    for (const e of ENDPOINTS) expect(endpointTable()).toContain(`| \`${e.method} ${e.path}\` |`);
  });

  it('the console imports response types from the endpoint list, not hand-written copies', () => {
    const out = spawnSync('grep', ['-rln', 'ResponseOf<', path.join(ROOT, 'components')], { encoding: 'utf8' });
    expect(out.stdout.trim().length).toBeGreaterThan(0);
  });
});
