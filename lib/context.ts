import type { Principal } from '@/lib/auth/api-keys';
import type { Db } from '@/lib/db/client';
import { getStorage, type Storage } from '@/lib/storage';

/**
 * What a domain service needs: the database, storage, and who is asking (for audit fields, and for
 * what it may reach: a key limited to knowledge bases, see lib/auth/reach.ts).
 */
export interface ServiceContext {
  db: Db;
  storage: Storage;
  requestId: string | null;
  principal: Principal | null;
}

/** The context of background work (workflows, sweeps): no request, no caller. */
export function backgroundServices(db: Db): ServiceContext {
  return { db, storage: getStorage(), requestId: null, principal: null };
}
