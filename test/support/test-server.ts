import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '@/scripts/lib/ensure-build.mjs';
import { runServer, type RunningServer } from '@/scripts/lib/run-server.mjs';
import { createScratchDatabase } from '@/test/support/database';
import { testStorageEnv } from '@/test/support/storage';

/**
 * One production server for a test file (the typed client, the MCP server): embedded
 * database and local disk, or TEST_DATABASE_URL's PostgreSQL and QUARRY_TEST_STORAGE's bucket as
 * the rest of the suite. Webhooks may target loopback receivers.
 */
export async function startTestServer(name: string, adminKey: string) {
  ensureBuild({ quiet: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quarry-${name}-`));
  const env: Record<string, string> = {
    QUARRY_ADMIN_KEY: adminKey,
    QUARRY_DATA_DIR: dataDir,
    QUARRY_WEBHOOK_ALLOW_INSECURE: 'true',
    DATABASE_URL: '',
    ...testStorageEnv(),
  };
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  if (process.env.TEST_DATABASE_URL) {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL);
    env.DATABASE_URL = scratch.url;
  }
  let server: RunningServer;
  try {
    server = await runServer({ env });
  } catch (err) {
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    baseUrl: server.baseUrl,
    server,
    async stop() {
      await server.stop();
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
