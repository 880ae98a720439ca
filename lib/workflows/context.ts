import type { ServiceContext } from '@/lib/context';
import { ensureReady } from '@/lib/ops/startup';
import { getStorage } from '@/lib/storage';

/** The service context of background work: no request, no caller. */
export async function backgroundContext(): Promise<ServiceContext> {
  const { db } = await ensureReady();
  return { db, storage: getStorage(), requestId: null, principal: null };
}
