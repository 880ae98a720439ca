import type { Principal } from '@/lib/auth/api-keys';
import type { Db } from '@/lib/db/client';
import type { Storage } from '@/lib/storage';

/** What a domain service needs: the database, storage, and who is asking (for audit fields). */
export interface ServiceContext {
  db: Db;
  storage: Storage;
  requestId: string | null;
  principal: Principal | null;
}
