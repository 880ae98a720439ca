import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as eventsRoute from '@/app/v1/events/route';
import * as filesRoute from '@/app/v1/files/route';
import * as deliveryRoute from '@/app/v1/webhooks/[webhook_id]/deliveries/[delivery_id]/route';
import * as redeliverRoute from '@/app/v1/webhooks/[webhook_id]/deliveries/[delivery_id]/redeliver/route';
import * as deliveriesRoute from '@/app/v1/webhooks/[webhook_id]/deliveries/route';
import * as webhookRoute from '@/app/v1/webhooks/[webhook_id]/route';
import * as testRoute from '@/app/v1/webhooks/[webhook_id]/test/route';
import * as webhooksRoute from '@/app/v1/webhooks/route';
import { resetConfig } from '@/lib/config';
import { webhookDeliveries, webhooks } from '@/lib/db/schema';
import { useTestApp } from '@/test/support/app';
import { formWith } from '@/test/support/fixtures';
import { startReceiver } from '@/test/support/receiver';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, setWebhookLookup } from '@/lib/webhooks/delivery';
import { EmbeddedRunner } from '@/lib/workflows/embedded';
import { WORKFLOWS } from '@/lib/ops/workflows';

const app = useTestApp({ QUARRY_WEBHOOK_ALLOW_INSECURE: 'true' });
const SECRET = 'whsec-test-secret-0123456789';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** A clock the test moves by hand, starting now (runs are queued at the real time). */
function manualClock() {
  let now = Date.now();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

function runner(clock = manualClock()) {
  return new EmbeddedRunner({ db: app.db, workflows: WORKFLOWS, now: clock.now, pollMs: 50 });
}

async function createHook(body: Record<string, unknown>) {
  const res = await app.call(webhooksRoute.POST, { method: 'POST', path: '/v1/webhooks', body: { secret: SECRET, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function upload(name = 'hello.txt') {
  const res = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith(name, Buffer.from('hello webhooks')) });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const patch = (id: string, body: Record<string, unknown>) =>
  app.call(webhookRoute.PATCH, { method: 'PATCH', path: `/v1/webhooks/${id}`, params: { webhook_id: id }, body });
const deliveriesOf = async (id: string, qs = '') =>
  (await app.call(deliveriesRoute.GET, { path: `/v1/webhooks/${id}/deliveries${qs}`, params: { webhook_id: id } })).body;
const deliveryDetail = async (id: string, deliveryId: string) =>
  (await app.call(deliveryRoute.GET, { path: `/v1/webhooks/${id}/deliveries/${deliveryId}`, params: { webhook_id: id, delivery_id: deliveryId } })).body;

/** Disables every webhook, so earlier tests' hooks do not receive later tests' events. */
async function quiet() {
  await app.db.update(webhooks).set({ enabled: false });
}

describe('webhook endpoints', () => {
  it('creates a webhook enabled, never returning the secret, which is stored encrypted', async () => {
    const res = await app.call(webhooksRoute.POST, {
      method: 'POST',
      path: '/v1/webhooks',
      body: { url: receiver.url, events: ['extraction.completed', 'document.indexed', 'extraction.completed'], secret: SECRET },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'enabled', 'events', 'id', 'url']);
    expect(res.body).toMatchObject({ url: receiver.url, events: ['extraction.completed', 'document.indexed'], enabled: true });
    expect(res.body.id).toMatch(/^wh_/);
    expect(res.text).not.toContain(SECRET);
    const [row] = await app.db.select().from(webhooks).where(eq(webhooks.id, res.body.id));
    expect(row.secretCiphertext).not.toContain(SECRET);
    expect(row.secretCiphertext).toMatch(/^v1\./);

    const detail = await app.call(webhookRoute.GET, { path: `/v1/webhooks/${res.body.id}`, params: { webhook_id: res.body.id } });
    expect(detail.body).toMatchObject({ id: res.body.id, last_delivery_at: null });
    expect(detail.text).not.toContain(SECRET);
    const list = await app.call(webhooksRoute.GET, { path: '/v1/webhooks' });
    expect(list.body.total).toBeGreaterThanOrEqual(1);
    expect(Object.keys(list.body.items[0]).sort()).toEqual(['created_at', 'enabled', 'events', 'id', 'recent_failures', 'url']);
    expect(list.text).not.toContain(SECRET);
    await quiet();
  });

  it('validates url, events and secret', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ events: ['*'], secret: SECRET }, 'url'],
      [{ url: 'not a url', events: ['*'], secret: SECRET }, 'url'],
      [{ url: 'ftp://example.com/x', events: ['*'], secret: SECRET }, 'url'],
      [{ url: 'https://user:pw@example.com/x', events: ['*'], secret: SECRET }, 'url'],
      [{ url: receiver.url, secret: SECRET }, 'events'],
      [{ url: receiver.url, events: [], secret: SECRET }, 'events'],
      [{ url: receiver.url, events: ['file.renamed'], secret: SECRET }, 'events.0'],
      [{ url: receiver.url, events: ['*'] }, 'secret'],
      [{ url: receiver.url, events: ['*'], secret: 'short' }, 'secret'],
    ];
    for (const [body, field] of cases) {
      const res = await app.call(webhooksRoute.POST, { method: 'POST', path: '/v1/webhooks', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
    }
  });

  it('requires https and public hosts unless insecure mode is on', async () => {
    process.env.QUARRY_WEBHOOK_ALLOW_INSECURE = 'false';
    resetConfig();
    try {
      for (const url of ['http://example.com/hook', 'https://127.0.0.1/hook', 'https://localhost/hook', 'https://10.1.2.3/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://[fd00::1]/x', 'https://metadata.internal/x']) {
        const res = await app.call(webhooksRoute.POST, { method: 'POST', path: '/v1/webhooks', body: { url, events: ['*'], secret: SECRET } });
        expect(res.status, url).toBe(400);
        expect(res.body.error.details.field).toBe('url');
      }
      const ok = await app.call(webhooksRoute.POST, {
        method: 'POST',
        path: '/v1/webhooks',
        body: { url: 'https://hooks.example.com/quarry', events: ['*'], secret: SECRET },
      });
      expect(ok.status).toBe(201);
      await quiet();
    } finally {
      process.env.QUARRY_WEBHOOK_ALLOW_INSECURE = 'true';
      resetConfig();
    }
  });

  it('updates events, enabled, url and secret; 404 WEBHOOK_NOT_FOUND for unknown ids', async () => {
    const id = await createHook({ url: receiver.url, events: ['file.uploaded'] });
    const res = await patch(id, { events: ['file.deleted', '*'], enabled: false, url: `${receiver.url}?v=2`, secret: 'another-secret-0123456789' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, events: ['*'], enabled: false, url: `${receiver.url}?v=2` });
    expect((await patch(id, { events: ['nope'] })).status).toBe(400);
    expect((await patch(id, { enabled: 'yes' })).status).toBe(400);
    const missing = 'wh_01jd0000000000000000000000';
    for (const r of [
      await app.call(webhookRoute.GET, { path: `/v1/webhooks/${missing}`, params: { webhook_id: missing } }),
      await patch(missing, { enabled: true }),
      await app.call(webhookRoute.DELETE, { method: 'DELETE', path: `/v1/webhooks/${missing}`, params: { webhook_id: missing } }),
      await app.call(deliveriesRoute.GET, { path: `/v1/webhooks/${missing}/deliveries`, params: { webhook_id: missing } }),
    ]) {
      expect([r.status, r.body.error.code]).toEqual([404, 'WEBHOOK_NOT_FOUND']);
    }
  });
});

describe('deliveries', () => {
  it('POSTs the event envelope with both signatures, byte for byte', async () => {
    await quiet();
    receiver.received.length = 0;
    receiver.reply([{ status: 204 }]);
    const id = await createHook({ url: receiver.url, events: ['file.uploaded'] });
    const fileId = await upload('signed.txt');
    const before = Math.floor(Date.now() / 1000);
    await runner().drain();
    expect(receiver.received).toHaveLength(1);
    const [req] = receiver.received;
    const raw = req.body.toString('utf8');
    const body = JSON.parse(raw);
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(body).toMatchObject({ type: 'file.uploaded', data: { file_id: fileId, filename: 'signed.txt' } });
    expect(body.id).toMatch(/^evt_/);
    const logged = (await app.call(eventsRoute.GET, { path: '/v1/events?type=file.uploaded&limit=100' })).body.items.find(
      (e: { id: string }) => e.id === body.id,
    );
    expect(logged).toEqual(body);

    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(req.body).digest('hex')}`);
    expect(req.headers['x-service-event']).toBe('file.uploaded');
    const deliveries = await deliveriesOf(id);
    expect(deliveries.total).toBe(1);
    expect(req.headers['x-service-delivery']).toBe(deliveries.items[0].id);
    expect(deliveries.items[0].id).toMatch(/^del_/);
    expect(req.headers['webhook-id']).toBe(body.id);
    const ts = Number(req.headers['webhook-timestamp']);
    expect(ts).toBeGreaterThanOrEqual(before - 1);
    expect(ts).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const expected = createHmac('sha256', SECRET).update(`${body.id}.${ts}.${raw}`).digest('base64');
    expect(req.headers['webhook-signature']).toBe(`v1,${expected}`);

    expect(deliveries.items[0]).toMatchObject({ status: 'succeeded', attempt_count: 1, last_response_status: 204, event_type: 'file.uploaded' });
    const hook = (await app.call(webhookRoute.GET, { path: `/v1/webhooks/${id}`, params: { webhook_id: id } })).body;
    expect(hook.last_delivery_at).not.toBeNull();
    await quiet();
  });

  it('delivers only subscribed types; "*" receives everything; a disabled webhook nothing', async () => {
    await quiet();
    receiver.received.length = 0;
    receiver.reply([{ status: 200 }]);
    const deletedOnly = await createHook({ url: `${receiver.url}?hook=deleted`, events: ['file.deleted'] });
    const all = await createHook({ url: `${receiver.url}?hook=all`, events: ['*'] });
    const off = await createHook({ url: `${receiver.url}?hook=off`, events: ['*'] });
    await patch(off, { enabled: false });
    await upload();
    await runner().drain();
    expect(receiver.received.map((r) => r.url)).toEqual(['/hook?hook=all']);
    expect((await deliveriesOf(deletedOnly)).total).toBe(0);
    expect((await deliveriesOf(all)).total).toBe(1);
    expect((await deliveriesOf(off)).total).toBe(0);
    await quiet();
  });

  it('retries on the schedule 1 min, 5 min, 30 min, 2 h, then marks the delivery failed', async () => {
    await quiet();
    receiver.received.length = 0;
    receiver.reply([{ status: 500, body: 'x'.repeat(5000) }]);
    const id = await createHook({ url: receiver.url, events: ['file.uploaded'] });
    await upload();
    const clock = manualClock();
    const r = runner(clock);
    await r.drain();
    expect(receiver.received).toHaveLength(1);
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      clock.advance(delay - 1000);
      await r.drain();
      expect(receiver.received, `before retry ${i + 2}`).toHaveLength(i + 1);
      clock.advance(1000);
      await r.drain();
      expect(receiver.received, `retry ${i + 2}`).toHaveLength(i + 2);
    }
    clock.advance(24 * 60 * 60 * 1000);
    await r.drain();
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    // The same bytes every time.
    expect(new Set(receiver.received.map((q) => q.body.toString('base64'))).size).toBe(1);
    const [item] = (await deliveriesOf(id)).items;
    expect(item).toMatchObject({ status: 'failed', attempt_count: 5, last_response_status: 500, next_attempt_at: null });
    const detail = await deliveryDetail(id, item.id);
    expect(detail.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4, 5]);
    for (const a of detail.attempts) {
      expect(a).toMatchObject({ response_status: 500, error: 'HTTP 500' });
      expect(Buffer.byteLength(a.response_excerpt)).toBe(1024);
      expect(a.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(detail.payload).toMatchObject({ type: 'file.uploaded' });
    await quiet();
  });

  it('a receiver that fails once gets the second attempt a minute later, across a restart', async () => {
    await quiet();
    receiver.received.length = 0;
    receiver.reply([{ status: 503 }, { status: 200 }]);
    const id = await createHook({ url: receiver.url, events: ['file.uploaded'] });
    await upload();
    const clock = manualClock();
    await runner(clock).drain();
    expect(receiver.received).toHaveLength(1);
    const [pending] = (await deliveriesOf(id)).items;
    expect(pending).toMatchObject({ status: 'pending', attempt_count: 1, last_response_status: 503 });
    expect(Date.parse(pending.next_attempt_at) - Date.now()).toBeGreaterThan(55_000);

    // A new runner, as after a restart during the wait: the attempt comes when due, once.
    const restarted = runner(clock);
    clock.advance(30_000);
    await restarted.drain();
    expect(receiver.received).toHaveLength(1);
    clock.advance(30_000);
    await restarted.drain();
    await runner(clock).drain();
    expect(receiver.received).toHaveLength(2);
    expect((await deliveriesOf(id)).items[0]).toMatchObject({ status: 'succeeded', attempt_count: 2, last_response_status: 200 });
    await quiet();
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    await quiet();
    receiver.received.length = 0;
    receiver.reply([{ status: 302, headers: { location: `${receiver.url}?moved=1` } }]);
    const id = await createHook({ url: receiver.url, events: ['file.uploaded'] });
    await upload();
    await runner().drain();
    expect(receiver.received.map((r) => r.url)).toEqual(['/hook']);
    const [item] = (await deliveriesOf(id)).items;
    expect(item).toMatchObject({ status: 'pending', last_response_status: 302 });
    expect(item.last_error).toMatch(/Redirect \(302\) not followed/);
    await quiet();
  });

  it('disabling stops pending retries; deleting removes the history', async () => {
    await quiet();
    receiver.received.length = 0;
    receiver.reply([{ status: 500 }]);
    const id = await createHook({ url: receiver.url, events: ['file.uploaded'] });
    await upload();
    const clock = manualClock();
    await runner(clock).drain();
    expect(receiver.received).toHaveLength(1);
    await patch(id, { enabled: false });
    const [item] = (await deliveriesOf(id)).items;
    expect(item.status).toBe('cancelled');
    clock.advance(60 * 60 * 1000);
    await runner(clock).drain();
    expect(receiver.received).toHaveLength(1);
    await upload();
    await runner(clock).drain();
    expect(receiver.received).toHaveLength(1);

    const del = await app.call(webhookRoute.DELETE, { method: 'DELETE', path: `/v1/webhooks/${id}`, params: { webhook_id: id } });
    expect(del.status).toBe(204);
    expect(await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id))).toEqual([]);
  });

  it('redelivers a delivery as a new one with the same bytes', async () => {
    await quiet();
    receiver.received.length = 0;
    receiver.reply([{ status: 200 }]);
    const id = await createHook({ url: receiver.url, events: ['file.uploaded'] });
    await upload();
    await runner().drain();
    const [first] = (await deliveriesOf(id)).items;
    const res = await app.call(redeliverRoute.POST, {
      method: 'POST',
      path: `/v1/webhooks/${id}/deliveries/${first.id}/redeliver`,
      params: { webhook_id: id, delivery_id: first.id },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', redelivery_of: first.id, event_id: first.event_id });
    expect(res.body.id).not.toBe(first.id);
    await runner().drain();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].body.equals(receiver.received[0].body)).toBe(true);
    expect(receiver.received[1].headers['x-service-delivery']).toBe(res.body.id);
    expect((await deliveriesOf(id, '?status=succeeded')).total).toBe(2);
    const missing = await app.call(deliveryRoute.GET, {
      path: `/v1/webhooks/${id}/deliveries/del_01jd0000000000000000000000`,
      params: { webhook_id: id, delivery_id: 'del_01jd0000000000000000000000' },
    });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'DELIVERY_NOT_FOUND']);
    await quiet();
  });

  it('sends a signed test event on request', async () => {
    await quiet();
    receiver.received.length = 0;
    receiver.reply([{ status: 200, body: 'thanks' }]);
    const id = await createHook({ url: receiver.url, events: ['file.deleted'] });
    const res = await app.call(testRoute.POST, { method: 'POST', path: `/v1/webhooks/${id}/test`, params: { webhook_id: id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'succeeded', event_type: 'webhook.test', attempts: [{ number: 1, response_status: 200, response_excerpt: 'thanks' }] });
    expect(receiver.received).toHaveLength(1);
    const [req] = receiver.received;
    expect(req.headers['x-service-event']).toBe('webhook.test');
    expect(req.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(req.body).digest('hex')}`);
    expect(JSON.parse(req.body.toString()).data).toMatchObject({ webhook_id: id });
    await quiet();
  });
});

describe('SSRF guard', () => {
  async function withSecureMode<T>(fn: () => Promise<T>): Promise<T> {
    process.env.QUARRY_WEBHOOK_ALLOW_INSECURE = 'false';
    resetConfig();
    try {
      return await fn();
    } finally {
      process.env.QUARRY_WEBHOOK_ALLOW_INSECURE = 'true';
      resetConfig();
      setWebhookLookup(undefined);
    }
  }

  it('refuses, at every attempt, a host that resolves to a private or metadata address', async () => {
    await quiet();
    await withSecureMode(async () => {
      const id = await createHook({ url: 'https://hooks.example.com/quarry', events: ['file.uploaded'] });
      for (const address of ['127.0.0.1', '10.0.0.5', '169.254.169.254', '::1', 'fd00:ec2::254', '::ffff:192.168.1.1']) {
        let lookups = 0;
        setWebhookLookup(async () => {
          lookups++;
          return [{ address, family: address.includes(':') ? 6 : 4 }];
        });
        await upload();
        await runner().drain();
        const [item] = (await deliveriesOf(id)).items;
        expect(item.last_error, address).toMatch(/not a public address/);
        expect(item.last_response_status).toBeNull();
        expect(lookups).toBe(1);
      }
      // Every answer is checked, not only the first.
      setWebhookLookup(async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]);
      await upload();
      await runner().drain();
      expect((await deliveriesOf(id)).items[0].last_error).toMatch(/127\.0\.0\.1/);
    });
    await quiet();
  });

  it('connects to the address it checked (a rebinding DNS cannot move the connection)', async () => {
    await quiet();
    receiver.received.length = 0;
    receiver.reply([{ status: 200 }]);
    // Insecure mode lets the loopback receiver stand in for a public host; the name itself does
    // not resolve anywhere, so the request can only arrive through the pinned address.
    const answers = ['127.0.0.1', '10.9.9.9'];
    let lookups = 0;
    setWebhookLookup(async () => [{ address: answers[Math.min(lookups++, 1)], family: 4 }]);
    try {
      const id = await createHook({ url: `http://receiver.quarry.test:${receiver.port}/pinned`, events: ['file.uploaded'] });
      await upload();
      await runner().drain();
      expect(lookups).toBe(1);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0].headers.host).toBe(`receiver.quarry.test:${receiver.port}`);
      expect((await deliveriesOf(id)).items[0].status).toBe('succeeded');
    } finally {
      setWebhookLookup(undefined);
    }
    await quiet();
  });
});
