import { unionBox, type ExtractionLayout, type LayoutLine } from '@/lib/document/layout';
import type { ExtractionMode, ExtractionRow, ExtractionStatus } from '@/lib/db/schema';

interface ExtractionBase {
  id: string;
  file_id: string;
  status: ExtractionStatus;
  mode: ExtractionMode;
  created_at: string;
}

/** The API shape of an extraction task; which fields appear depends on its status. */
export type ExtractionView = ExtractionBase &
  (
    | { progress: number }
    | { markdown: string; total_pages: number; metadata: Record<string, unknown>; completed_at: string | null }
    | { error: { code: string; message: string }; completed_at: string | null }
  );

/** The answer to a new task: it is pending. */
export interface CreatedExtractionView extends Omit<ExtractionBase, 'status'> {
  status: 'pending';
}

export function toExtractionView(row: ExtractionRow): ExtractionView {
  const base = { id: row.id, file_id: row.fileId, status: row.status, mode: row.mode };
  const createdAt = row.createdAt.toISOString();
  switch (row.status) {
    case 'processing':
      return { ...base, progress: row.progress, created_at: createdAt };
    case 'completed':
      return {
        ...base,
        markdown: row.markdown ?? '',
        total_pages: row.totalPages ?? 0,
        metadata: row.metadata ?? {},
        created_at: createdAt,
        completed_at: row.completedAt?.toISOString() ?? null,
      };
    case 'failed':
      return {
        ...base,
        error: { code: row.errorCode ?? 'INTERNAL_ERROR', message: row.errorMessage ?? 'The extraction failed' },
        created_at: createdAt,
        completed_at: row.completedAt?.toISOString() ?? null,
      };
    default:
      return { ...base, progress: 0, created_at: createdAt };
  }
}

/** A span of the Markdown and the page region (fractions, origin top-left) that prints it. */
export interface LayoutRegion {
  char_start: number;
  char_end: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The API shape of an extraction's layout: blocks with their region and their lines. */
export interface ExtractionLayoutView {
  extraction_id: string;
  pages: { page: number; blocks: (LayoutRegion & { lines: LayoutRegion[] })[] }[];
}

function region(line: LayoutLine): LayoutRegion {
  const [char_start, char_end, x0, y0, x1, y1] = line;
  return { char_start, char_end, x0, y0, x1, y1 };
}

export function toLayoutView(id: string, layout: ExtractionLayout | null): ExtractionLayoutView {
  const pages = (layout?.pages ?? []).map((p) => ({
    page: p.page,
    blocks: p.blocks
      .filter((lines) => lines.length > 0)
      .map((lines) => {
        const [x0, y0, x1, y1] = unionBox(lines.map((l) => [l[2], l[3], l[4], l[5]]));
        return { char_start: lines[0][0], char_end: lines[lines.length - 1][1], x0, y0, x1, y1, lines: lines.map(region) };
      }),
  }));
  return { extraction_id: id, pages };
}
