import { throwIfAborted, type ExtractInput, type ExtractResult } from '../types';
import { decodeUtf8Text, readInputFile } from './common';

/*
 * TXT and MD are passed through as they are: Markdown is already Markdown, and plain text is
 * taken as Markdown too (nothing is escaped, so a "*" or "#" in a text file renders as Markdown).
 * The only changes: the BOM is dropped and line endings become "\n". The bytes must be UTF-8
 * (CORRUPT_DOCUMENT otherwise). No page markers; total_pages is 1. For Markdown, a first line
 * that is a level-1 heading is the title.
 */
export async function extractText(input: ExtractInput): Promise<ExtractResult> {
  throwIfAborted(input.signal);
  const text = decodeUtf8Text(await readInputFile(input), 'text');
  const metadata: ExtractResult['metadata'] = {};
  if (input.extension === '.md' || input.mimeType === 'text/markdown') {
    const firstLine = (/^\s*(.*)/.exec(text)?.[1] ?? '').slice(0, 1000);
    const heading = /^#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/.exec(firstLine);
    if (heading) metadata.title = heading[1];
  }
  input.onProgress(1, 1);
  return { markdown: text, totalPages: 1, metadata };
}
