import { requireScope } from '@/lib/auth/scopes';
import type { ServiceContext } from '@/lib/context';
import { checkExtractable, insertExtraction } from '@/lib/extraction/service';
import type { ExtractionMode, ExtractionOptions } from '@/lib/extraction/types';
import { checkFileIdShape, getFileRow } from '@/lib/files/service';
import { addDocument, type AddDocumentInput } from '@/lib/knowledge-bases/add-document';

/** An extraction to start: the mode and options of POST /v1/extractions. */
export interface ExtractRequest {
  mode: ExtractionMode;
  options: ExtractionOptions;
}

export interface AddDocumentRequest extends AddDocumentInput {
  /** For a file never extracted: start this extraction; the document waits for it. */
  extract?: ExtractRequest;
}

/**
 * POST /v1/knowledge-bases/{kb_id}/documents: adds the file (see addDocument for which extraction
 * is indexed) and, with `extract`, starts an extraction in the same transaction when the file has
 * none, which needs the caller to hold extractions:write as well.
 */
export async function addDocumentToKnowledgeBase(ctx: ServiceContext, kbId: string, request: AddDocumentRequest) {
  const { extract, ...input } = request;
  if (!extract) return addDocument(ctx, kbId, input);
  requireScope(ctx.principal?.scopes, 'extractions:write', 'starting an extraction ("extract")');
  checkFileIdShape(input.file_id);
  const file = await getFileRow(ctx, input.file_id);
  return addDocument(ctx, kbId, input, async (tx, fileId) => {
    // Only a file that has no extraction at all gets here: its format decides whether one can start.
    checkExtractable(file, extract);
    return (await insertExtraction(tx, ctx, fileId, extract)).id;
  });
}
