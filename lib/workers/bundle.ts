import fs from 'node:fs';
import path from 'node:path';

/**
 * Code run outside the server's main thread starts from one plain JavaScript file: its entry and
 * Quarry's own modules bundled by esbuild, packages left as imports. Under Next.js (and Vitest)
 * the server's modules are not files a worker could load, so the bundle is what a worker thread
 * or child process runs. Bundling takes well under a second and is redone when a source file is
 * newer than the bundle. The file lives under the project so its package imports resolve.
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

export interface BundleSpec {
  /** File name of the bundle under .quarry/, without extension. */
  name: string;
  /** The entry module, relative to the project root. */
  entry: string;
}

export function bundlePath(spec: BundleSpec, root = process.cwd()): string {
  return path.join(root, '.quarry', `${spec.name}.mjs`);
}

async function build(root: string, entry: string, outfile: string): Promise<void> {
  const esbuild = await import('esbuild');
  // Several processes may build at once (test files run in parallel): each writes its own file.
  const tmp = `${outfile}.${process.pid}.tmp`;
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
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

const globalForBundles = globalThis as unknown as { __quarryBundles?: Map<string, Promise<string>> };

/** The bundled entry, built or rebuilt when needed (checked once per process). */
export function ensureBundle(spec: BundleSpec, root = process.cwd()): Promise<string> {
  const bundles = (globalForBundles.__quarryBundles ??= new Map());
  const key = bundlePath(spec, root);
  let pending = bundles.get(key);
  if (!pending) {
    pending = (async () => {
      const built = fs.statSync(key, { throwIfNoEntry: false })?.mtimeMs ?? 0;
      const sources = Math.max(...SOURCE_DIRS.map((d) => newestMtime(path.join(root, d))), newestMtime(path.join(root, 'tsconfig.json')));
      if (built < sources) {
        fs.mkdirSync(path.dirname(key), { recursive: true });
        await build(root, spec.entry, key);
      }
      return key;
    })();
    bundles.set(key, pending);
    const current = pending;
    current.catch(() => {
      if (bundles.get(key) === current) bundles.delete(key);
    });
  }
  return pending;
}
