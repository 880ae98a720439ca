import { bundlePath, ensureBundle, type BundleSpec } from '@/lib/workers/bundle';

/** The extraction child runs the worker entry as a bundle, so a fresh child starts in plain Node. */
const WORKER: BundleSpec = { name: 'extraction-worker', entry: 'lib/extraction/worker-entry.ts' };

export function workerBundlePath(root = process.cwd()): string {
  return bundlePath(WORKER, root);
}

/** The bundled worker entry, built or rebuilt when needed (checked once per process). */
export function ensureWorkerBundle(root = process.cwd()): Promise<string> {
  return ensureBundle(WORKER, root);
}
