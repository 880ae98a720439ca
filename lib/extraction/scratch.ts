import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from '@/lib/db/data-dir-lock';

/**
 * Scratch directories of extraction tasks: the source copied from storage (workers need random
 * access) and the programs' temporary files. Each task removes its own; a process killed mid-task
 * cannot, so the next start removes those whose process is gone or that outlived any task.
 */
const PREFIX = 'quarry-extract-';

export function makeScratchDir(root = os.tmpdir()): Promise<string> {
  return fsp.mkdtemp(path.join(root, `${PREFIX}${process.pid}-`));
}

/** Removes scratch directories of dead processes, and any older than `maxAgeMs`; returns how many. */
export async function sweepScratchDirs(maxAgeMs: number, root = os.tmpdir()): Promise<number> {
  const names = await fsp.readdir(root).catch(() => [] as string[]);
  const cutoff = Date.now() - maxAgeMs;
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(root, name);
    const owner = Number(/^(\d+)-/.exec(name.slice(PREFIX.length))?.[1]);
    const stat = await fsp.stat(dir).catch(() => null);
    if (!stat?.isDirectory()) continue;
    const orphaned = Number.isInteger(owner) && owner !== process.pid && !processAlive(owner);
    if (orphaned || stat.mtimeMs < cutoff) {
      await fsp.rm(dir, { recursive: true, force: true });
      if (!fs.existsSync(dir)) removed++;
    }
  }
  return removed;
}
