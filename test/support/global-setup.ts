import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '@/lib/db/client';
import { startS3Server } from './s3-server';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** With QUARRY_TEST_STORAGE=s3: the variables pointing Quarry at the suite's S3-protocol server. */
    s3Env: Record<string, string> | null;
  }
}

/**
 * With QUARRY_TEST_STORAGE=s3 also starts an S3-protocol server and runs every test against it.
 *
 * Migrates one in-memory PGlite database and saves its data directory: each test file starts
 * from that copy instead of running initdb and the migrations again.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-template-'));
  const file = path.join(dir, 'pglite-template.tar');
  const handle = await openDatabase({ dataDir: null });
  const client = (handle.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
  const dump = await client.dumpDataDir('none');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplate', file);
  // The whole suite on a bucket: one S3-protocol server process for every test file (each file
  // keeps its objects under a prefix of its own); servers the tests start inherit the variables.
  const s3 = process.env.QUARRY_TEST_STORAGE === 's3' ? await startS3Server() : null;
  if (s3) Object.assign(process.env, s3.env());
  project.provide('s3Env', s3 ? s3.env() : null);
  return async () => {
    await s3?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
