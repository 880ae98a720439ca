import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '@/test/support/receiver';
import { ensureBuild } from '@/scripts/lib/ensure-build.mjs';
import { runServer, type RunningServer } from '@/scripts/lib/run-server.mjs';

/**
 * Webhook delivery by the production server in real time: a receiver that fails the first
 * attempt gets the second one about a minute later, even though the server was killed and
 * started again during the wait.
 */
const ADMIN = 'sk_test_webhookserveradministrator000001';
const SECRET = 'server-webhook-secret-0123456789';
const auth = { authorization: `Bearer ${ADMIN}` };

let dataDir: string;
let server: RunningServer | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const env = () => ({ QUARRY_ADMIN_KEY: ADMIN, QUARRY_DATA_DIR: dataDir, DATABASE_URL: '', QUARRY_WEBHOOK_ALLOW_INSECURE: 'true' });

async function call(base: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  ensureBuild({ quiet: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-webhook-server-'));
  receiver = await startReceiver([{ status: 500, body: 'not yet' }, { status: 200, body: 'ok' }]);
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('webhook delivery by the server', () => {
  it('retries a minute after a failure, across a kill -9 and restart during the wait', async () => {
    server = await runServer({ env: env() });
    const hook = await call(server.baseUrl, 'POST', '/v1/webhooks', { url: receiver.url, events: ['knowledge_base.created'], secret: SECRET });
    expect(hook.status).toBe(201);
    const kb = await call(server.baseUrl, 'POST', '/v1/knowledge-bases', { name: 'announced' });
    expect(kb.status).toBe(201);

    await waitFor('the first attempt', () => receiver.received.length >= 1, 15_000);
    const firstAt = Date.now();
    const first = receiver.received[0];
    expect(first.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(first.body).digest('hex')}`);
    const envelope = JSON.parse(first.body.toString());
    expect(envelope).toMatchObject({ type: 'knowledge_base.created', data: { kb_id: kb.body.id } });

    // Give the server a moment to record the attempt, then kill it in the middle of the wait.
    await new Promise((r) => setTimeout(r, 2_000));
    await server.stop('SIGKILL');
    server = await runServer({ env: env() });

    await waitFor('the second attempt', () => receiver.received.length >= 2, 90_000);
    const gap = Date.now() - firstAt;
    expect(gap).toBeGreaterThan(55_000);
    expect(gap).toBeLessThan(75_000);
    expect(receiver.received[1].body.equals(first.body)).toBe(true);
    expect(receiver.received[1].headers['x-service-delivery']).toBe(first.headers['x-service-delivery']);

    // Nothing else arrives, and the history tells the story.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(receiver.received).toHaveLength(2);
    const deliveries = await call(server.baseUrl, 'GET', `/v1/webhooks/${hook.body.id}/deliveries`);
    expect(deliveries.body.items[0]).toMatchObject({ status: 'succeeded', attempt_count: 2, last_response_status: 200 });
    const detail = await call(server.baseUrl, 'GET', `/v1/webhooks/${hook.body.id}/deliveries/${deliveries.body.items[0].id}`);
    expect(detail.body.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([500, 200]);
    expect(detail.body.attempts[0].response_excerpt).toBe('not yet');
  }, 240_000);
});
