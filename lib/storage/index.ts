import path from 'node:path';
import { getConfig } from '@/lib/config';
import { LocalStorage } from './local';
import { parseS3Url, S3Storage } from './s3';
import type { Storage } from './types';

export * from './types';
export { LocalStorage } from './local';
export { parseS3Url, S3Storage } from './s3';

const globalForStorage = globalThis as unknown as { __quarryStorage?: Storage };

/** The backend the configuration names: a bucket for QUARRY_STORAGE_URL, else the data directory. */
export function storageFromConfig(): Storage {
  const { dataDir, storage } = getConfig();
  const location = storage.url ? parseS3Url(storage.url) : null;
  if (location) return new S3Storage({ ...location, forcePathStyle: storage.forcePathStyle });
  return new LocalStorage(path.join(dataDir, 'files'));
}

/** The process-wide storage backend. */
export function getStorage(): Storage {
  globalForStorage.__quarryStorage ??= storageFromConfig();
  return globalForStorage.__quarryStorage;
}

export function setStorage(storage: Storage | undefined): void {
  globalForStorage.__quarryStorage = storage;
}
