import { bundlePath, ensureBundle, type BundleSpec } from '@/lib/workers/bundle';

/** The extraction child runs the worker entry as a bundle, so a fresh child starts in plain Node. */
const WORKER: BundleSpec = { name: 'extraction-worker', entry: 'lib/extraction/worker-entry.ts' };

/**
 * The PDF page threads start from a bundle of their own, beside the worker's (same folder), with
 * only what reading a page range needs.
 */
export const PDF_THREAD: BundleSpec = { name: 'extraction-pdf-thread', entry: 'lib/extraction/pdf/run/thread-entry.ts' };

export function workerBundlePath(root = process.cwd()): string {
  return bundlePath(WORKER, root);
}

export function pdfThreadBundlePath(root = process.cwd()): string {
  return bundlePath(PDF_THREAD, root);
}

/** The bundled worker entry (and the page threads' entry beside it), built or rebuilt when needed (checked once per process). */
export async function ensureWorkerBundle(root = process.cwd()): Promise<string> {
  const [worker] = await Promise.all([ensureBundle(WORKER, root), ensureBundle(PDF_THREAD, root)]);
  return worker;
}
