import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { settings } from '@/lib/db/schema';

export interface MaintenanceState {
  enabled: boolean;
  message: string | null;
  updated_at: string | null;
}

const KEY = 'maintenance';
/** Other processes see a change within this many milliseconds; the process that made it sees it at once. */
const CACHE_MS = 2_000;
const DEFAULT_MESSAGE = 'The service is undergoing maintenance; please try again shortly.';

const cache = globalThis as unknown as { __quarryMaintenance?: { state: MaintenanceState; at: number } };

export async function getMaintenance(db: Db, opts: { fresh?: boolean } = {}): Promise<MaintenanceState> {
  const now = Date.now();
  const hit = cache.__quarryMaintenance;
  if (!opts.fresh && hit && now - hit.at < CACHE_MS) return hit.state;
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY)).limit(1);
  const value = (row?.value ?? {}) as Partial<MaintenanceState>;
  const state: MaintenanceState = {
    enabled: value.enabled === true,
    message: value.message ?? null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
  cache.__quarryMaintenance = { state, at: now };
  return state;
}

export async function setMaintenance(db: Db, input: { enabled: boolean; message?: string | null }): Promise<MaintenanceState> {
  const now = new Date();
  const value = { enabled: input.enabled, message: input.message ?? null };
  await db
    .insert(settings)
    .values({ key: KEY, value, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
  const state: MaintenanceState = { ...value, updated_at: now.toISOString() };
  cache.__quarryMaintenance = { state, at: Date.now() };
  return state;
}

export function maintenanceMessage(state: MaintenanceState): string {
  return state.message && state.message.trim() !== '' ? state.message : DEFAULT_MESSAGE;
}

export function clearMaintenanceCache(): void {
  cache.__quarryMaintenance = undefined;
}
