import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/lib/db/client';
import { acquireDataDirLock, DataDirLockedError, HOLDER_STALE_MS, type DataDirLock } from '@/lib/db/data-dir-lock';

const ROOT = path.resolve(__dirname, '..');
let tmp = '';
let script = '';
const children: ChildProcess[] = [];
const locks: DataDirLock[] = [];

/**
 * The other process: `hold <dir>` takes the lock and waits until killed; `try <dir>` takes and
 * releases it; `open <dir>` opens the embedded database. Each prints one line saying what happened.
 */
const CHILD_SCRIPT = `
const [mode, dir] = process.argv.slice(2);
const report = (err) => { console.log('error ' + err.name + ': ' + err.message); process.exit(3); };
if (mode === 'hold' || mode === 'try') {
  const { acquireDataDirLock } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'lib/db/data-dir-lock.ts')).href)});
  try {
    const lock = await acquireDataDirLock(dir);
    console.log('locked ' + process.pid);
    if (mode === 'hold') setInterval(() => {}, 60_000);
    else { await lock.release(); process.exit(0); }
  } catch (err) { report(err); }
} else if (mode === 'open') {
  const { openDatabase } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'lib/db/client.ts')).href)});
  try {
    const handle = await openDatabase({ dataDir: dir });
    console.log('opened ' + process.pid);
    await handle.close();
    process.exit(0);
  } catch (err) { report(err); }
}
`;

interface Child {
  proc: ChildProcess;
  /** The first line the child printed. */
  line: Promise<string>;
  exited: Promise<number | null>;
}

function startChild(mode: 'hold' | 'try' | 'open', dir: string): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, mode, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const line = new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    proc.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    void exited.then((code) => reject(new Error(`child exited (${code}) without output; stderr: ${err}`)));
  });
  line.catch(() => undefined);
  return { proc, line, exited };
}

async function holdInChild(dir: string): Promise<Child> {
  const child = startChild('hold', dir);
  expect(await child.line).toBe(`locked ${child.proc.pid}`);
  return child;
}

async function killHard(child: Child): Promise<void> {
  child.proc.kill('SIGKILL');
  await child.exited;
}

function newDir(name: string): string {
  return fs.mkdtempSync(path.join(tmp, `${name}-`));
}

async function lockedError(dir: string): Promise<DataDirLockedError> {
  const err = await acquireDataDirLock(dir).then(
    (lock) => {
      locks.push(lock);
      return null;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DataDirLockedError);
  return err as DataDirLockedError;
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-lock-test-'));
  script = path.join(tmp, 'child.mts');
  fs.writeFileSync(script, CHILD_SCRIPT);
});

afterEach(async () => {
  for (const proc of children.splice(0)) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  for (const lock of locks.splice(0)) await lock.release();
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('acquireDataDirLock', () => {
  it('refuses a directory another process holds, naming its pid; after kill -9 the lock is free at once', async () => {
    const dir = newDir('held');
    const child = await holdInChild(dir);

    const err = await lockedError(dir);
    expect(err.name).toBe('DataDirLockedError');
    expect(err.message).toContain(`pid ${child.proc.pid} on ${os.hostname()}`);
    expect(err.message).toContain(fs.realpathSync(dir));
    expect(err.dataDir).toBe(fs.realpathSync(dir));

    await killHard(child);
    const started = Date.now();
    const lock = await acquireDataDirLock(dir);
    locks.push(lock);
    expect(Date.now() - started).toBeLessThan(1_000);
    // The stale holder record of the killed process was replaced by ours.
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'quarry.lock'), 'utf8')).pid).toBe(process.pid);
  });

  it('is exclusive within one process too, and release() lets the next acquire succeed', async () => {
    const dir = newDir('release');
    const lock = await acquireDataDirLock(dir);
    const again = await lockedError(dir);
    expect(again.message).toContain(`pid ${process.pid}`);

    const refused = startChild('try', dir);
    expect(await refused.line).toMatch(new RegExp(`^error DataDirLockedError: Another Quarry process \\(pid ${process.pid} `));
    expect(await refused.exited).toBe(3);

    await lock.release();
    expect(fs.existsSync(path.join(dir, 'quarry.lock'))).toBe(false);
    const taken = startChild('try', dir);
    expect(await taken.line).toBe(`locked ${taken.proc.pid}`);
    expect(await taken.exited).toBe(0);

    const mine = await acquireDataDirLock(dir);
    locks.push(mine);
  });

  it('locks different directories independently, and the same directory through any path spelling', async () => {
    const one = newDir('one');
    const two = newDir('two');
    await holdInChild(one);

    const lockTwo = await acquireDataDirLock(two);
    locks.push(lockTwo);
    await lockedError(one);

    // A symlink and a non-normalised path reach the same directory, hence the same lock.
    const link = path.join(tmp, `link-${path.basename(one)}`);
    fs.symlinkSync(one, link);
    await lockedError(link);
    await lockedError(`${one}/./`);

    // And the child cannot take the directory this process holds.
    const refused = startChild('try', two);
    expect(await refused.line).toContain('DataDirLockedError');
  });

  it('refuses while a holder on another host keeps its heartbeat fresh, and takes over once it stops', async () => {
    const dir = newDir('foreign');
    const holder = path.join(fs.realpathSync(dir), 'quarry.lock');
    fs.writeFileSync(holder, JSON.stringify({ pid: 4242, hostname: 'other-container', startedAt: new Date().toISOString() }));
    const err = await acquireDataDirLock(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect((err as Error).message).toContain('pid 4242 on other-container');

    const stale = new Date(Date.now() - HOLDER_STALE_MS - 1000);
    fs.utimesSync(holder, stale, stale);
    const lock = await acquireDataDirLock(dir);
    locks.push(lock);
    expect(JSON.parse(fs.readFileSync(holder, 'utf8'))).toMatchObject({ pid: process.pid, hostname: os.hostname() });
  });

  it('creates a data directory that does not exist yet', async () => {
    const dir = path.join(newDir('fresh'), 'nested', 'data');
    const lock = await acquireDataDirLock(dir);
    locks.push(lock);
    expect(fs.statSync(dir).isDirectory()).toBe(true);
  });
});

describe('openDatabase on a data directory', () => {
  it('opens the embedded database once; a second process gets the clear locked message', { timeout: 120_000 }, async () => {
    const dir = newDir('pglite');
    const handle = await openDatabase({ dataDir: dir });
    try {
      await handle.ping();
      const second = startChild('open', dir);
      const line = await second.line;
      expect(line).toContain('error DataDirLockedError: ');
      expect(line).toContain(`Another Quarry process (pid ${process.pid} on ${os.hostname()}`);
      expect(line).toContain(`already using the data directory ${fs.realpathSync(dir)}`);
      expect(line).toContain('DATABASE_URL');
      expect(await second.exited).toBe(3);
      // The first handle is unaffected.
      await handle.ping();
    } finally {
      await handle.close();
    }
    // Closing the database releases the lock.
    const lock = await acquireDataDirLock(dir);
    locks.push(lock);
  });
});
