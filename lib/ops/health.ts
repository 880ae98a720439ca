import type { ServiceContext } from '@/lib/context';
import { getDatabase } from '@/lib/db/client';
import { VERSION } from '@/lib/version';
import { and, count, eq, lte, min } from 'drizzle-orm';
import { workflowRuns } from '@/lib/db/schema';
import { workflowMode } from './workflows';
import { getMaintenance } from './maintenance';

const PROBE_TIMEOUT_MS = 5_000;

interface ComponentHealth {
  status: 'healthy' | 'unhealthy';
  latency_ms: number;
  error?: string;
}

async function probe(fn: () => Promise<void>): Promise<ComponentHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { status: 'healthy', latency_ms: Math.round((performance.now() - started) * 10) / 10 };
  } catch (err) {
    return {
      status: 'unhealthy',
      latency_ms: Math.round((performance.now() - started) * 10) / 10,
      error: err instanceof Error ? err.message : String(err),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The background pipeline: where workflows run, how many runs are due and waiting for a free
 * slot, how many are running, and how long the oldest due run has waited. Informational: a
 * backlog does not make the service unhealthy.
 */
async function pipelineHealth(ctx: ServiceContext) {
  const started = performance.now();
  const now = new Date();
  try {
    const [[due], [running]] = await Promise.all([
      ctx.db
        .select({ n: count(), oldest: min(workflowRuns.nextRunAt) })
        .from(workflowRuns)
        .where(and(eq(workflowRuns.status, 'queued'), lte(workflowRuns.nextRunAt, now))),
      ctx.db.select({ n: count() }).from(workflowRuns).where(eq(workflowRuns.status, 'running')),
    ]);
    const oldest = due.oldest ? new Date(due.oldest) : null;
    return {
      status: 'healthy' as const,
      latency_ms: Math.round((performance.now() - started) * 10) / 10,
      kind: workflowMode(),
      queued: Number(due.n),
      running: Number(running.n),
      oldest_wait_s: oldest ? Math.max(0, Math.round((now.getTime() - oldest.getTime()) / 1000)) : 0,
    };
  } catch (err) {
    return {
      status: 'unhealthy' as const,
      latency_ms: Math.round((performance.now() - started) * 10) / 10,
      kind: workflowMode(),
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

export function basicHealth() {
  return { status: 'healthy' as const, version: VERSION };
}

/** Really queries the database and writes, reads and deletes an object in storage. */
export async function detailedHealth(ctx: ServiceContext) {
  const database = await getDatabase();
  const storage = ctx.storage;
  const [db, store, pipeline, maintenance] = await Promise.all([
    probe(() => database.ping()),
    probe(() => storage.probe()),
    pipelineHealth(ctx),
    // With the database down the maintenance flag cannot be read; the report still goes out.
    getMaintenance(ctx.db).catch(() => ({ enabled: false, message: null })),
  ]);
  const healthy = db.status === 'healthy' && store.status === 'healthy';
  return {
    status: healthy ? ('healthy' as const) : ('unhealthy' as const),
    version: VERSION,
    maintenance: { enabled: maintenance.enabled, message: maintenance.message },
    components: {
      database: { ...db, kind: database.kind },
      storage: { ...store, kind: storage.kind },
      pipeline,
    },
  };
}
