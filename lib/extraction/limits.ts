/**
 * The limits of the extraction task being run: the worker's memory cap, the moment the task's
 * time runs out, and the pixel budget of images. The worker sets them once per task
 * (`withExtractionLimits`) and they follow the task's async calls, so the code that starts a
 * program or decodes an image deep inside an extractor applies the task's own limits without
 * every layer passing them on. Outside a task (tests, scripts) the configured values apply.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { getConfig } from '@/lib/config';
import { ExtractionError } from './types';

export interface ExtractionLimits {
  /** Memory cap of the worker, also the address-space limit of every program it starts. */
  memoryMb: number;
  /** Epoch milliseconds at which the task's time limit is reached. */
  deadline: number;
  /** Most pixels one image, TIFF page or rendered PDF page may have. */
  maxImagePixels: number;
}

const current = new AsyncLocalStorage<ExtractionLimits>();

export function withExtractionLimits<T>(limits: ExtractionLimits, fn: () => T): T {
  return current.run(limits, fn);
}

export function extractionLimits(): ExtractionLimits {
  const limits = current.getStore();
  if (limits) return limits;
  const { extraction } = getConfig();
  return { memoryMb: extraction.memoryMb, deadline: Date.now() + extraction.timeoutMs, maxImagePixels: extraction.maxImagePixels };
}

export function memoryLimitError(what: string, memoryMb: number): ExtractionError {
  return new ExtractionError(
    'RESOURCE_LIMIT_EXCEEDED',
    `${what} needed more than the limit of ${memoryMb} MB of memory and was stopped`,
  );
}

export function timeLimitError(what: string): ExtractionError {
  return new ExtractionError('EXTRACTION_TIMEOUT', `${what} was still running when the extraction's time limit ran out and was stopped`);
}

const megapixels = (pixels: number) => `${Number((pixels / 1e6).toFixed(1)).toLocaleString('en-US')} megapixels`;

/**
 * Refuses an image (`what`: "The image", "Page 3 of the image", …) whose pixel count exceeds the
 * budget, before anything decodes it: a file of a few kilobytes can declare a canvas that takes
 * gigabytes once decoded.
 */
export function checkPixelBudget(what: string, width: number, height: number, budget = extractionLimits().maxImagePixels): void {
  const pixels = width * height;
  if (pixels <= budget) return;
  throw new ExtractionError(
    'RESOURCE_LIMIT_EXCEEDED',
    `${what} is ${width} × ${height} pixels (${megapixels(pixels)}); at most ${megapixels(budget)} ` +
      `(${budget.toLocaleString('en-US')} pixels) per image or page can be read`,
  );
}
