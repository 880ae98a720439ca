import path from 'node:path';
import { getConfig } from '@/lib/config';
import { LocalStorage } from './local';
import type { Storage } from './types';

export * from './types';
export { LocalStorage } from './local';

const globalForStorage = globalThis as unknown as { __quarryStorage?: Storage };

/** The process-wide storage backend (local disk under the data directory). */
export function getStorage(): Storage {
  if (!globalForStorage.__quarryStorage) {
    globalForStorage.__quarryStorage = new LocalStorage(path.join(getConfig().dataDir, 'files'));
  }
  return globalForStorage.__quarryStorage;
}

export function setStorage(storage: Storage | undefined): void {
  globalForStorage.__quarryStorage = storage;
}
