import fs from 'node:fs';
import path from 'node:path';

/**
 * The extraction child runs as one plain JavaScript file: the worker entry and Quarry's own
 * modules bundled by esbuild, packages left as imports. Bundling takes well under a second and is
 * redone when a source file is newer than the bundle, so a fresh child starts in plain Node
 * without a TypeScript loader. The file lives under the project so its package imports resolve.
 */
const SOURCE_DIRS = ['lib'];

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function workerBundlePath(root = process.cwd()): string {
  return path.join(root, '.quarry', 'extraction-worker.mjs');
}

async function build(root: string, outfile: string): Promise<void> {
  const esbuild = await import('esbuild');
  const tmp = `${outfile}.${process.pid}.tmp`;
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'lib', 'extraction', 'worker-entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.json'),
    outfile: tmp,
    logLevel: 'silent',
  });
  fs.renameSync(tmp, outfile);
}

const globalForBundle = globalThis as unknown as { __quarryWorkerBundle?: Promise<string> };

/** The bundled worker entry, built or rebuilt when needed (once per process). */
export function ensureWorkerBundle(root = process.cwd()): Promise<string> {
  globalForBundle.__quarryWorkerBundle ??= (async () => {
    const outfile = workerBundlePath(root);
    const built = fs.statSync(outfile, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    const sources = Math.max(...SOURCE_DIRS.map((d) => newestMtime(path.join(root, d))), newestMtime(path.join(root, 'tsconfig.json')));
    if (built < sources) {
      fs.mkdirSync(path.dirname(outfile), { recursive: true });
      await build(root, outfile);
    }
    return outfile;
  })();
  const pending = globalForBundle.__quarryWorkerBundle;
  pending.catch(() => {
    if (globalForBundle.__quarryWorkerBundle === pending) globalForBundle.__quarryWorkerBundle = undefined;
  });
  return pending;
}
