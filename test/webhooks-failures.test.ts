import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as webhookRoute from '@/app/v1/webhooks/[webhook_id]/route';
import * as testRoute from '@/app/v1/webhooks/[webhook_id]/test/route';
import * as webhooksRoute from '@/app/v1/webhooks/route';
import { webhookDeliveries, type DeliveryStatus } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { RECENT_DELIVERIES } from '@/lib/webhooks/failures';
import { useTestApp } from '@/test/support/app';
import { startReceiver } from '@/test/support/receiver';

/* The list's recent_failures: how many of a webhook's latest deliveries failed in a row. */

const app = useTestApp({ QUARRY_WEBHOOK_ALLOW_INSECURE: 'true' });
const SECRET = 'whsec-failures-secret-0123456789';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** An address on loopback where nothing listens, so every attempt fails to connect. */
let closedUrl: string;

beforeAll(async () => {
  receiver = await startReceiver();
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  closedUrl = `http://127.0.0.1:${port}/hook`;
});
afterAll(async () => {
  await receiver.close();
});

async function createHook(url: string): Promise<string> {
  const res = await app.call(webhooksRoute.POST, { method: 'POST', path: '/v1/webhooks', body: { url, events: ['file.deleted'], secret: SECRET } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function failuresOf(id: string): Promise<number> {
  const res = await app.call(webhooksRoute.GET, { path: '/v1/webhooks?limit=100' });
  expect(res.status, res.text).toBe(200);
  const item = (res.body.items as { id: string; recent_failures: number }[]).find((w) => w.id === id);
  expect(item).toBeDefined();
  return item!.recent_failures;
}

const sendTest = (id: string) => app.call(testRoute.POST, { method: 'POST', path: `/v1/webhooks/${id}/test`, params: { webhook_id: id } });

/** Writes deliveries oldest first, one second apart, as the delivery workflow would have left them. */
async function addDeliveries(webhookId: string, rows: { status: DeliveryStatus; attempts: number }[]) {
  const start = Date.now() - rows.length * 1000;
  await app.db.insert(webhookDeliveries).values(
    rows.map((row, i) => ({
      id: newId('delivery'),
      webhookId,
      eventId: newId('event'),
      eventType: 'file.deleted',
      payload: '{}',
      status: row.status,
      attemptCount: row.attempts,
      createdAt: new Date(start + i * 1000),
    })),
  );
}

describe('recent delivery failures in the webhook list', () => {
  it('is 0 for a new webhook, counts failed sends to a closed port, and returns to 0 after one success', async () => {
    const id = await createHook(closedUrl);
    expect(await failuresOf(id)).toBe(0);
    for (let i = 1; i <= 3; i += 1) {
      const res = await sendTest(id);
      expect(res.body.status).toBe('failed');
      expect(await failuresOf(id)).toBe(i);
    }
    const moved = await app.call(webhookRoute.PATCH, { method: 'PATCH', path: `/v1/webhooks/${id}`, params: { webhook_id: id }, body: { url: receiver.url } });
    expect(moved.status, moved.text).toBe(200);
    expect((await sendTest(id)).body.status).toBe('succeeded');
    expect(await failuresOf(id)).toBe(0);
  });

  it('counts only the failures since the latest success, retries waiting included, and skips cancelled and unattempted deliveries', async () => {
    const id = await createHook(receiver.url);
    await addDeliveries(id, [
      { status: 'failed', attempts: 5 },
      { status: 'succeeded', attempts: 1 },
      { status: 'failed', attempts: 5 },
      { status: 'cancelled', attempts: 2 },
      { status: 'pending', attempts: 2 },
      { status: 'pending', attempts: 0 },
    ]);
    expect(await failuresOf(id)).toBe(2);
  });

  it(`stops counting at ${RECENT_DELIVERIES}, and keeps each webhook's count its own`, async () => {
    const failing = await createHook(receiver.url);
    const healthy = await createHook(receiver.url);
    await addDeliveries(failing, Array.from({ length: RECENT_DELIVERIES + 5 }, () => ({ status: 'failed' as const, attempts: 5 })));
    await addDeliveries(healthy, [
      { status: 'failed', attempts: 5 },
      { status: 'succeeded', attempts: 2 },
    ]);
    expect(await failuresOf(failing)).toBe(RECENT_DELIVERIES);
    expect(await failuresOf(healthy)).toBe(0);
  });
});
