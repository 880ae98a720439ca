/**
 * The document as it is stored and served: every block's source lines (which only the layout
 * record needs) replaced by their bounding box, rounded like the layout record's positions.
 */
import { unionBox } from './layout';
import type { Block, Box, ListItem, Provenance, QuarryDocument } from './types';

function round(v: number): number {
  return Math.round(Math.min(1, Math.max(0, v)) * 10000) / 10000;
}

function servedProv(prov: Provenance | undefined): Provenance | undefined {
  if (!prov) return undefined;
  const { lines, ...rest } = prov;
  const out: Provenance = { ...rest };
  const boxes = (lines ?? []).map((l) => l.box).filter((b) => b.every(Number.isFinite));
  if (boxes.length && !out.bbox) out.bbox = unionBox(boxes).map(round) as Box;
  return out;
}

function servedItem(item: ListItem): ListItem {
  const out: ListItem = { ...item, content: item.content.map(servedBlock) };
  const prov = servedProv(item.prov);
  if (prov) out.prov = prov;
  else delete out.prov;
  return out;
}

function servedBlock(block: Block): Block {
  const prov = servedProv(block.prov);
  const out = { ...block } as Block;
  if (prov) out.prov = prov;
  else delete out.prov;
  switch (out.type) {
    case 'list':
      out.items = out.items.map(servedItem);
      break;
    case 'quote':
    case 'footnote':
    case 'section':
      out.content = out.content.map(servedBlock);
      break;
  }
  return out;
}

export function servedDocument(doc: QuarryDocument): QuarryDocument {
  return { version: doc.version, metadata: doc.metadata, blocks: doc.blocks.map(servedBlock) };
}
