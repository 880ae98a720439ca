import { desc, eq } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import { paginate, type Page } from '@/lib/db/paginate';
import { extractions, type ExtractionMode, type ExtractionStatus } from '@/lib/db/schema';
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
