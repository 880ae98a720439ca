import { closeDatabase } from '@/lib/db/client';
import { getExtractionPool } from '@/lib/extraction/pool';
import { getIndexingThreads } from '@/lib/knowledge-bases/preparer';
import { startWorkflowEngine, stopWorkflowEngine } from './workflows';
import { ensureReady } from './startup';

export async function startQuarry(): Promise<void> {
  try {
    const handle = await ensureReady();
    await startWorkflowEngine(handle);
  } catch (err) {
    console.error(`Quarry could not start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  // An extraction worker started and warmed up now serves the first document at full speed.
  void getExtractionPool().prestart();
  // The server calls this on SIGTERM/SIGINT: stop taking work, stop extractions and indexing
  // (their runs are retried at the next start), close the database.
  (globalThis as { __quarryShutdown?: () => Promise<void> }).__quarryShutdown = async () => {
    await getExtractionPool().close();
    await getIndexingThreads().close();
    await stopWorkflowEngine();
    await closeDatabase();
  };
}
