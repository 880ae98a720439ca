import { documentFromMarkdown } from '@/lib/document/from-markdown';
import { documentFromPlainText } from '@/lib/document/from-text';
import { throwIfAborted, type DocumentMetadata, type ExtractedDocument, type ExtractInput } from '../types';
import { decodeUtf8Text, readInputFile } from './common';

/*
 * TXT and MD: the Markdown served is the file's own text, as it is (the BOM dropped, line endings
 * made "\n"; nothing escaped, so a plain-text file's "*" or "#" renders as Markdown would). The
 * model says what the file says: a Markdown file's is read from its Markdown (headings, lists,
 * tables, …); a text file's is its paragraphs (split at blank lines) with their text as written,
 * no markup read, so a "*" there is a star. The bytes must be UTF-8 (CORRUPT_DOCUMENT otherwise).
 * No page markers; total_pages is 1. For Markdown, a first line that is a level-1 heading is the
 * title.
 */
export async function readText(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const text = decodeUtf8Text(await readInputFile(input), 'text');
  const markdown = input.extension === '.md' || input.mimeType === 'text/markdown';
  const metadata: DocumentMetadata = {};
  if (markdown) {
    const firstLine = (/^\s*(.*)/.exec(text)?.[1] ?? '').slice(0, 1000);
    const heading = /^#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/.exec(firstLine);
    if (heading) metadata.title = heading[1];
  }
  // Spans in the file's text, which is the Markdown served: chunking reads the text by them.
  const document = markdown ? documentFromMarkdown(text, metadata, { spans: true }) : documentFromPlainText(text, metadata, { spans: true });
  input.onProgress(1, 1);
  return { document, totalPages: 1, markdown: text };
}
