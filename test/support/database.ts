import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { openDatabase, type DatabaseHandle } from '@/lib/db/client';

/**
 * A fresh database for one test file: a copy of the migrated PGlite template, or, when
 * TEST_DATABASE_URL is set, a new PostgreSQL database created on that server and dropped afterwards.
 */
export async function openTestDatabase(pgliteTemplate: string): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const bytes = fs.readFileSync(pgliteTemplate);
    return openDatabase({ dataDir: null, loadDataDir: new Blob([bytes]), skipMigrations: true });
  }
  const scratch = await createScratchDatabase(serverUrl);
  const handle = await openDatabase({ url: scratch.url });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await scratch.drop();
    },
  };
}

/** Creates an empty database on the PostgreSQL server of `serverUrl`; `drop()` removes it. */
export async function createScratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: postgres } = await import('postgres');
  const name = `quarry_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
