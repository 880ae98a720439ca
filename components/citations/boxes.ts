import type { ResponseOf } from '@/lib/api/endpoint';
import type { endpoints } from '@/lib/api/endpoints';
import type { CitationBox } from '@/lib/document/layout';
import type { LayoutRegion } from '@/lib/extraction/views';

/*
 * Where a cited passage sits on the original pages, worked out in the browser from the
 * extraction's layout: the passage is a span [from, to) of the extraction's Markdown, and the
 * layout says which Markdown span every printed line holds. The lines the passage touches are
 * joined into one box per block (paragraph, heading, list item, table), as search results'
 * `boxes` are, so a link needs to carry only the two offsets.
 */

/** GET /v1/extractions/{id}/layout. */
export type ExtractionLayout = ResponseOf<(typeof endpoints)['getExtractionLayout']>;

/** A highlighted region of a page, in fractions of the page (0–1, origin top-left), as chunks' `boxes` hold them. */
export type { CitationBox };

/** The span of the Markdown a search result was taken from (end exclusive). */
export interface PassageSpan {
  from: number;
  to: number;
}

type Region = LayoutRegion;

const overlaps = (r: Region, span: PassageSpan) => r.char_start < span.to && r.char_end > span.from;
const clamp = (n: number) => Math.max(0, Math.min(1, n));

function union(page: number, regions: Region[]): CitationBox {
  return {
    page,
    x0: clamp(Math.min(...regions.map((r) => r.x0))),
    y0: clamp(Math.min(...regions.map((r) => r.y0))),
    x1: clamp(Math.max(...regions.map((r) => r.x1))),
    y1: clamp(Math.max(...regions.map((r) => r.y1))),
  };
}

/**
 * The boxes of a passage: for every block it touches, the region of the lines it touches (the
 * whole block when the block lists no line inside the span, as for a table's cells).
 */
export function citationBoxes(layout: Pick<ExtractionLayout, 'pages'> | undefined, span: PassageSpan | undefined): CitationBox[] {
  if (!layout || !span || span.to <= span.from) return [];
  const boxes: CitationBox[] = [];
  for (const { page, blocks } of layout.pages) {
    for (const block of blocks) {
      if (!overlaps(block, span)) continue;
      const lines = block.lines.filter((line) => overlaps(line, span));
      const box = union(page, lines.length > 0 ? lines : [block]);
      if (box.x1 > box.x0 && box.y1 > box.y0) boxes.push(box);
    }
  }
  return boxes;
}

/** The span asked for by `?from=…&to=…`, when both are offsets and the span is not empty. */
export function requestedSpan(search: string | null | undefined): PassageSpan | undefined {
  const params = new URLSearchParams(search ?? '');
  const raw = [params.get('from'), params.get('to')];
  if (raw.some((v) => v === null || !/^\d+$/.test(v))) return undefined;
  const [from, to] = raw.map(Number) as [number, number];
  return to > from ? { from, to } : undefined;
}
