import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '@/scripts/lib/ensure-build.mjs';
import { runServer } from '@/scripts/lib/run-server.mjs';
import { createScratchDatabase } from '@/test/support/database';
import { fixture } from '@/test/support/fixtures';
import { storageFor, testStorageEnv } from '@/test/support/storage';
import type { Storage } from '@/lib/storage';

/**
 * The production server over real HTTP: the custom Node server in front of Next.js, start-up
 * work, streaming multipart uploads, and the peer address used for IP allow-lists.
 */
const ADMIN = 'sk_test_httpserveradministratorkey000001';
type Server = Awaited<ReturnType<typeof runServer>>;

let server: Server;
let dataDir: string;
let storage: Storage;
let scratch: { url: string; drop(): Promise<void> } | undefined;

beforeAll(async () => {
  ensureBuild({ quiet: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-http-'));
  const env: Record<string, string> = { QUARRY_ADMIN_KEY: ADMIN, QUARRY_DATA_DIR: dataDir, ...testStorageEnv() };
  storage = storageFor(env, dataDir);
  if (process.env.TEST_DATABASE_URL) {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL);
    env.DATABASE_URL = scratch.url;
  }
  server = await runServer({ env });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const auth = (key = ADMIN) => ({ authorization: `Bearer ${key}` });

async function createKey(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${server.baseUrl}/v1/api-keys`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'http test', ...body }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).key;
}

describe('production server over HTTP', () => {
  it('answers health without a key and requires one elsewhere', async () => {
    const health = await fetch(`${server.baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'healthy' });
    const files = await fetch(`${server.baseUrl}/v1/files`);
    expect(files.status).toBe(401);
    const body = await files.json();
    expect(body.error.code).toBe('UNAUTHORIZED');
    expect(body.error.request_id).toBe(files.headers.get('x-request-id'));
    const detailed = await fetch(`${server.baseUrl}/health/detailed`, { headers: auth() });
    expect((await detailed.json()).components).toMatchObject({ database: { status: 'healthy' }, storage: { status: 'healthy' } });
  });

  it('uploads a real multipart file and downloads the same bytes', async () => {
    const bytes = fixture('pdf/right_to_left_01.pdf');
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(bytes)]), 'متن فارسی.pdf');
    form.set('tags', 'rtl, sample');
    form.set('metadata', JSON.stringify({ lang: 'fa' }));
    const up = await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: auth(), body: form });
    expect(up.status).toBe(201);
    const file = await up.json();
    expect(file).toMatchObject({ filename: 'متن فارسی.pdf', content_type: 'application/pdf', size: bytes.length, tags: ['rtl', 'sample'] });

    const dl = await fetch(`${server.baseUrl}/v1/files/${file.id}/download`, { headers: auth() });
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-type')).toBe('application/pdf');
    expect(dl.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('متن فارسی.pdf')}`);
    expect(Buffer.from(await dl.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers 413 to an oversized upload and the client receives it', async () => {
    const png = Buffer.alloc(21 * 1024 * 1024, 1);
    fixture('ocr/chinese_traditional.png').copy(png, 0);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(png)]), 'big.png');
    const res = await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: auth(), body: form });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('FILE_TOO_LARGE');
    expect(await storage.list('staging')).toEqual([]);
  });

  it('uses the connection address for allowed_ips and ignores forged headers', async () => {
    const local = await createKey({ allowed_ips: ['127.0.0.1', '::1'] });
    const remote = await createKey({ allowed_ips: ['10.0.0.0/8'] });
    expect((await fetch(`${server.baseUrl}/v1/files`, { headers: auth(local) })).status).toBe(200);
    const forgeries: Record<string, string>[] = [{ 'x-forwarded-for': '10.1.2.3' }, { 'x-quarry-client-ip': '10.1.2.3' }];
    for (const forged of forgeries) {
      const res = await fetch(`${server.baseUrl}/v1/files`, { headers: { ...auth(remote), ...forged } });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('IP_NOT_ALLOWED');
    }
  });

  it('sends rate-limit headers and 404s unknown /v1 paths in JSON', async () => {
    const res = await fetch(`${server.baseUrl}/v1/files/types`, { headers: auth() });
    expect(res.headers.get('x-ratelimit-limit')).toBe('600');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(600);
    const missing = await fetch(`${server.baseUrl}/v1/no/such/thing`, { method: 'POST', headers: auth() });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('NOT_FOUND');
  });

  it('answers malformed paths, methods, request lines and headers in the API error body', async () => {
    const expectError = (headers: Record<string, string>, text: string, code: string) => {
      expect(headers['content-type']).toContain('application/json');
      const body = JSON.parse(text);
      expect(body.error.code).toBe(code);
      expect(body.error.request_id).toMatch(/^req_[0-9a-z]{26}$/);
      expect(headers['x-request-id']).toBe(body.error.request_id);
    };
    for (const path of ['/v1/files/file_%FF%FE', '/v1/knowledge-bases/%C0%AF/documents', '/%E0%A4%A', '/v1/files/%']) {
      const res = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ADMIN}\r\n\r\n`);
      expect(res.status, path).toBe(400);
      expectError(res.headers, res.body, 'INVALID_REQUEST');
    }
    const nul = await fetch(`${server.baseUrl}/v1/files/file_%00`, { headers: auth() });
    expect(nul.status).toBe(400);
    expect((await nul.json()).error.details.field).toBe('file_id');

    const method = await rawRequest(server.port, 'PROPFIND /v1/files HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(method.status).toBe(405);
    expectError(method.headers, method.body, 'METHOD_NOT_ALLOWED');

    const badHeader = await rawRequest(server.port, 'GET /health HTTP/1.1\r\nHost: localhost\r\nBroken header line\r\n\r\n');
    expect(badHeader.status).toBe(400);
    expectError(badHeader.headers, badHeader.body, 'INVALID_REQUEST');

    const huge = await rawRequest(server.port, `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge.status).toBe(431);
    expectError(huge.headers, huge.body, 'HEADERS_TOO_LARGE');

    // The server keeps serving.
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
  });
});

/** Sends bytes as they are (fetch would refuse or re-encode them) and parses the one response. */
async function rawRequest(port: number, request: string) {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(request);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) {
    chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const end = text.indexOf('\r\n\r\n');
    const length = /content-length: (\d+)/i.exec(text)?.[1];
    if (end >= 0 && length && Buffer.byteLength(text.slice(end + 4)) >= Number(length)) break;
  }
  socket.destroy();
  const text = Buffer.concat(chunks).toString('utf8');
  const [head, body = ''] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('embedded database start-up', () => {
  it('creates and prints a first admin key, refuses a second process, and survives kill -9', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-boot-'));
    const env = { QUARRY_DATA_DIR: dir, QUARRY_ADMIN_KEY: '', DATABASE_URL: '' };
    try {
      const first = await runServer({ env });
      const key = /sk_test_[A-Za-z0-9]{32}/.exec(first.output())?.[0];
      expect(key).toBeTruthy();
      const up = new FormData();
      up.set('file', new Blob([new Uint8Array(Buffer.from('persisted'))]), 'keep.txt');
      const created = await fetch(`${first.baseUrl}/v1/files`, { method: 'POST', headers: auth(key), body: up });
      expect(created.status).toBe(201);
      const { id } = await created.json();

      await expect(runServer({ env, timeoutMs: 30_000 })).rejects.toThrow(/already using the data directory/);

      await first.stop('SIGKILL');
      const second = await runServer({ env });
      try {
        expect(second.output()).not.toMatch(/sk_test_[A-Za-z0-9]{32}/);
        const detail = await fetch(`${second.baseUrl}/v1/files/${id}`, { headers: auth(key) });
        expect(detail.status).toBe(200);
        expect((await detail.json()).filename).toBe('keep.txt');
      } finally {
        await second.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
