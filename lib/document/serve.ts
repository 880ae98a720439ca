/**
 * The document as it is stored and served: every block's source lines (which only the layout
 * record needs) replaced by their bounding box, rounded like the layout record's positions, and
 * the blocks' spans in the Markdown (render.ts) set where they are given.
 */
import { unionBox } from './layout';
import type { Block, Box, ListItem, Paragraph, Provenance, QuarryDocument, Span } from './types';

type Spans = ReadonlyMap<Block | ListItem, Span>;

function round(v: number): number {
  return Math.round(Math.min(1, Math.max(0, v)) * 10000) / 10000;
}

function servedProv(prov: Provenance | undefined, span: Span | undefined): Provenance | undefined {
  if (!prov && !span) return undefined;
  const { lines, ...rest } = prov ?? {};
  const out: Provenance = { ...rest };
  if (span) out.span = span;
  // A table continued over pages: its region is that of its lines on its own page.
  const boxes = (lines ?? [])
    .filter((l) => l.page === undefined || l.page === rest.page)
    .map((l) => l.box)
    .filter((b) => b.every(Number.isFinite));
  if (boxes.length && !out.bbox) out.bbox = unionBox(boxes).map(round) as Box;
  return out;
}

function servedItem(item: ListItem, spans: Spans): ListItem {
  const out: ListItem = { ...item, content: item.content.map((b) => servedBlock(b, spans)) };
  const prov = servedProv(item.prov, spans.get(item));
  if (prov) out.prov = prov;
  else delete out.prov;
  return out;
}

function servedBlock(block: Block, spans: Spans): Block {
  const prov = servedProv(block.prov, spans.get(block));
  const out = { ...block } as Block;
  if (prov) out.prov = prov;
  else delete out.prov;
  switch (out.type) {
    case 'list':
      out.items = out.items.map((item) => servedItem(item, spans));
      break;
    case 'table':
      if (out.row_prov) out.row_prov = out.row_prov.map((r) => (r.bbox ? { page: r.page, bbox: r.bbox.map(round) as Box } : { page: r.page }));
      break;
    case 'quote':
    case 'footnote':
      out.content = out.content.map((b) => servedBlock(b, spans));
      break;
    case 'section':
      out.content = out.content.map((b) => servedBlock(b, spans));
      // Furniture is served like content (bounding boxes), without spans: it is not in the Markdown.
      if (out.furniture) out.furniture = out.furniture.map((p) => servedBlock(p, spans) as Paragraph);
      break;
  }
  return out;
}

/** `spans`: where the renderer wrote each block (a reader that serves its own text sets `prov.span` itself). */
export function servedDocument(doc: QuarryDocument, spans: Spans = new Map()): QuarryDocument {
  return { version: doc.version, metadata: doc.metadata, blocks: doc.blocks.map((b) => servedBlock(b, spans)) };
}

function withoutSpan<T extends { prov?: Provenance }>(node: T): T {
  if (!node.prov?.span) return node;
  const { span: _span, ...prov } = node.prov;
  const out = { ...node };
  if (Object.keys(prov).length) out.prov = prov;
  else delete out.prov;
  return out;
}

function blockWithoutSpans(block: Block): Block {
  const out = withoutSpan(block);
  switch (out.type) {
    case 'list':
      return { ...out, items: out.items.map((item) => ({ ...withoutSpan(item), content: item.content.map(blockWithoutSpans) })) };
    case 'quote':
    case 'footnote':
    case 'section':
      return { ...out, content: out.content.map(blockWithoutSpans) };
    default:
      return out;
  }
}

/** The document without its blocks' spans: for Markdown that was changed after it was written (the spans would not fit it). */
export function withoutSpans(doc: QuarryDocument): QuarryDocument {
  return { ...doc, blocks: doc.blocks.map(blockWithoutSpans) };
}
