import { DOCUMENT_VERSION, type Block, type DocumentMetadata, type Heading, type Inline, type Paragraph, type QuarryDocument, type TextMarks } from '@/lib/document/types';
import { hasContent } from './inlines';

/*
 * Small builders of the document model (lib/document/types.ts) shared by the Office and text
 * readers. Text goes into the model as the source has it: the renderer escapes it.
 */

export function text(value: string, marks: TextMarks = {}): Inline {
  return { type: 'text', text: value, ...marks };
}

function runs(content: Inline[] | string): Inline[] {
  return typeof content === 'string' ? (content ? [text(content)] : []) : content;
}

export function paragraph(content: Inline[] | string): Paragraph {
  return { type: 'paragraph', content: runs(content) };
}

export function heading(level: number, content: Inline[] | string): Heading {
  return { type: 'heading', level: Math.min(Math.max(Math.trunc(level) || 1, 1), 6) as Heading['level'], content: runs(content) };
}

/** An italic line of Quarry's own (a truncation note, a chart caption). */
export function note(value: string): Paragraph {
  return paragraph([text(value, { italic: true })]);
}

/** Alternative text of a picture without Word's and PowerPoint's automatic-description boilerplate. */
export function altText(alt: string | undefined): string {
  return (alt ?? '')
    .replace(/\s+/g, ' ')
    .replace(/\s*(Description automatically generated.*|AI-generated content may be incorrect\.?)$/i, '')
    .trim();
}

// Whether inline content holds anything but whitespace: inlines.ts's hasContent, under the name
// the ODF and table readers import.
export { hasContent as hasText };

/**
 * Inline content with its whitespace runs collapsed to single spaces and its edges trimmed, as the
 * ODF reader writes its model. Not inlines.ts's collapseInlines, which the DOCX and HTML readers
 * use: this one turns line breaks into spaces, collapses every Unicode space (non-breaking ones
 * too) but only within a run, and keeps neighbouring runs apart, so ODF's model stays as it is.
 */
export function collapseInlines(content: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const run of content) {
    if (run.type === 'break') out.push(text(' '));
    else if (run.type === 'text') out.push({ ...run, text: run.text.replace(/\s+/g, ' ') });
    else out.push(run);
  }
  const first = out[0];
  if (first?.type === 'text') out[0] = { ...first, text: first.text.trimStart() };
  const last = out[out.length - 1];
  if (last?.type === 'text') out[out.length - 1] = { ...last, text: last.text.trimEnd() };
  return out.filter((run) => run.type !== 'text' || run.text !== '');
}

/**
 * The text of blocks as one line of inline content (a table cell, a heading made of frames):
 * paragraphs, headings, list items, cells, quotes and pictures' alternative text, joined by spaces.
 * ODF's counterpart of inlines.ts's flattenBlocks, which also writes list markers and keeps code
 * marked; kept apart (with the collapsing above) so that ODF's model stays as it is.
 */
export function flattenInlines(blocks: readonly Block[]): Inline[] {
  const out: Inline[] = [];
  const push = (content: readonly Inline[]) => {
    if (!hasContent(content)) return;
    if (out.length) out.push(text(' '));
    out.push(...content);
  };
  const visit = (block: Block) => {
    switch (block.type) {
      case 'heading':
      case 'paragraph':
        push(block.content);
        break;
      case 'list':
        for (const item of block.items) item.content.forEach(visit);
        break;
      case 'table':
        if (block.caption) push(block.caption);
        for (const row of block.rows) for (const cell of row) push(cell.content);
        break;
      case 'picture':
        if (block.alt) push([text(block.alt)]);
        if (block.caption) push(block.caption);
        break;
      case 'code':
      case 'preformatted':
        push([text(block.text)]);
        break;
      case 'formula':
        push([{ type: 'math', latex: block.latex }]);
        break;
      case 'quote':
      case 'footnote':
      case 'section':
        block.content.forEach(visit);
        break;
      case 'rule':
        break;
    }
  };
  blocks.forEach(visit);
  return collapseInlines(out);
}

export function documentOf(metadata: DocumentMetadata, blocks: Block[]): QuarryDocument {
  return { version: DOCUMENT_VERSION, metadata, blocks };
}
