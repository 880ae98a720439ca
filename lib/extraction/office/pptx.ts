import type { Block, Quote, Section } from '@/lib/document/types';
import { throwIfAborted, type ExtractedDocument, type ExtractInput } from '../types';
import { corrupt, readInputFile, refuseTooManyPages } from './common';
import { paragraphText, readChart, readDrawingTable, readPicture, readTextBody } from './drawingml';
import { documentOf, heading, paragraph, text } from './model';
import { CommentAuthors, readComments } from './pptx-comments';
import { childElements, firstChild, path, readCoreProperties, readRelationships, readXmlPart, type XmlElement } from './xml';
import { OfficeZip, relsPathOf, resolvePartPath } from './zip';

/*
 * PPTX → the document model, one section per slide, read directly from the package XML.
 *
 * - Slide order: p:sldIdLst of ppt/presentation.xml through its relationships.
 * - Each slide is a `slide` section with its page number (slides are the pages); total_pages =
 *   slide count.
 * - The title placeholder (type title / ctrTitle) becomes a level-2 heading; the other shapes
 *   follow in reading order (top to bottom, left to right; shapes whose tops are within 5% of the
 *   slide height count as one row). A placeholder without its own position takes its layout's.
 * - Text frames: paragraphs; bulleted / numbered paragraphs (a:buChar / a:buAutoNum, or body
 *   placeholders, whose bullets come from the master) become list items nested by a:pPr lvl.
 * - Tables (a:tbl): tables whose merged cells (gridSpan / rowSpan, hMerge / vMerge) are one cell
 *   with their spans.
 * - Charts: a table of the chart's cached data, captioned with its kind and title (drawingml.ts).
 * - Pictures: a picture with its description, when it has one; SmartArt and media are skipped.
 * - Speaker notes: a quote ("**Notes:** …") at the end of the slide's section, then the slide's
 *   comments (legacy and modern) with their authors, a quote of "**Comment by <author>:** …"
 *   paragraphs (see pptx-comments.ts).
 * - Metadata: docProps/core.xml.
 */

interface Shape {
  /** Position of the shape's top-left corner (EMU); undefined when unknown. */
  x?: number;
  y?: number;
  order: number;
  blocks: Block[];
}

interface Position {
  x: number;
  y: number;
}

interface PlaceholderRef {
  type: string;
  idx?: string;
}

const TITLE_TYPES = new Set(['title', 'ctrTitle']);
const NON_BULLET_TYPES = new Set(['title', 'ctrTitle', 'subTitle', 'dt', 'ftr', 'sldNum', 'hdr']);

function int(value: string | undefined, fallback: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : fallback;
}

function placeholderOf(shape: XmlElement): PlaceholderRef | undefined {
  const nv = childElements(shape).find((c) => c.name.startsWith('nv'));
  const ph = path(nv, 'nvPr', 'ph');
  if (!ph) return undefined;
  return { type: ph.attrs.type ?? 'body', idx: ph.attrs.idx };
}

function offsetOf(shape: XmlElement): Position | undefined {
  const xfrm = path(shape, 'spPr', 'xfrm') ?? path(shape, 'xfrm') ?? path(shape, 'grpSpPr', 'xfrm');
  const off = firstChild(xfrm, 'off');
  if (!off) return undefined;
  return { x: int(off.attrs.x, 0), y: int(off.attrs.y, 0) };
}

/** Placeholder positions of a slide layout (and its master), for placeholders that inherit them. */
class LayoutPositions {
  private readonly cache = new Map<string, Map<string, Position>>();

  constructor(private readonly zip: OfficeZip) {}

  private positions(part: string, depth: number): Map<string, Position> {
    const cached = this.cache.get(part);
    if (cached) return cached;
    const map = new Map<string, Position>();
    this.cache.set(part, map);
    const root = readXmlPart(this.zip, part);
    const tree = path(root, 'cSld', 'spTree');
    if (tree) {
      for (const shape of childElements(tree)) {
        const ph = placeholderOf(shape);
        const pos = offsetOf(shape);
        if (!ph || !pos) continue;
        if (ph.idx !== undefined && !map.has(`idx:${ph.idx}`)) map.set(`idx:${ph.idx}`, pos);
        if (!map.has(`type:${ph.type}`)) map.set(`type:${ph.type}`, pos);
      }
    }
    if (depth < 1) {
      // Layout → master: positions the layout does not override.
      for (const rel of readRelationships(this.zip, relsPathOf(part)).values()) {
        if (!rel.type.endsWith('/slideMaster') || rel.external) continue;
        for (const [key, pos] of this.positions(resolvePartPath(part, rel.target), depth + 1)) if (!map.has(key)) map.set(key, pos);
      }
    }
    return map;
  }

  lookup(layoutPart: string | undefined, ph: PlaceholderRef): Position | undefined {
    if (!layoutPart) return undefined;
    const map = this.positions(layoutPart, 0);
    return (ph.idx !== undefined ? map.get(`idx:${ph.idx}`) : undefined) ?? map.get(`type:${ph.type}`);
  }
}

interface SlideContext {
  zip: OfficeZip;
  slidePart: string;
  rels: Map<string, { target: string; type: string; external: boolean }>;
  layoutPart?: string;
  layouts: LayoutPositions;
  titles: string[];
  counter: { n: number };
  /** Shapes whose tops differ by less than this (EMU) are on the same row. */
  rowTolerance: number;
}

/** Shapes of a shape tree (slide or group), in document order; titles go to ctx.titles. */
function collectShapes(tree: XmlElement, ctx: SlideContext): Shape[] {
  const shapes: Shape[] = [];
  for (const child of childElements(tree)) {
    const shape = child;
    if (shape.name === 'AlternateContent') {
      const branch = firstChild(shape, 'Fallback') ?? firstChild(shape, 'Choice');
      if (!branch) continue;
      shapes.push(...collectShapes(branch, ctx));
      continue;
    }
    const ph = placeholderOf(shape);
    const pos = offsetOf(shape) ?? (ph ? ctx.layouts.lookup(ctx.layoutPart, ph) : undefined);
    const order = ctx.counter.n++;
    let blocks: Block[] = [];
    switch (shape.name) {
      case 'sp': {
        if (ph && TITLE_TYPES.has(ph.type)) {
          const title = childElements(firstChild(shape, 'txBody') ?? shape, 'p').map(paragraphText).filter(Boolean).join(' ');
          if (title) ctx.titles.push(title);
          continue;
        }
        const defaultBullets = ph !== undefined && !NON_BULLET_TYPES.has(ph.type);
        blocks = readTextBody(firstChild(shape, 'txBody'), defaultBullets);
        break;
      }
      case 'graphicFrame': {
        const data = path(shape, 'graphic', 'graphicData');
        const tbl = firstChild(data, 'tbl');
        const chartRel = ctx.rels.get(firstChild(data, 'chart')?.attrs['r:id'] ?? '');
        const table = tbl ? readDrawingTable(tbl) : undefined;
        if (table) blocks = [table];
        else if (!tbl && chartRel && !chartRel.external) {
          const descr = path(shape, 'nvGraphicFramePr', 'cNvPr')?.attrs.descr;
          blocks = readChart(ctx.zip, resolvePartPath(ctx.slidePart, chartRel.target), descr);
        }
        break;
      }
      case 'grpSp':
        // A group reads as one shape at the group's position, its members in their own order.
        blocks = sortShapes(collectShapes(shape, ctx), ctx.rowTolerance).flatMap((s) => s.blocks);
        break;
      case 'pic': {
        const picture = readPicture(path(shape, 'nvPicPr', 'cNvPr')?.attrs.descr);
        if (picture) blocks = [picture];
        break;
      }
      default:
        break;
    }
    if (blocks.length) shapes.push({ x: pos?.x, y: pos?.y, order, blocks });
  }
  return shapes;
}

/** Reading order: rows of shapes (tops within `tolerance`) top to bottom, each row left to right. */
function sortShapes(shapes: Shape[], tolerance: number): Shape[] {
  const placed = shapes.filter((s) => s.y !== undefined).sort((a, b) => a.y! - b.y! || a.x! - b.x! || a.order - b.order);
  const unplaced = shapes.filter((s) => s.y === undefined);
  const rows: Shape[][] = [];
  for (const shape of placed) {
    const row = rows[rows.length - 1];
    if (row && shape.y! - row[0].y! <= tolerance) row.push(shape);
    else rows.push([shape]);
  }
  return [...rows.flatMap((row) => row.sort((a, b) => a.x! - b.x! || a.order - b.order)), ...unplaced];
}

/** The speaker notes of a slide: a quote whose first paragraph starts with "**Notes:**". */
function readNotes(zip: OfficeZip, notesPart: string): Quote | undefined {
  const root = readXmlPart(zip, notesPart);
  const tree = path(root, 'cSld', 'spTree');
  if (!tree) return undefined;
  const paragraphs: string[] = [];
  for (const shape of childElements(tree, 'sp')) {
    if (placeholderOf(shape)?.type !== 'body') continue;
    for (const p of childElements(firstChild(shape, 'txBody') ?? shape, 'p')) {
      const value = paragraphText(p);
      if (value) paragraphs.push(value);
    }
  }
  if (paragraphs.length === 0) return undefined;
  const [first, ...rest] = paragraphs;
  return { type: 'quote', content: [paragraph([text('Notes:', { bold: true }), text(` ${first}`)]), ...rest.map((p) => paragraph(p))] };
}

function presentationPart(zip: OfficeZip): string {
  for (const rel of readRelationships(zip, '_rels/.rels').values()) {
    if (rel.type.endsWith('/officeDocument') && !rel.external) return resolvePartPath('', rel.target);
  }
  return 'ppt/presentation.xml';
}

export async function readPptx(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const zip = OfficeZip.open(await readInputFile(input), 'PPTX');
  const presPart = presentationPart(zip);
  const presentation = readXmlPart(zip, presPart);
  if (!presentation || presentation.name !== 'presentation') {
    throw corrupt('The PPTX file is not a PowerPoint presentation: it has no presentation part');
  }
  const presRels = readRelationships(zip, relsPathOf(presPart));
  const slideParts: string[] = [];
  for (const sldId of childElements(firstChild(presentation, 'sldIdLst') ?? presentation, 'sldId')) {
    const rel = presRels.get(sldId.attrs['r:id'] ?? '');
    if (rel && !rel.external && rel.type.endsWith('/slide')) slideParts.push(resolvePartPath(presPart, rel.target));
  }
  refuseTooManyPages(slideParts.length, input.maxPages, 'slides');
  const metadata = readCoreProperties(zip);
  const slideHeight = int(firstChild(presentation, 'sldSz')?.attrs.cy, 6_858_000);
  const layouts = new LayoutPositions(zip);
  const authors = new CommentAuthors(zip, presPart);

  const sections: Section[] = [];
  let hasContent = false;
  for (const [i, slidePart] of slideParts.entries()) {
    throwIfAborted(input.signal);
    const slide = readXmlPart(zip, slidePart);
    if (!slide) throw corrupt(`The PPTX file is damaged: slide ${i + 1} (${slidePart}) is missing`);
    const relMap = readRelationships(zip, relsPathOf(slidePart));
    const rels = [...relMap.values()].filter((r) => !r.external);
    const layoutRel = rels.find((r) => r.type.endsWith('/slideLayout'));
    const notesRel = rels.find((r) => r.type.endsWith('/notesSlide'));
    const ctx: SlideContext = {
      zip,
      slidePart,
      rels: relMap,
      layoutPart: layoutRel ? resolvePartPath(slidePart, layoutRel.target) : undefined,
      layouts,
      titles: [],
      counter: { n: 0 },
      rowTolerance: slideHeight * 0.05,
    };
    const tree = path(slide, 'cSld', 'spTree');
    const shapes = tree ? sortShapes(collectShapes(tree, ctx), ctx.rowTolerance) : [];
    const content: Block[] = [];
    if (ctx.titles.length) content.push(heading(2, ctx.titles.join(' ')));
    content.push(...shapes.flatMap((s) => s.blocks));
    const notes = notesRel ? readNotes(zip, resolvePartPath(slidePart, notesRel.target)) : undefined;
    if (notes) content.push(notes);
    const comments = readComments(zip, slidePart, relMap, authors);
    if (comments) content.push(comments);
    hasContent ||= content.length > 0;
    sections.push({ type: 'section', kind: 'slide', page: i + 1, content });
    input.onProgress(i + 1, slideParts.length);
  }
  return {
    // Slides without any text make an empty document (no lone page markers).
    document: documentOf(metadata, hasContent ? sections : []),
    totalPages: Math.max(slideParts.length, 1),
  };
}
