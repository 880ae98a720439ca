import { bootstrapAdminKey } from '@/lib/auth/api-keys';
import { getConfig } from '@/lib/config';
import { getDatabase, type DatabaseHandle } from '@/lib/db/client';
import { sweepScratchDirs } from '@/lib/extraction/scratch';
import { getStorage } from '@/lib/storage';
import { ensureConfiguredAdmin } from '@/lib/users/service';
import { checkSharedSecrets } from './secrets';

const globalForStartup = globalThis as unknown as { __quarryReady?: Promise<DatabaseHandle> };

function printBootstrapKey(key: string): void {
  const line = '='.repeat(72);
  console.log(
    [
      line,
      'Quarry created an administrator API key for this new installation.',
      'It is shown only now; store it somewhere safe:',
      '',
      `    ${key}`,
      '',
      'Use it as "Authorization: Bearer <key>" to create further keys (POST /v1/api-keys).',
      line,
    ].join('\n'),
  );
}

async function start(): Promise<DatabaseHandle> {
  const config = getConfig();
  const handle = await getDatabase();
  // Replicas share one PostgreSQL database; the embedded database belongs to one process.
  if (handle.kind === 'postgres') await checkSharedSecrets(handle.db);
  if (!config.adminKey) {
    const key = await bootstrapAdminKey(handle.db, config.keyEnv);
    if (key) printBootstrapKey(key);
  }
  await ensureConfiguredAdmin(handle.db, config.console.adminEmail, config.console.adminPassword);
  // Scratch copies of extraction tasks whose process was killed (their own cleanup never ran).
  await sweepScratchDirs(config.extraction.timeoutMs * 2).catch(() => 0);
  // Uploads a crash left half-staged; on a bucket, also multipart uploads left open.
  await getStorage()
    .sweepStaging()
    .catch((err) => console.error(`Sweeping staged uploads failed: ${err instanceof Error ? err.message : err}`));
  return handle;
}

/**
 * Opens and migrates the database and runs one-time start-up work. Called by the server at start
 * (instrumentation) and awaited by every request, so no request runs against an unmigrated database.
 */
export function ensureReady(): Promise<DatabaseHandle> {
  if (!globalForStartup.__quarryReady) {
    const starting = start();
    starting.catch(() => {
      if (globalForStartup.__quarryReady === starting) globalForStartup.__quarryReady = undefined;
    });
    globalForStartup.__quarryReady = starting;
  }
  return globalForStartup.__quarryReady;
}

export function resetReady(): void {
  globalForStartup.__quarryReady = undefined;
}
