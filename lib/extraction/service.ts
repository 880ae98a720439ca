import { and, eq, inArray, sql } from 'drizzle-orm';
import { filesInReach } from '@/lib/auth/reach';
import { ApiError, notFound } from '@/lib/errors';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { isExtractionLayout } from '@/lib/document/layout';
import { extractionDocuments, extractionLayouts, extractions, files, type ExtractionRow } from '@/lib/db/schema';
import type { QuarryDocument } from '@/lib/document/types';
import { checkFileIdShape, getFileRow } from '@/lib/files/service';
import { newId } from '@/lib/ids';
import { enqueueWorkflow, notifyWorkflows } from '@/lib/workflows/dispatch';
import { extractionWorkflow } from './workflow';
import { cloudOcrConfigured, extractionRefusal, isImageType } from './formats';
import { failExtraction } from './task';
import type { ExtractionMode, ExtractionOptions } from './types';
import { toExtractionView, toLayoutView, type CreatedExtractionView, type ExtractionLayoutView, type ExtractionView } from './views';

export interface CreateExtractionInput {
  file_id: string;
  mode: ExtractionMode;
  options: ExtractionOptions;
}

/** Refuses an extraction this file cannot have (format, mode, provider), before anything is stored. */
export function checkExtractable(file: { contentType: string }, input: Pick<CreateExtractionInput, 'mode' | 'options'>): void {
  const refusal = extractionRefusal(file.contentType);
  if (refusal) throw new ApiError('UNSUPPORTED_FORMAT', refusal, { content_type: file.contentType });
  if (input.mode === 'simple' && isImageType(file.contentType)) {
    throw new ApiError('INVALID_REQUEST', 'Images can only be read with OCR, which simple mode does not run; use normal or advanced mode', {
      field: 'mode',
      reason: 'simple mode cannot read images',
    });
  }
  if (input.options.ocr_provider === 'cloud' && !cloudOcrConfigured()) {
    throw new ApiError('INVALID_REQUEST', 'The cloud OCR provider is not configured on this server (set QUARRY_OCR_CLOUD_URL); use "default" or "tesseract"', {
      field: 'options.ocr_provider',
      reason: 'cloud OCR not configured',
    });
  }
}

/**
 * Records a pending extraction of a file and queues its workflow, inside the caller's transaction
 * (call notifyWorkflows() after the commit). Check the file with checkExtractable first.
 */
export async function insertExtraction(
  tx: DbOrTx,
  ctx: ServiceContext,
  fileId: string,
  input: Pick<CreateExtractionInput, 'mode' | 'options'>,
): Promise<ExtractionRow> {
  const now = new Date();
  const [created] = await tx
    .insert(extractions)
    .values({
      id: newId('extraction'),
      fileId,
      status: 'pending',
      // The version read now is the one whose bytes the task will find (see runExtractionTask).
      fileVersion: sql`(select ${files.version} from ${files} where ${files.id} = ${fileId})`,
      mode: input.mode,
      options: { ...input.options },
      createdByKey: ctx.principal?.keyId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await enqueueWorkflow(tx, extractionWorkflow, { extraction_id: created.id }, now);
  return created;
}

export async function createExtraction(ctx: ServiceContext, input: CreateExtractionInput): Promise<CreatedExtractionView> {
  checkFileIdShape(input.file_id);
  const file = await getFileRow(ctx, input.file_id);
  checkExtractable(file, input);
  const row = await ctx.db.transaction((tx) => insertExtraction(tx, ctx, file.id, input));
  notifyWorkflows();
  return { id: row.id, file_id: row.fileId, status: 'pending', mode: row.mode, created_at: row.createdAt.toISOString() };
}

/** The extraction `id` as the caller may see it: for a limited key, only extractions of files it can reach (else 404). */
async function findExtraction(ctx: ServiceContext, id: string): Promise<ExtractionRow> {
  const [row] = await ctx.db.select().from(extractions).where(inReach(ctx, id)).limit(1);
  if (!row) throw notFound('EXTRACTION_NOT_FOUND', 'Extraction', id);
  return row;
}

function inReach(ctx: ServiceContext, id: string) {
  return and(eq(extractions.id, id), filesInReach(ctx.principal, extractions.fileId));
}

export async function getExtraction(ctx: ServiceContext, id: string): Promise<ExtractionView> {
  return toExtractionView(await findExtraction(ctx, id));
}

/** A completed extraction in the caller's reach (status only: the row's Markdown is not loaded), else 404 or 409. */
async function checkCompleted(ctx: ServiceContext, id: string, what: string): Promise<void> {
  const [row] = await ctx.db.select({ status: extractions.status }).from(extractions).where(inReach(ctx, id)).limit(1);
  if (!row) throw notFound('EXTRACTION_NOT_FOUND', 'Extraction', id);
  if (row.status !== 'completed') {
    throw new ApiError('EXTRACTION_NOT_COMPLETED', `Extraction ${id} is ${row.status}; its ${what} is available once it has completed`, {
      status: row.status,
    });
  }
}

/**
 * Where the text of a completed extraction sits on its pages. Formats without positions (and
 * extractions made before positions were kept) answer an empty page list.
 */
export async function getExtractionLayout(ctx: ServiceContext, id: string): Promise<ExtractionLayoutView> {
  await checkCompleted(ctx, id, 'layout');
  const [stored] = await ctx.db.select({ layout: extractionLayouts.layout }).from(extractionLayouts).where(eq(extractionLayouts.extractionId, id));
  return toLayoutView(id, isExtractionLayout(stored?.layout) ? stored.layout : null);
}

export type ExtractionDocumentView = { extraction_id: string } & QuarryDocument;

/**
 * The document model of a completed extraction, as stored beside it. Extractions completed before
 * models were kept have none: 404 DOCUMENT_NOT_AVAILABLE, which running the extraction again cures.
 */
export async function getExtractionDocument(ctx: ServiceContext, id: string): Promise<ExtractionDocumentView> {
  await checkCompleted(ctx, id, 'document model');
  const [stored] = await ctx.db
    .select({ document: extractionDocuments.document })
    .from(extractionDocuments)
    .where(eq(extractionDocuments.extractionId, id));
  if (!stored) {
    throw new ApiError(
      'DOCUMENT_NOT_AVAILABLE',
      `Extraction ${id} has no document model: it was completed before Quarry kept them. Run the extraction again (POST /v1/extractions) to get one`,
      { id },
    );
  }
  return { extraction_id: id, ...(stored.document as unknown as QuarryDocument) };
}

/**
 * Cancels a task that has not ended: a pending one fails at once with CANCELLED; a running one is
 * stopped by its runner (which checks every second) and then fails with CANCELLED.
 */
export async function cancelExtraction(ctx: ServiceContext, id: string): Promise<ExtractionView> {
  const row = await findExtraction(ctx, id);
  if (row.status === 'completed' || row.status === 'failed') {
    throw new ApiError('EXTRACTION_NOT_CANCELLABLE', `Extraction ${id} has already ${row.status === 'completed' ? 'completed' : 'failed'}`, {
      status: row.status,
    });
  }
  await ctx.db
    .update(extractions)
    .set({ cancelRequestedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(extractions.id, id), inArray(extractions.status, ['pending', 'processing'])));
  if (row.status === 'pending') await failExtraction(ctx, id, 'CANCELLED', 'The extraction was cancelled');
  return toExtractionView(await findExtraction(ctx, id));
}
