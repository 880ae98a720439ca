import { renderDocument } from '@/lib/document/render';
import { servedDocument } from '@/lib/document/serve';
import type { ExtractedDocument, ExtractResult } from './types';

/**
 * An extractor's document → the extraction result: the Markdown and the layout record rendered
 * from it (the layout only for paged formats with positions), and the document as served.
 */
export function finishExtraction(out: ExtractedDocument): ExtractResult {
  const { markdown, layout } = renderDocument(out.document);
  const paged = out.document.blocks.some((b) => b.type === 'section' && b.kind === 'page');
  const result: ExtractResult = {
    markdown: out.markdown ?? markdown,
    totalPages: out.totalPages,
    metadata: out.document.metadata,
    document: servedDocument(out.document),
  };
  if (paged && out.markdown === undefined) result.layout = layout;
  return result;
}
