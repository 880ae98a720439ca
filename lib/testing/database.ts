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
  const { default: postgres } = await import('postgres');
  const name = `quarry_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
