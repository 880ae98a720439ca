import { renderDocument } from '@/lib/document/render';
import { servedDocument } from '@/lib/document/serve';
import type { ExtractedDocument, ExtractResult } from './types';

/**
 * An extractor's document → the extraction result: the Markdown and the layout record rendered
 * from it (the layout only for paged formats with positions), and the document as served, its
 * blocks' spans in that Markdown set. A reader that serves its own text (Markdown and text
 * files) has nothing rendered: its model has the spans in that text already.
 */
export function finishExtraction(out: ExtractedDocument): ExtractResult {
  const { document, totalPages } = out;
  if (out.markdown !== undefined) return { markdown: out.markdown, totalPages, metadata: document.metadata, document: servedDocument(document) };
  const { markdown, layout, spans } = renderDocument(document);
  const result: ExtractResult = { markdown, totalPages, metadata: document.metadata, document: servedDocument(document, spans) };
  if (document.blocks.some((b) => b.type === 'section' && b.kind === 'page')) result.layout = layout;
  return result;
}
