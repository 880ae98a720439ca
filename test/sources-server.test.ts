import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '@/scripts/lib/ensure-build.mjs';
import { runServer, type RunningServer } from '@/scripts/lib/run-server.mjs';
import { createScratchDatabase } from '@/test/support/database';

/**
 * A sync killed with kill -9 in the middle and resumed by the restarted production server: every
 * page ends up exactly once (one file, one document, one item), the pages done before the kill
 * are not fetched again (at most the batch under way is), and the run completes with the counts
 * of one whole sync. On the embedded database, or on PostgreSQL when TEST_DATABASE_URL is set
 * (where the restarted server takes the run over once its lease ran out).
 */
const ADMIN = 'sk_test_sourceserveradministrator00001';
const PAGES = 30;
const DELAY_MS = 150;
const auth = { authorization: `Bearer ${ADMIN}` };

const PG = process.env.TEST_DATABASE_URL;
let scratch: { url: string; drop(): Promise<void> } | undefined;
let dataDir: string;
let server: RunningServer | undefined;
let site: http.Server;
let siteUrl = '';
const fetched = new Map<string, number>();

const env = () => ({
  QUARRY_ADMIN_KEY: ADMIN,
  QUARRY_DATA_DIR: dataDir,
  DATABASE_URL: scratch?.url ?? '',
  QUARRY_SOURCES_ALLOW_PRIVATE: 'true',
  // Short, so the killed process's run is taken over soon on PostgreSQL.
  QUARRY_WORKFLOW_LEASE_S: '5',
});

async function call(method: string, route: string, body?: unknown) {
  const res = await fetch(`${server!.baseUrl}${route}`, {
    method,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  ensureBuild({ quiet: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-source-server-'));
  if (PG) scratch = await createScratchDatabase(PG);
  // A slow site: an index linking 30 pages, each answering after a pause.
  site = http.createServer((req, res) => {
    const url = req.url ?? '/';
    fetched.set(url, (fetched.get(url) ?? 0) + 1);
    if (url === '/robots.txt') return void res.writeHead(404).end();
    const html = (body: string) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${body}</body></html>`), DELAY_MS);
    };
    if (url === '/docs/') return html(Array.from({ length: PAGES }, (_, i) => `<a href="p${i + 1}.html">Page ${i + 1}</a>`).join(' '));
    const match = /^\/docs\/p(\d+)\.html$/.exec(url);
    if (match) return html(`<h1>Page ${match[1]}</h1><p>Page ${match[1]} describes the orchard's row number ${match[1]} and its pear trees.</p>`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((r) => site?.close(r));
  await scratch?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const pagesFetched = () => [...fetched.entries()].filter(([url]) => /^\/docs\/p\d+\.html$/.test(url));

describe('a sync interrupted by kill -9', () => {
  it('resumes after the restart and loses or doubles nothing', async () => {
    server = await runServer({ env: env() });
    const kb = await call('POST', '/v1/knowledge-bases', { name: 'orchard' });
    expect(kb.status).toBe(201);
    const source = await call('POST', '/v1/sources', { type: 'web', knowledge_base_id: kb.body.id, config: { start_url: `${siteUrl}/docs/`, max_depth: 1 } });
    expect(source.status).toBe(201);

    // Kill it once about a third of the pages were fetched.
    await until('a third of the pages', async () => pagesFetched().length, (n) => n >= PAGES / 3, 60_000);
    await server.stop('SIGKILL');
    const beforeKill = pagesFetched().length;
    expect(beforeKill).toBeLessThan(PAGES);

    server = await runServer({ env: env() });
    const runs = await until(
      'the sync to complete',
      async () => (await call('GET', `/v1/sources/${source.body.id}/runs`)).body,
      (body) => body.items[0]?.status === 'completed' || body.items[0]?.status === 'failed',
      120_000,
    );
    expect(runs.total).toBe(1);
    expect(runs.items[0]).toMatchObject({ status: 'completed', counts: { added: PAGES + 1, updated: 0, unchanged: 0, deleted: 0, failed: 0, skipped: 0 }, items_total: PAGES + 1 });

    // Each page once in the knowledge base and once among the files.
    const docs = await call('GET', `/v1/knowledge-bases/${kb.body.id}/documents?limit=100`);
    expect(docs.body.total).toBe(PAGES + 1);
    const urls = docs.body.items.map((d: { source_item: { url: string } }) => d.source_item.url);
    expect(new Set(urls).size).toBe(PAGES + 1);
    const files = await call('GET', '/v1/files?limit=100');
    expect(files.body.total).toBe(PAGES + 1);
    // Pages done before the kill were not fetched again: at most the batch under way was.
    const again = pagesFetched().filter(([, n]) => n > 1).length;
    expect(again).toBeLessThanOrEqual(10);
    expect(pagesFetched()).toHaveLength(PAGES);
  }, 300_000);
});
