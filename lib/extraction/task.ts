import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq, inArray, lt } from 'drizzle-orm';
import { getConfig } from '@/lib/config';
import { makeScratchDir } from './scratch';
import type { ServiceContext } from '@/lib/context';
import { extractionDocuments, extractionLayouts, extractions, files, type ExtractionRow } from '@/lib/db/schema';
import { withoutSpans } from '@/lib/document/serve';
import { recordEvent } from '@/lib/events';
import { storableJson, storableText } from '@/lib/text/clean';
import { getExtractionPool } from './pool';
import { ProgressWriter } from '@/lib/db/pacing';
import { ExtractionError, type ExtractionOptions, type ExtractResult } from './types';

const PROGRESS_WRITE_MS = 500;
/** A short document is done before its first progress would be written: it writes none. */
const FIRST_PROGRESS_MS = 300;
const CANCEL_POLL_MS = 1000;

export type TaskOutcome = { status: 'completed' | 'failed' | 'skipped' };

async function load(ctx: ServiceContext, id: string): Promise<ExtractionRow | undefined> {
  const [row] = await ctx.db.select().from(extractions).where(eq(extractions.id, id)).limit(1);
  return row;
}

/** pending → processing, with its extraction.started event. Returns false when there is nothing to do. */
export async function startExtraction(ctx: ServiceContext, id: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(extractions)
      .set({ status: 'processing', progress: 0, startedAt: now, updatedAt: now })
      .where(and(eq(extractions.id, id), eq(extractions.status, 'pending')))
      .returning();
    if (!row) {
      const [current] = await tx.select({ status: extractions.status }).from(extractions).where(eq(extractions.id, id));
      return current?.status === 'processing'; // resumed after a restart
    }
    await recordEvent(tx, 'extraction.started', { extraction_id: id, file_id: row.fileId, status: 'processing', mode: row.mode }, ctx.requestId);
    return true;
  });
}

/** Ends a task as failed (unless it already ended) and records extraction.failed. */
export async function failExtraction(ctx: ServiceContext, id: string, code: string, message: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(extractions)
      .set({ status: 'failed', errorCode: code, errorMessage: message, completedAt: now, updatedAt: now })
      .where(and(eq(extractions.id, id), inArray(extractions.status, ['pending', 'processing'])))
      .returning();
    if (!row) return false;
    await recordEvent(
      tx,
      'extraction.failed',
      { extraction_id: id, file_id: row.fileId, status: 'failed', error: { code, message } },
      ctx.requestId,
    );
    return true;
  });
}

/** Ends a running task as completed with its result (and its layout and document model, when the format has them). */
export async function completeExtraction(ctx: ServiceContext, id: string, result: ExtractResult): Promise<boolean> {
  const markdown = storableText(result.markdown);
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(extractions)
      .set({
        status: 'completed',
        progress: 100,
        markdown,
        totalPages: result.totalPages,
        metadata: storableJson(result.metadata),
        completedAt: now,
        updatedAt: now,
      })
      .where(and(eq(extractions.id, id), eq(extractions.status, 'processing')))
      .returning({ fileId: extractions.fileId });
    if (!row) return false;
    // Positions are offsets into the Markdown: they only hold for the text exactly as written.
    if (result.layout && markdown.length === result.markdown.length) {
      const layout = result.layout as unknown as Record<string, unknown>;
      await tx
        .insert(extractionLayouts)
        .values({ extractionId: id, layout })
        .onConflictDoUpdate({ target: extractionLayouts.extractionId, set: { layout, createdAt: now } });
    }
    if (result.document) {
      // Text of the document itself: a NUL or a lone surrogate in it must not fail the insert.
      // Its blocks' spans are offsets into the Markdown, like the layout's positions.
      const model = markdown.length === result.markdown.length ? result.document : withoutSpans(result.document);
      const document = storableJson(model) as unknown as Record<string, unknown>;
      await tx
        .insert(extractionDocuments)
        .values({ extractionId: id, document })
        .onConflictDoUpdate({ target: extractionDocuments.extractionId, set: { document, createdAt: now } });
    }
    await recordEvent(
      tx,
      'extraction.completed',
      {
        extraction_id: id,
        file_id: row.fileId,
        status: 'completed',
        total_pages: result.totalPages,
        markdown_length: result.markdown.length,
      },
      ctx.requestId,
    );
    return true;
  });
}

/** A local path with the file's bytes: the stored object itself when on disk, else a copy in `tmpDir`. */
async function localCopy(ctx: ServiceContext, storageKey: string, extension: string, tmpDir: string): Promise<string> {
  const direct = ctx.storage.localPath?.(storageKey);
  if (direct && fs.existsSync(direct)) return direct;
  const target = path.join(tmpDir, `source${extension}`);
  const { stream } = await ctx.storage.read(storageKey);
  await pipeline(stream, fs.createWriteStream(target));
  return target;
}

/**
 * Runs one extraction task in a worker process and records its outcome. Document problems end
 * the task (failed, with a code); anything else is thrown so the workflow retries it.
 * Safe to call again after a crash: a task that already ended is left alone.
 */
export async function runExtractionTask(ctx: ServiceContext, id: string): Promise<TaskOutcome> {
  const row = await load(ctx, id);
  if (!row || row.status === 'completed' || row.status === 'failed') return { status: 'skipped' };
  if (row.cancelRequestedAt) {
    await failExtraction(ctx, id, 'CANCELLED', 'The extraction was cancelled');
    return { status: 'failed' };
  }
  const [file] = await ctx.db.select().from(files).where(eq(files.id, row.fileId)).limit(1);
  if (!file) return { status: 'skipped' }; // the file was deleted, taking the task with it
  if (file.version !== row.fileVersion) {
    // Only the newest version's bytes are kept; the extraction that reads them was started with it.
    await failExtraction(
      ctx,
      id,
      'FILE_CHANGED',
      `The file changed (it is at version ${file.version} now) before this extraction of version ${row.fileVersion} ran; only the newest version is kept`,
    );
    return { status: 'failed' };
  }

  const { extraction: limits } = getConfig();
  const tmpDir = await makeScratchDir();
  const controller = new AbortController();
  const progress = new ProgressWriter(async (percent) => {
    await ctx.db
      .update(extractions)
      .set({ progress: percent, updatedAt: new Date() })
      .where(and(eq(extractions.id, id), eq(extractions.status, 'processing')));
  }, PROGRESS_WRITE_MS, FIRST_PROGRESS_MS);
  const cancelWatch = setInterval(() => {
    load(ctx, id)
      .then((current) => {
        if (!current || current.cancelRequestedAt || current.status !== 'processing') {
          controller.abort(new ExtractionError('CANCELLED', 'The extraction was cancelled'));
        }
      })
      .catch(() => undefined);
  }, CANCEL_POLL_MS);
  cancelWatch.unref();

  try {
    const source = await localCopy(ctx, file.storageKey, file.extension, tmpDir);
    const result = await getExtractionPool().run({
      input: {
        path: source,
        mimeType: file.contentType,
        extension: file.extension,
        mode: row.mode,
        options: row.options as unknown as ExtractionOptions,
        maxPages: limits.maxPages,
        tmpDir,
      },
      onProgress: (done, total) => progress.report(total > 0 ? Math.min(99, Math.floor((done / total) * 100)) : 0),
      signal: controller.signal,
      limits: { timeoutMs: limits.timeoutMs, memoryMb: limits.memoryMb, maxImagePixels: limits.maxImagePixels },
    }).finally(() => progress.stop()); // no progress write after the outcome
    await completeExtraction(ctx, id, result);
    return { status: 'completed' };
  } catch (err) {
    if (err instanceof ExtractionError) {
      await failExtraction(ctx, id, err.code, err.message);
      return { status: 'failed' };
    }
    throw err;
  } finally {
    clearInterval(cancelWatch);
    await progress.stop();
    await fsp.rm(tmpDir, { recursive: true, force: true });
  }
}

/**
 * Ends tasks that have been "processing" without any sign of life for longer than any task may
 * run (the time limit plus a margin): their runner is gone and will not come back, e.g. a run lost
 * outside Quarry. Returns how many were ended.
 */
export async function sweepStaleExtractions(ctx: ServiceContext, now = new Date()): Promise<number> {
  const { timeoutMs } = getConfig().extraction;
  const cutoff = new Date(now.getTime() - timeoutMs - STALE_MARGIN_MS);
  const stale = await ctx.db
    .select({ id: extractions.id })
    .from(extractions)
    .where(and(eq(extractions.status, 'processing'), lt(extractions.updatedAt, cutoff)));
  let ended = 0;
  for (const { id } of stale) {
    if (await failExtraction(ctx, id, 'EXTRACTION_TIMEOUT', 'The extraction stopped making progress and was ended')) ended++;
  }
  return ended;
}

const STALE_MARGIN_MS = 5 * 60 * 1000;
