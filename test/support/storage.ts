/** Storage for tests: the local data directory, or the suite's bucket under a prefix of the test's own. */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { inject } from 'vitest';
import { LocalStorage, parseS3Url, S3Storage, type Storage } from '@/lib/storage';

/**
 * Variables giving a Quarry process (in-process app or spawned server) its own storage: on the
 * suite's bucket (QUARRY_TEST_STORAGE=s3) a fresh prefix; otherwise nothing (the data directory).
 */
export function testStorageEnv(): Record<string, string> {
  const s3 = inject('s3Env');
  if (!s3) return {};
  return { ...s3, QUARRY_STORAGE_URL: `${s3.QUARRY_STORAGE_URL}/t-${randomUUID()}` };
}

/** The storage a process with these variables and data directory uses, to look inside it. */
export function storageFor(env: Record<string, string | undefined>, dataDir: string): Storage {
  const location = env.QUARRY_STORAGE_URL ? parseS3Url(env.QUARRY_STORAGE_URL) : null;
  if (!location) return new LocalStorage(path.join(dataDir, 'files'));
  return new S3Storage({
    ...location,
    forcePathStyle: true,
    client: {
      endpoint: env.AWS_ENDPOINT_URL_S3,
      region: env.AWS_REGION ?? 'us-east-1',
      credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
    },
  });
}
