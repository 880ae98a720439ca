import { and, desc, eq, inArray } from 'drizzle-orm';
import { filesInReach } from '@/lib/auth/reach';
import type { ServiceContext } from '@/lib/context';
import { paginate, type Page } from '@/lib/db/paginate';
import { extractionDocuments, extractions, files, type ExtractionMode, type ExtractionStatus } from '@/lib/db/schema';
import { getFileRow } from '@/lib/files/service';

export interface ExtractionListItem {
  id: string;
  status: ExtractionStatus;
  mode: ExtractionMode;
  total_pages: number | null;
  created_at: string;
}

/** The extraction tasks of one file, newest first. */
export async function listFileExtractions(
  ctx: ServiceContext,
  fileId: string,
  page: { limit: number; offset: number },
): Promise<Page<ExtractionListItem>> {
  await getFileRow(ctx, fileId);
  return paginate(
    ctx.db,
    {
      from: extractions,
      select: {
        id: extractions.id,
        status: extractions.status,
        mode: extractions.mode,
        totalPages: extractions.totalPages,
        createdAt: extractions.createdAt,
      },
      where: eq(extractions.fileId, fileId),
      orderBy: [desc(extractions.createdAt), desc(extractions.id)],
      limit: page.limit,
      offset: page.offset,
    },
    (r) => ({
      id: r.id,
      status: r.status,
      mode: r.mode,
      total_pages: r.totalPages,
      created_at: r.createdAt.toISOString(),
    }),
  );
}

export interface CompletedExtraction {
  id: string;
  file_id: string;
  filename: string;
  total_pages: number | null;
  completed_at: string | null;
}

/** The most recently completed extractions with their files' names (what an agent can open). */
export async function recentCompletedExtractions(ctx: ServiceContext, limit: number): Promise<CompletedExtraction[]> {
  const rows = await ctx.db
    .select({ id: extractions.id, fileId: extractions.fileId, filename: files.filename, totalPages: extractions.totalPages, completedAt: extractions.completedAt })
    .from(extractions)
    .innerJoin(files, eq(files.id, extractions.fileId))
    // A key limited to knowledge bases sees only extractions of its documents' files.
    .where(and(eq(extractions.status, 'completed'), filesInReach(ctx.principal, extractions.fileId)))
    .orderBy(desc(extractions.completedAt), desc(extractions.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, file_id: r.fileId, filename: r.filename, total_pages: r.totalPages, completed_at: r.completedAt?.toISOString() ?? null }));
}

/** Which of these extractions have a stored document model (the ids only: the models are not loaded). */
export async function extractionsWithDocument(ctx: ServiceContext, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db
    .select({ id: extractionDocuments.extractionId })
    .from(extractionDocuments)
    .where(inArray(extractionDocuments.extractionId, ids));
  return new Set(rows.map((r) => r.id));
}
