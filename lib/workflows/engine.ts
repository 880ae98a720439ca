import type { DatabaseHandle } from '@/lib/db/client';
import { sweepStaleExtractions } from '@/lib/extraction/task';
import { backgroundContext } from './context';
import { setWorkflowNotifier } from './dispatch';
import { EmbeddedRunner } from './embedded';
import { WORKFLOWS } from './registry';

export type WorkflowMode = 'inngest' | 'embedded';

/** Inngest runs the pipelines when it is configured; otherwise they run in this process. */
export function workflowMode(env: Record<string, string | undefined> = process.env): WorkflowMode {
  return env.INNGEST_EVENT_KEY || env.INNGEST_BASE_URL || env.INNGEST_DEV ? 'inngest' : 'embedded';
}

interface Engine {
  mode: WorkflowMode;
  stop(): Promise<void>;
}

const globalForEngine = globalThis as unknown as { __quarryWorkflowEngine?: Promise<Engine> };

const SWEEP_MS = 60_000;

/** Every minute, ends tasks whose runner is gone for good (see sweepStaleExtractions). */
function startSweeper(): () => void {
  const timer = setInterval(() => {
    backgroundContext()
      .then((ctx) => sweepStaleExtractions(ctx))
      .catch((err) => console.error('stale task sweep failed', err));
  }, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Starts the embedded runner or the Inngest relay, and the stale-task sweeper, once per process. */
export function startWorkflowEngine(handle: DatabaseHandle): Promise<Engine> {
  globalForEngine.__quarryWorkflowEngine ??= (async () => {
    const mode = workflowMode();
    const stopSweeper = startSweeper();
    if (mode === 'inngest') {
      const { InngestRelay } = await import('@/inngest/relay');
      const relay = new InngestRelay(handle.db, WORKFLOWS);
      await relay.start();
      setWorkflowNotifier(() => relay.notify());
      return { mode, stop: () => (stopSweeper(), relay.stop()) };
    }
    const runner = new EmbeddedRunner({ db: handle.db, workflows: WORKFLOWS, exclusive: handle.kind === 'pglite' });
    await runner.start();
    setWorkflowNotifier(() => runner.notify());
    return { mode, stop: () => (stopSweeper(), runner.stop()) };
  })();
  return globalForEngine.__quarryWorkflowEngine;
}

export async function stopWorkflowEngine(): Promise<void> {
  const engine = globalForEngine.__quarryWorkflowEngine;
  globalForEngine.__quarryWorkflowEngine = undefined;
  setWorkflowNotifier(undefined);
  if (engine) await (await engine).stop();
}
