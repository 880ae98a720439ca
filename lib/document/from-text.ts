/**
 * Plain text → the document model: paragraphs split at blank lines, each paragraph's text as the
 * file has it (its lines joined by "\n", soft line breaks). Nothing is read as markup: a "*" in
 * a text file is a star.
 */
import { LineStarts } from './line-starts';
import { DOCUMENT_VERSION, type DocumentMetadata, type Paragraph, type QuarryDocument, type Span } from './types';

/** Spans of lines of a text: `span(first, last)` from the first non-blank character to just after the last. */
export interface LineSpans {
  span(first: number, last: number): Span;
}

/**
 * `trim`: each line without the spaces at its ends (what a Markdown paragraph keeps of it).
 * `lines`: the text is the lines from `firstLine` on of a text these line spans are of, and each
 * paragraph gets its span there (`prov.span`).
 */
export function plainTextBlocks(text: string, { trim = false, lines: spans, firstLine = 0 }: { trim?: boolean; lines?: LineSpans; firstLine?: number } = {}): Paragraph[] {
  const out: Paragraph[] = [];
  let lines: string[] = [];
  let from = 0;
  let index = 0;
  const flush = () => {
    if (lines.length) {
      const paragraph: Paragraph = { type: 'paragraph', content: [{ type: 'text', text: lines.join('\n') }] };
      if (spans) paragraph.prov = { span: spans.span(firstLine + from, firstLine + index - 1) };
      out.push(paragraph);
    }
    lines = [];
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (/[^ \t]/.test(line)) {
      if (!lines.length) from = index;
      lines.push(trim ? line.trim() : line);
    } else flush();
    index++;
  }
  flush();
  return out;
}

/** The text's paragraphs; `spans`: each with its span in the text (the Markdown served for a text file is the text). */
export function documentFromPlainText(text: string, metadata: DocumentMetadata = {}, { spans = false }: { spans?: boolean } = {}): QuarryDocument {
  return { version: DOCUMENT_VERSION, metadata, blocks: plainTextBlocks(text, spans ? { lines: new LineStarts(text), firstLine: 0 } : {}) };
}
