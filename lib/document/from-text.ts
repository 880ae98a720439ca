/**
 * Plain text → the document model: paragraphs split at blank lines, each paragraph's text as the
 * file has it (its lines joined by "\n", soft line breaks). Nothing is read as markup: a "*" in
 * a text file is a star.
 */
import { DOCUMENT_VERSION, type DocumentMetadata, type Paragraph, type QuarryDocument } from './types';

/** `trim`: each line without the spaces at its ends (what a Markdown paragraph keeps of it). */
export function plainTextBlocks(text: string, { trim = false } = {}): Paragraph[] {
  const out: Paragraph[] = [];
  let lines: string[] = [];
  const flush = () => {
    if (lines.length) out.push({ type: 'paragraph', content: [{ type: 'text', text: lines.join('\n') }] });
    lines = [];
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (/[^ \t]/.test(line)) lines.push(trim ? line.trim() : line);
    else flush();
  }
  flush();
  return out;
}

export function documentFromPlainText(text: string, metadata: DocumentMetadata = {}): QuarryDocument {
  return { version: DOCUMENT_VERSION, metadata, blocks: plainTextBlocks(text) };
}
