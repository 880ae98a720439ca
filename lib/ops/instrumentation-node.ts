import { closeDatabase } from '@/lib/db/client';
import { ensureReady } from './startup';

export async function startQuarry(): Promise<void> {
  try {
    await ensureReady();
  } catch (err) {
    console.error(`Quarry could not start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  // The server calls this on SIGTERM/SIGINT so the embedded database is closed cleanly.
  (globalThis as { __quarryShutdown?: () => Promise<void> }).__quarryShutdown = closeDatabase;
}
