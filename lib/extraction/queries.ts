import { count, desc, eq } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import { extractions } from '@/lib/db/schema';
import { getFileRow } from '@/lib/files/service';

export interface ExtractionListItem {
  id: string;
  status: string;
  mode: string;
  total_pages: number | null;
  created_at: string;
}

/** The extraction tasks of one file, newest first. */
export async function listFileExtractions(
  ctx: ServiceContext,
  fileId: string,
  page: { limit: number; offset: number },
): Promise<{ items: ExtractionListItem[]; total: number }> {
  await getFileRow(ctx, fileId);
  const where = eq(extractions.fileId, fileId);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        id: extractions.id,
        status: extractions.status,
        mode: extractions.mode,
        totalPages: extractions.totalPages,
        createdAt: extractions.createdAt,
      })
      .from(extractions)
      .where(where)
      .orderBy(desc(extractions.createdAt), desc(extractions.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ total: count() }).from(extractions).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      status: r.status,
      mode: r.mode,
      total_pages: r.totalPages,
      created_at: r.createdAt.toISOString(),
    })),
    total,
  };
}
