import { and, desc, eq, inArray } from 'drizzle-orm';
import { refuseLimitedKey } from '@/lib/auth/reach';
import { requireScope } from '@/lib/auth/scopes';
import type { ServiceContext } from '@/lib/context';
import { extractions, type ExtractionRow, type FileRow, type KbDocumentRow } from '@/lib/db/schema';
import { checkExtractable, insertExtraction } from '@/lib/extraction/service';
import { findFileBySha256, insertFile, toFileView, type FileView } from '@/lib/files/service';
import type { ReceivedUpload } from '@/lib/files/upload';
import { newId } from '@/lib/ids';
import { documentConflict, insertDocument } from '@/lib/knowledge-bases/add-document';
import { findKnowledgeBase } from '@/lib/knowledge-bases/service';
import { notifyWorkflows } from '@/lib/workflows/dispatch';
import type { ExtractRequest } from './add-document';

/** What an upload asks for beyond storing the file (the optional parts of POST /v1/files). */
export interface UploadOptions {
  extract?: ExtractRequest;
  knowledgeBaseId?: string;
  documentTitle?: string;
  documentMetadata?: Record<string, unknown>;
  /** Return a stored file with the same content instead of storing a copy. */
  dedupe?: boolean;
}

/** The File object, with what else the upload did: `deduplicated` when dedupe was asked, `extraction` and `document` when started. */
export type UploadResult = FileView & {
  deduplicated?: boolean;
  extraction?: { id: string; status: ExtractionRow['status']; mode: ExtractionRow['mode'] };
  document?: { id: string; kb_id: string; status: KbDocumentRow['status'] };
};

const DEFAULT_EXTRACT: ExtractRequest = {
  mode: 'normal',
  options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
};

/** The latest extraction of a file that has not failed: what a deduplicated upload asking for one reuses. */
async function usableExtraction(ctx: ServiceContext, fileId: string): Promise<ExtractionRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(extractions)
    .where(and(eq(extractions.fileId, fileId), inArray(extractions.status, ['pending', 'processing', 'completed'])))
    .orderBy(desc(extractions.createdAt), desc(extractions.id))
    .limit(1);
  return row;
}

/**
 * POST /v1/files with its optional parts: stores the file (or, with dedupe, finds one with the same
 * content), and in the same transaction starts its extraction and adds it to a knowledge base as
 * a document that waits for the extraction. Everything is checked before anything is stored: an
 * unknown knowledge base, a missing scope or a format that cannot be extracted leave no file.
 * It owns the staged upload from the call on: committed, reused or discarded whatever happens.
 */
export async function ingestUpload(ctx: ServiceContext, upload: ReceivedUpload, options: UploadOptions): Promise<UploadResult> {
  const kbId = options.knowledgeBaseId;
  const extract = options.extract ?? (kbId ? DEFAULT_EXTRACT : undefined);
  let existing: FileRow | undefined;
  try {
    // A key limited to knowledge bases stores files only as documents of them: it could not reach a file stored apart.
    if (!kbId) refuseLimitedKey(ctx.principal, 'upload a file outside its knowledge bases; send knowledge_base_id', { field: 'knowledge_base_id' });
    if (kbId) requireScope(ctx.principal?.scopes, 'kb:write', 'adding the file to a knowledge base ("knowledge_base_id")');
    if (extract) requireScope(ctx.principal?.scopes, 'extractions:write', 'starting an extraction ("extract" or "knowledge_base_id")');
    if (kbId) await findKnowledgeBase(ctx.db, ctx.principal, kbId);
    if (extract) checkExtractable({ contentType: upload.type.mime_type }, extract);
    existing = options.dedupe ? await findFileBySha256(ctx, upload.sha256) : undefined;
  } catch (err) {
    await upload.staged.discard();
    throw err;
  }
  if (existing) await upload.staged.discard();
  const id = existing?.id ?? newId('file');
  if (!existing) await upload.staged.commit(id);
  // A deduplicated file keeps the extraction it has, unless none is usable.
  const reused = existing && extract && !kbId ? await usableExtraction(ctx, existing.id) : undefined;
  try {
    const { file, extraction, document } = await ctx.db.transaction(async (tx) => {
      const file: FileRow = existing ?? (await insertFile(tx, ctx, upload, id));
      let extraction: ExtractionRow | undefined;
      let document: KbDocumentRow | undefined;
      if (kbId) {
        let started: ExtractionRow | undefined;
        const input = { file_id: file.id, title: options.documentTitle, metadata: options.documentMetadata };
        document = await insertDocument(tx, ctx, kbId, file, input, async (t, fileId) => {
          started = await insertExtraction(t, ctx, fileId, extract!);
          return started.id;
        });
        // The extraction the document is indexed from or waits for: new, or one the file had.
        extraction = started ?? (await tx.select().from(extractions).where(eq(extractions.id, document.extractionId)))[0];
      } else if (extract) {
        extraction = reused ?? (await insertExtraction(tx, ctx, file.id, extract));
      }
      return { file, extraction, document };
    });
    notifyWorkflows();
    return {
      ...toFileView(file),
      ...(options.dedupe !== undefined ? { deduplicated: existing !== undefined } : {}),
      ...(extraction ? { extraction: { id: extraction.id, status: extraction.status, mode: extraction.mode } } : {}),
      ...(document ? { document: { id: document.id, kb_id: document.kbId, status: document.status } } : {}),
    };
  } catch (err) {
    if (!existing) await ctx.storage.delete(id);
    throw kbId ? await documentConflict(ctx, err, kbId, id) : err;
  }
}
