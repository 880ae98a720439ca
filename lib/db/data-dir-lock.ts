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

/**
 * On Linux the lock is a listening socket in the abstract namespace named after the data directory:
 * binding is atomic and the kernel releases it when the process dies, even on kill -9,
 * so a crashed server never leaves a stale lock behind.
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
      writeHolder(holderFile);
      resolve({
        release: () =>
          new Promise<void>((done) => {
            fs.rmSync(holderFile, { force: true });
            server.close(() => done());
          }),
      });
    });
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Elsewhere: an exclusive lock file holding the owner's pid, taken over only when that process is gone. */
function acquirePidFile(dataDir: string, holderFile: string): DataDirLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(holderFile, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() }));
      fs.closeSync(fd);
      return { release: async () => fs.rmSync(holderFile, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let info: HolderInfo | undefined;
      try {
        info = JSON.parse(fs.readFileSync(holderFile, 'utf8')) as HolderInfo;
      } catch {
        info = undefined;
      }
      if (info && info.hostname === os.hostname() && info.pid !== process.pid && processAlive(info.pid)) {
        throw new DataDirLockedError(dataDir, readHolder(holderFile));
      }
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
