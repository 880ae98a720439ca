import { ensureReady } from '@/lib/ops/startup';
import { countUsers } from './service';

/** True while no console user exists (the setup page creates the first administrator). */
export async function consoleSetupRequired(): Promise<boolean> {
  const { db } = await ensureReady();
  return (await countUsers(db)) === 0;
}
