// Builds the production bundle when it is missing or older than any source file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCES = ['app', 'lib', 'components', 'instrumentation.ts', 'next.config.js', 'package.json', 'tsconfig.json'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function buildIsFresh() {
  const buildId = path.join(ROOT, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return false;
  const built = fs.statSync(buildId).mtimeMs;
  return SOURCES.every((s) => newestMtime(path.join(ROOT, s)) <= built);
}

const LOCK_DIR = path.join(ROOT, '.next-build.lock');

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Runs `fn` holding a lock shared by every process of this checkout (one `next build` at a time). */
function withBuildLock(fn) {
  for (;;) {
    try {
      fs.mkdirSync(LOCK_DIR);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let holder = 0;
      try {
        holder = Number(fs.readFileSync(path.join(LOCK_DIR, 'pid'), 'utf8'));
      } catch {
        holder = 0;
      }
      // A holder that died leaves the directory behind: take it over.
      if (holder && !isAlive(holder)) fs.rmSync(LOCK_DIR, { recursive: true, force: true });
      else sleepSync(500);
    }
  }
  fs.writeFileSync(path.join(LOCK_DIR, 'pid'), String(process.pid));
  try {
    return fn();
  } finally {
    fs.rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

export function ensureBuild({ quiet = false } = {}) {
  if (buildIsFresh()) return;
  withBuildLock(() => {
    // Another process may have built while this one waited.
    if (!buildIsFresh()) build(quiet);
  });
}

function build(quiet) {
  const nextBin = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
  const result = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: ROOT,
    stdio: quiet ? 'pipe' : 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`next build failed:\n${quiet ? `${result.stdout}\n${result.stderr}` : ''}`);
  }
}
