import { hasAnyScope, type Scope } from '@/lib/auth/scopes';
import type { ServiceContext } from '@/lib/context';
import { ApiError } from '@/lib/errors';
import { extractionsWithDocument, recentCompletedExtractions } from '@/lib/extraction/queries';
import { getExtraction, getExtractionDocument } from '@/lib/extraction/service';
import { listDocuments } from '@/lib/knowledge-bases/documents';
import { getKnowledgeBase, listKnowledgeBases } from '@/lib/knowledge-bases/service';

/**
 * Resources: each knowledge base (`quarry://knowledge-bases/{id}`: what it is and its documents,
 * as JSON) and each completed extraction (`quarry://extractions/{id}`: its Markdown;
 * `quarry://extractions/{id}/document`: its document model, as JSON).
 */
const KB_SCOPES: readonly Scope[] = ['kb:read', 'kb:search'];
const EXTRACTION_SCOPES: readonly Scope[] = ['extractions:read'];
const LISTED = 100;
const KB_URI = /^quarry:\/\/knowledge-bases\/([^/?#]+)$/;
const EXTRACTION_URI = /^quarry:\/\/extractions\/([^/?#]+)$/;
const EXTRACTION_DOCUMENT_URI = /^quarry:\/\/extractions\/([^/?#]+)\/document$/;

export function resourceTemplates(scopes: readonly string[]) {
  return [
    ...(hasAnyScope(scopes, KB_SCOPES)
      ? [{ uriTemplate: 'quarry://knowledge-bases/{kb_id}', name: 'knowledge-base', title: 'Knowledge base', description: 'A knowledge base and its documents (JSON)', mimeType: 'application/json' }]
      : []),
    ...(hasAnyScope(scopes, EXTRACTION_SCOPES)
      ? [
          { uriTemplate: 'quarry://extractions/{extraction_id}', name: 'extraction', title: 'Extraction', description: "A completed extraction's Markdown", mimeType: 'text/markdown' },
          {
            uriTemplate: 'quarry://extractions/{extraction_id}/document',
            name: 'extraction-document',
            title: 'Extraction document model',
            description: "A completed extraction's document model (JSON): headings, paragraphs, lists, tables with their cells, by page",
            mimeType: 'application/json',
          },
        ]
      : []),
  ];
}

export async function listResources(ctx: ServiceContext, scopes: readonly string[]) {
  const out: { uri: string; name: string; title?: string; description?: string; mimeType: string }[] = [];
  if (hasAnyScope(scopes, KB_SCOPES)) {
    const page = await listKnowledgeBases(ctx, { limit: LISTED, offset: 0, sort_by: 'name', order: 'asc' });
    for (const kb of page.items) {
      out.push({
        uri: `quarry://knowledge-bases/${kb.id}`,
        name: kb.name,
        title: kb.name,
        description: `${kb.document_count} documents, ${kb.chunk_count} chunks${kb.description ? `: ${kb.description}` : ''}`,
        mimeType: 'application/json',
      });
    }
  }
  if (hasAnyScope(scopes, EXTRACTION_SCOPES)) {
    const recent = await recentCompletedExtractions(ctx, LISTED);
    const modelled = await extractionsWithDocument(ctx, recent.map((e) => e.id));
    for (const e of recent) {
      out.push({
        uri: `quarry://extractions/${e.id}`,
        name: e.filename,
        title: e.filename,
        description: `Markdown of ${e.filename}${e.total_pages ? `, ${e.total_pages} pages` : ''}`,
        mimeType: 'text/markdown',
      });
      if (modelled.has(e.id)) {
        out.push({
          uri: `quarry://extractions/${e.id}/document`,
          name: `${e.filename} (document model)`,
          title: `${e.filename} (document model)`,
          description: `Structure of ${e.filename} as JSON: blocks by page, tables with their cells`,
          mimeType: 'application/json',
        });
      }
    }
  }
  return out;
}

function refuse(needs: readonly Scope[]): never {
  throw new ApiError('INSUFFICIENT_SCOPE', `Reading this resource needs the scope ${needs.join(' or ')}, which this API key does not have`, {
    required_scope: needs[0],
  });
}

export async function readResource(ctx: ServiceContext, scopes: readonly string[], uri: string) {
  const kb = KB_URI.exec(uri);
  if (kb) {
    if (!hasAnyScope(scopes, KB_SCOPES)) refuse(KB_SCOPES);
    const id = decodeURIComponent(kb[1]);
    const view = await getKnowledgeBase(ctx, id);
    const documents = await listDocuments(ctx, id, { limit: LISTED, offset: 0, sort_by: 'title', order: 'asc' });
    const body = { ...view, documents: documents.items, documents_total: documents.total };
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
  }
  const model = EXTRACTION_DOCUMENT_URI.exec(uri);
  if (model) {
    if (!hasAnyScope(scopes, EXTRACTION_SCOPES)) refuse(EXTRACTION_SCOPES);
    const document = await getExtractionDocument(ctx, decodeURIComponent(model[1]));
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(document) }] };
  }
  const extraction = EXTRACTION_URI.exec(uri);
  if (extraction) {
    if (!hasAnyScope(scopes, EXTRACTION_SCOPES)) refuse(EXTRACTION_SCOPES);
    const view = await getExtraction(ctx, decodeURIComponent(extraction[1]));
    if (!('markdown' in view)) {
      throw new ApiError('EXTRACTION_NOT_COMPLETED', `Extraction ${view.id} is ${view.status}, not completed`, { extraction_id: view.id, status: view.status });
    }
    return { contents: [{ uri, mimeType: 'text/markdown', text: view.markdown }] };
  }
  throw new ApiError('NOT_FOUND', `No resource ${uri.slice(0, 200)}: resources are quarry://knowledge-bases/{id}, quarry://extractions/{id} and quarry://extractions/{id}/document`);
}
