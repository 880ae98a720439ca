import type { ServiceContext } from '@/lib/context';
import { getDatabase } from '@/lib/db/client';
import { VERSION } from '@/lib/version';
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

export function basicHealth() {
  return { status: 'healthy' as const, version: VERSION };
}

/** Really queries the database and writes, reads and deletes an object in storage. */
export async function detailedHealth(ctx: ServiceContext) {
  const database = await getDatabase();
  const storage = ctx.storage;
  const [db, store, maintenance] = await Promise.all([
    probe(() => database.ping()),
    probe(() => storage.probe()),
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
    },
  };
}
