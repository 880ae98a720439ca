import { createHash } from 'node:crypto';
import { InngestTestEngine } from '@inngest/test';
import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { GET, POST } from '@/app/api/inngest/route';
import { inngest } from '@/inngest/client';
import { functions, inngestConcurrency, toInngestFunction } from '@/inngest/functions';
import { InngestRelay } from '@/inngest/relay';
import type { DatabaseHandle } from '@/lib/db/client';
import { workflowRuns } from '@/lib/db/schema';
import { indexingWorkflow } from '@/lib/knowledge-bases/indexing-workflow';
import { vectorIndexWorkflow } from '@/lib/knowledge-bases/vector-index-workflow';
import { startWorkflowEngine, stopWorkflowEngine, workflowMode, WORKFLOWS } from '@/lib/ops/workflows';
import { webhookDeliveryWorkflow } from '@/lib/webhooks/delivery-workflow';
import { enqueueWorkflow, notifyWorkflows } from '@/lib/workflows/dispatch';
import { EmbeddedRunner } from '@/lib/workflows/embedded';
import { defineWorkflow, type StepTools } from '@/lib/workflows/types';
import { useTestApp } from '@/test/support/app';
import { startFakeInngest, type FakeInngest } from '@/test/support/fake-inngest';

const app = useTestApp({ QUARRY_WEBHOOK_CONCURRENCY: '12', QUARRY_INDEXING_CONCURRENCY: '6' });

const EVENT_KEY = 'quarry-test-event-key';
const SIGNING_KEY = `signkey-prod-${'ab12'.repeat(16)}`;
/** What a production replica sets (INNGEST_BASE_URL too when Inngest is self-hosted). */
const PRODUCTION = { INNGEST_EVENT_KEY: EVENT_KEY, INNGEST_SIGNING_KEY: SIGNING_KEY, INNGEST_SERVE_ORIGIN: 'http://quarry-lb.internal:3000' };
const INNGEST_VARS = ['INNGEST_BASE_URL', 'INNGEST_EVENT_KEY', 'INNGEST_SIGNING_KEY', 'INNGEST_DEV', 'INNGEST_SERVE_ORIGIN'] as const;

/** Sets the Inngest variables of this process (the rest unset), for our code and for the SDK's client. */
function inngestEnv(vars: Partial<Record<(typeof INNGEST_VARS)[number], string>>): void {
  const env = Object.fromEntries(INNGEST_VARS.map((k) => [k, vars[k]]));
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  inngest.setEnvVars(env);
}

async function until(check: () => Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function runRow(id: string) {
  const [row] = await app.db.select().from(workflowRuns).where(eq(workflowRuns.id, id));
  return row;
}

let fake: FakeInngest;
beforeAll(async () => {
  fake = await startFakeInngest();
});
afterAll(() => fake.close());
afterEach(async () => {
  await stopWorkflowEngine();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  inngest.setEnvVars(Object.fromEntries(INNGEST_VARS.map((k) => [k, process.env[k]])));
  fake.failSends(200);
});

describe('Inngest functions', () => {
  it('wrap the same workflow code, with Inngest step tools', async () => {
    const order: string[] = [];
    const wf = defineWorkflow({
      name: 'inngest-wrapped',
      event: 'test/inngest-wrapped',
      input: z.object({ name: z.string() }),
      concurrency: () => 2,
      retries: 1,
      async run({ name }, step: StepTools) {
        const greeting = await step.run('greet', async () => {
          order.push('greet');
          return `hello ${name}`;
        });
        await step.sleep('pause', 1000);
        return step.run('shout', async () => greeting.toUpperCase());
      },
    });
    const t = new InngestTestEngine({
      function: toInngestFunction(wf),
      events: [{ name: 'test/inngest-wrapped', data: { name: 'quarry' } }],
      // @inngest/test 1.0 waits forever on a sleep unless it is mocked by id.
      steps: [{ id: 'pause', handler: () => undefined }],
    });
    const { result } = await t.execute();
    expect(result).toBe('HELLO QUARRY');
    expect(order).toEqual(['greet']);
  });

  it('gives every workflow its own function and limit; keyed workflows add a limit per event field', () => {
    expect(inngestConcurrency(webhookDeliveryWorkflow)).toEqual([{ limit: 12 }, { key: 'event.data.webhook_id', limit: 3 }]);
    expect(inngestConcurrency(indexingWorkflow)).toEqual([{ limit: 6 }, { key: 'event.data.kb_id', limit: 5 }]);
    expect(toInngestFunction(webhookDeliveryWorkflow).opts.concurrency).toEqual([{ limit: 12 }, { key: 'event.data.webhook_id', limit: 3 }]);
    // The vector index backlog: one at a time, requests within 2 s of each other served by one run.
    expect(toInngestFunction(vectorIndexWorkflow).opts).toMatchObject({ concurrency: { limit: 1 }, debounce: { period: '2s', timeout: '30s' } });
    expect(toInngestFunction(indexingWorkflow).opts.debounce).toBeUndefined();

    // One function per workflow, none sharing a limit with another (no scope beyond the function).
    expect(functions.map((f) => f.id())).toEqual(WORKFLOWS.map((w) => w.name));
    for (const f of functions) {
      const options = [f.opts.concurrency].flat() as { limit: number; key?: string; scope?: string }[];
      expect(options[0]).toEqual({ limit: expect.any(Number) });
      for (const option of options) expect(option.scope).toBeUndefined();
    }
    const keys = Object.fromEntries(functions.map((f) => [f.id(), ([f.opts.concurrency].flat() as { key?: string }[])[1]?.key ?? null]));
    expect(keys).toMatchObject({ 'deliver-webhook': 'event.data.webhook_id', 'index-document': 'event.data.kb_id', 'extract-document': null });
  });

  it('a per-key limit never exceeds the total and is at least one', () => {
    const small = { ...webhookDeliveryWorkflow, concurrency: () => 1 };
    expect(inngestConcurrency(small)).toEqual([{ limit: 1 }, { key: 'event.data.webhook_id', limit: 1 }]);
    const zero = { ...webhookDeliveryWorkflow, concurrencyKey: { field: 'webhook_id' as const, limit: () => 0 } };
    expect(inngestConcurrency(zero)).toEqual([{ limit: 12 }, { key: 'event.data.webhook_id', limit: 1 }]);
  });

  it('the served functions accept the events the relay sends (@inngest/test)', async () => {
    const byId = new Map(functions.map((f) => [f.id(), f]));
    const delivery = new InngestTestEngine({
      function: byId.get('deliver-webhook')!,
      events: [{ name: webhookDeliveryWorkflow.event, data: { delivery_id: 'del_missing', webhook_id: 'wh_1', run_id: 'run_1' } }],
    });
    expect((await delivery.execute()).result).toEqual({ outcome: 'skipped' });
    const indexing = new InngestTestEngine({
      function: byId.get('index-document')!,
      events: [{ name: indexingWorkflow.event, data: { document_id: 'doc_missing', kb_id: 'kb_1', run_id: 'run_2' } }],
    });
    expect((await indexing.execute()).result).toEqual({ status: 'skipped' });
  });
});

describe('Inngest relay', () => {
  it('sends each queued run as its trigger event, with the run id as event id, and marks it dispatched', async () => {
    inngestEnv({ INNGEST_BASE_URL: fake.origin, INNGEST_EVENT_KEY: EVENT_KEY, INNGEST_SIGNING_KEY: SIGNING_KEY });
    const keyed = await enqueueWorkflow(app.db, webhookDeliveryWorkflow, { delivery_id: 'del_relay1', webhook_id: 'wh_relay' });
    // A run queued before the workflow declared its key: its id stands in for the key.
    const older = await enqueueWorkflow(app.db, webhookDeliveryWorkflow, { delivery_id: 'del_relay2' });
    const relay = new InngestRelay(app.db, WORKFLOWS, 60_000);
    await relay.start();
    await until(async () => (await runRow(keyed)).status === 'dispatched' && (await runRow(older)).status === 'dispatched');
    await relay.stop();

    const sent = fake.events(EVENT_KEY).filter((e) => e.id === keyed || e.id === older);
    expect(sent).toHaveLength(2);
    expect(sent.find((e) => e.id === keyed)).toMatchObject({
      name: 'quarry/webhook.delivery.requested',
      data: { delivery_id: 'del_relay1', webhook_id: 'wh_relay', run_id: keyed },
    });
    expect(sent.find((e) => e.id === older)?.data).toEqual({ delivery_id: 'del_relay2', webhook_id: older, run_id: older });
  });

  it('keeps a run queued when Inngest refuses it, and resends it under the same event id', async () => {
    inngestEnv({ INNGEST_BASE_URL: fake.origin, INNGEST_EVENT_KEY: EVENT_KEY, INNGEST_SIGNING_KEY: SIGNING_KEY });
    fake.failSends(503);
    const id = await enqueueWorkflow(app.db, indexingWorkflow, { document_id: 'doc_relay', kb_id: 'kb_relay' });
    const relay = new InngestRelay(app.db, WORKFLOWS, 60_000);
    await relay.start();
    await until(async () => (await runRow(id)).attempt === 1, 15_000);
    expect(await runRow(id)).toMatchObject({ status: 'queued', attempt: 1, lastError: expect.stringContaining('sending to Inngest failed') });

    fake.failSends(200);
    await app.db.update(workflowRuns).set({ nextRunAt: new Date() }).where(eq(workflowRuns.id, id));
    relay.notify();
    await until(async () => (await runRow(id)).status === 'dispatched');
    await relay.stop();
    const attempts = fake.events(EVENT_KEY).filter((e) => e.id === id);
    expect(attempts.length).toBeGreaterThan(1);
    expect(new Set(attempts.map((e) => e.id))).toEqual(new Set([id]));
  }, 30_000);
});

describe('workflow engine mode', () => {
  it('is Inngest only when Inngest is configured', () => {
    expect(workflowMode({})).toBe('embedded');
    expect(workflowMode({ INNGEST_DEV: '1' })).toBe('inngest');
    expect(workflowMode({ INNGEST_EVENT_KEY: 'k' })).toBe('inngest');
    expect(workflowMode({ INNGEST_BASE_URL: 'http://127.0.0.1:8288' })).toBe('inngest');
  });

  const handle = () => ({ db: app.db, kind: 'postgres', ping: async () => {}, close: async () => {} }) as DatabaseHandle;

  it('with Inngest configured, starts the relay and not the embedded runner', async () => {
    inngestEnv({ ...PRODUCTION, INNGEST_BASE_URL: fake.origin });
    const runnerStart = vi.spyOn(EmbeddedRunner.prototype, 'start');
    const engine = await startWorkflowEngine(handle());
    expect(engine.mode).toBe('inngest');
    expect(runnerStart).not.toHaveBeenCalled();

    const id = await enqueueWorkflow(app.db, webhookDeliveryWorkflow, { delivery_id: 'del_engine', webhook_id: 'wh_engine' });
    notifyWorkflows();
    await until(async () => fake.events(EVENT_KEY).some((e) => e.id === id));
    await until(async () => (await runRow(id)).status === 'dispatched');
    expect((await runRow(id)).leaseOwner).toBeNull(); // no runner here ever claimed it
  });

  it('without Inngest, runs the embedded runner', async () => {
    inngestEnv({});
    const runnerStart = vi.spyOn(EmbeddedRunner.prototype, 'start');
    const engine = await startWorkflowEngine(handle());
    expect(engine.mode).toBe('embedded');
    expect(runnerStart).toHaveBeenCalledTimes(1);
  });

  it('refuses to start in Inngest mode without the keys and the serve origin, naming what is missing', async () => {
    inngestEnv({ INNGEST_BASE_URL: fake.origin });
    await expect(startWorkflowEngine(handle())).rejects.toThrow(/INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_SERVE_ORIGIN are not set/);
    inngestEnv({ INNGEST_BASE_URL: fake.origin, INNGEST_EVENT_KEY: EVENT_KEY, INNGEST_SERVE_ORIGIN: 'http://quarry-lb.internal:3000' });
    await expect(startWorkflowEngine(handle())).rejects.toThrow(/INNGEST_SIGNING_KEY is not set/);
    // The Inngest dev server needs none of them.
    inngestEnv({ INNGEST_DEV: '1', INNGEST_BASE_URL: fake.origin });
    expect((await startWorkflowEngine(handle())).mode).toBe('inngest');
  });
});

describe('/api/inngest', () => {
  const at = (url: string, init?: RequestInit) => new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]);
  /** What Next.js passes route handlers besides the request. */
  const next = { params: Promise.resolve({}) };

  it('does not exist without Inngest', async () => {
    inngestEnv({});
    expect((await GET(at('http://10.0.0.7:3000/api/inngest'), next)).status).toBe(404);
  });

  it('runs nothing for an unsigned call in production, and nothing at all without a signing key', async () => {
    inngestEnv({ INNGEST_BASE_URL: fake.origin, INNGEST_EVENT_KEY: EVENT_KEY, INNGEST_SIGNING_KEY: SIGNING_KEY });
    const call = () =>
      POST(
        at('http://10.0.0.7:3000/api/inngest?fnId=quarry-deliver-webhook&stepId=step', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ event: { name: webhookDeliveryWorkflow.event, data: { delivery_id: 'del_x' } }, events: [], steps: {}, ctx: {} }),
        }),
        next,
      );
    expect((await call()).status).toBe(401);
    inngestEnv({ INNGEST_BASE_URL: fake.origin, INNGEST_EVENT_KEY: EVENT_KEY });
    expect((await call()).status).toBe(500);
  });

  // Last: it loads the modules afresh.
  it('registers with Inngest under INNGEST_SERVE_ORIGIN, signed with the signing key, with the concurrency keys', async () => {
    inngestEnv({ ...PRODUCTION, INNGEST_BASE_URL: fake.origin });
    // The SDK reads where Inngest is when the process starts: load the route as a fresh process would.
    vi.resetModules();
    const route = await import('@/app/api/inngest/route');
    const fresh = await import('@/inngest/functions');
    // The sync reaches one replica under its own address, unsigned, with whatever Host header the
    // caller chose; Inngest must be told the balancer's address all the same.
    const res = await route.PUT(at('http://10.0.0.7:3000/api/inngest', { method: 'PUT', headers: { host: 'attacker.example' } }), next);
    expect(res.status).toBe(200);
    const register = fake.requests.filter((r) => r.url.startsWith('/fn/register')).at(-1)!;
    const hashed = createHash('sha256').update(Buffer.from('ab12'.repeat(16), 'hex')).digest('hex');
    expect(register.headers.authorization).toBe(`Bearer signkey-prod-${hashed}`);
    expect(register.body.url).toBe('http://quarry-lb.internal:3000/api/inngest');
    expect(register.body.appName).toBe('quarry');
    const registered = new Map<string, any>(register.body.functions.map((f: any) => [f.id, f]));
    expect([...registered.keys()].sort()).toEqual(WORKFLOWS.flatMap((w) => [`quarry-${w.name}`, `quarry-${w.name}-failure`]).sort());
    const delivery = registered.get('quarry-deliver-webhook');
    expect(delivery.concurrency).toEqual([{ limit: 12 }, { key: 'event.data.webhook_id', limit: 3 }]);
    expect(delivery.concurrency).toEqual(fresh.functions.find((f) => f.id() === 'deliver-webhook')!.opts.concurrency);
    expect(registered.get('quarry-index-document').concurrency).toEqual([{ limit: 6 }, { key: 'event.data.kb_id', limit: 5 }]);
    expect(registered.get('quarry-extract-document').concurrency).toEqual({ limit: expect.any(Number) });
    expect(delivery.steps.step.runtime.url).toMatch(/^http:\/\/quarry-lb\.internal:3000\/api\/inngest\?fnId=quarry-deliver-webhook/);
  });
});
