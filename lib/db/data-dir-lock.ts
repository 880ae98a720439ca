import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: string,
  ) {
    super(
      `Another Quarry process (${holder}) is already using the data directory ${dataDir}. ` +
        'The embedded database can only be opened by one process at a time: stop the other process, ' +
        'point QUARRY_DATA_DIR at another directory, or set DATABASE_URL to use PostgreSQL.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

interface HolderInfo {
  pid: number;
  hostname: string;
  startedAt: string;
}

function readHolder(file: string): string {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as HolderInfo;
    return `pid ${info.pid} on ${info.hostname}, started ${info.startedAt}`;
  } catch {
    return 'unknown process';
  }
}

function writeHolder(file: string): void {
  const info: HolderInfo = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() };
  fs.writeFileSync(file, JSON.stringify(info));
}

/** The holder rewrites its file's time this often; a file older than HOLDER_STALE_MS is from a dead holder. */
const HEARTBEAT_MS = 5_000;
export const HOLDER_STALE_MS = 20_000;

/**
 * A live holder on another host (a container in its own network namespace sharing the volume)
 * cannot see our abstract socket: its heartbeat file is what tells us it is there.
 */
function foreignLiveHolder(holderFile: string): string | null {
  let stat: fs.Stats;
  let info: HolderInfo;
  try {
    stat = fs.statSync(holderFile);
    info = JSON.parse(fs.readFileSync(holderFile, 'utf8')) as HolderInfo;
  } catch {
    return null;
  }
  if (info.hostname === os.hostname()) return null; // same host: the socket already decided
  if (Date.now() - stat.mtimeMs > HOLDER_STALE_MS) return null;
  return readHolder(holderFile);
}

/**
 * On Linux the lock is a listening socket in the abstract namespace named after the data directory:
 * binding is atomic and the kernel releases it when the process dies, even on kill -9,
 * so a crashed server never leaves a stale lock behind. Hosts that share the directory but not the
 * network namespace are kept apart by the holder file's heartbeat.
 */
function acquireAbstractSocket(dataDir: string, holderFile: string): Promise<DataDirLock> {
  const name = `\0quarry-data-dir-${createHash('sha256').update(dataDir).digest('hex').slice(0, 32)}`;
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new DataDirLockedError(dataDir, readHolder(holderFile)));
      else reject(err);
    });
    server.listen(name, () => {
      server.unref();
      const foreign = foreignLiveHolder(holderFile);
      if (foreign) {
        server.close();
        reject(new DataDirLockedError(dataDir, foreign));
        return;
      }
      writeHolder(holderFile);
      const heartbeat = startHeartbeat(holderFile);
      resolve({
        release: () =>
          new Promise<void>((done) => {
            clearInterval(heartbeat);
            fs.rmSync(holderFile, { force: true });
            server.close(() => done());
          }),
      });
    });
  });
}

/** Whether a process with this id runs on this machine (one we may not signal counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Keeps the holder file's time fresh so other hosts can tell a live holder from a dead one. */
function startHeartbeat(holderFile: string): NodeJS.Timeout {
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      fs.utimesSync(holderFile, now, now);
    } catch {
      writeHolder(holderFile);
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return heartbeat;
}

/**
 * Elsewhere: an exclusive lock file holding the owner's pid and a heartbeat, taken over only when
 * that process is gone (same host) or its heartbeat has stopped (another host).
 */
function acquirePidFile(dataDir: string, holderFile: string): DataDirLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(holderFile, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() }));
      fs.closeSync(fd);
      const heartbeat = startHeartbeat(holderFile);
      return {
        release: async () => {
          clearInterval(heartbeat);
          fs.rmSync(holderFile, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let info: HolderInfo | undefined;
      try {
        info = JSON.parse(fs.readFileSync(holderFile, 'utf8')) as HolderInfo;
      } catch {
        info = undefined;
      }
      const sameHostAlive = info && info.hostname === os.hostname() && info.pid !== process.pid && processAlive(info.pid);
      if (sameHostAlive || foreignLiveHolder(holderFile)) throw new DataDirLockedError(dataDir, readHolder(holderFile));
      fs.rmSync(holderFile, { force: true });
    }
  }
  throw new DataDirLockedError(dataDir, readHolder(holderFile));
}

/** Takes the exclusive lock on an embedded-database data directory, or throws DataDirLockedError. */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const real = fs.realpathSync(dir);
  const holderFile = path.join(real, 'quarry.lock');
  if (process.platform === 'linux') return acquireAbstractSocket(real, holderFile);
  return acquirePidFile(real, holderFile);
}
