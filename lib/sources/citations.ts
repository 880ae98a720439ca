import { and, eq, inArray } from 'drizzle-orm';
import { knowledgeBasesInReach } from '@/lib/auth/reach';
import { getConfig } from '@/lib/config';
import type { ServiceContext } from '@/lib/context';
import { files, kbChunks, kbDocuments, sourceItems, sources, type FileRow, type KbDocumentRow, type SourceItemRow, type SourceRow } from '@/lib/db/schema';
import { loadedSource } from './registry';
import { sameVersion, type Fingerprint, type SourceCallContext } from './types';

/*
 * Whether a cited passage is still true: current (the knowledge base serves the version it came
 * from and, as far as its source tells without downloading it, that is still the item's version),
 * stale (a newer version is stored, being indexed, or waiting at the source), or gone (the
 * document, or the item at its source, no longer exists). Agents ask before acting on a citation.
 */

export const MAX_CITATIONS = 100;
const SOURCE_CHECK_MS = 10_000;

export interface CitationInput {
  chunk_id?: string;
  document_id?: string;
  file_version?: number;
}

export type CitationStatus = 'current' | 'stale' | 'gone';

export interface CitationVerdict {
  chunk_id: string | null;
  document_id: string | null;
  status: CitationStatus;
  reason: string;
  cited_file_version: number | null;
  current_file_version: number | null;
  /** The source was asked for the item's version now (HEAD, HeadObject) without downloading it. */
  source_checked: boolean;
  source_item: { id: string; source_id: string; key: string; url: string } | null;
}

interface Known {
  doc: KbDocumentRow;
  file: FileRow;
}

function verdict(input: CitationInput, status: CitationStatus, reason: string, extra: Partial<CitationVerdict> = {}): CitationVerdict {
  return {
    chunk_id: input.chunk_id ?? null,
    document_id: input.document_id ?? null,
    status,
    reason,
    cited_file_version: input.file_version ?? null,
    current_file_version: null,
    source_checked: false,
    source_item: null,
    ...extra,
  };
}

/** What the source says of an item now, or why it could not say. */
type Live = { fingerprint: Fingerprint | null } | { error: string };

async function askSource(source: SourceRow, item: SourceItemRow, session: Map<string, unknown>): Promise<Live> {
  const { type, config, credentials } = loadedSource(source);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SOURCE_CHECK_MS);
  const ctx: SourceCallContext = { allowPrivate: getConfig().sources.allowPrivate, session, signal: controller.signal };
  try {
    return { fingerprint: await type.fingerprint(config, credentials, { key: item.key, url: item.url }, ctx) };
  } catch (err) {
    return { error: (err as Error).message?.slice(0, 300) || 'the source did not answer' };
  } finally {
    clearTimeout(timer);
  }
}

/** Tells, for each citation, whether it is current, stale or gone. */
export async function verifyCitations(ctx: ServiceContext, input: { citations: CitationInput[]; check_source?: boolean }): Promise<{ results: CitationVerdict[] }> {
  const citations = input.citations;
  const chunkIds = citations.map((c) => c.chunk_id).filter((id): id is string => !!id);
  const chunks = chunkIds.length
    ? await ctx.db.select({ id: kbChunks.id, documentId: kbChunks.documentId }).from(kbChunks).where(inArray(kbChunks.id, chunkIds))
    : [];
  const chunkDoc = new Map(chunks.map((c) => [c.id, c.documentId]));
  const docIds = [...new Set([...citations.map((c) => c.document_id).filter((id): id is string => !!id), ...chunks.map((c) => c.documentId)])];
  const reach = knowledgeBasesInReach(ctx.principal, kbDocuments.kbId);
  const rows = docIds.length
    ? await ctx.db
        .select({ doc: kbDocuments, file: files })
        .from(kbDocuments)
        .innerJoin(files, eq(files.id, kbDocuments.fileId))
        .where(reach ? and(inArray(kbDocuments.id, docIds), reach) : inArray(kbDocuments.id, docIds))
    : [];
  const known = new Map<string, Known>(rows.map((r) => [r.doc.id, r]));
  const itemIds = [...new Set(rows.map((r) => r.file.source?.item_id).filter((id): id is string => !!id))];
  const items = itemIds.length
    ? await ctx.db.select({ item: sourceItems, source: sources }).from(sourceItems).innerJoin(sources, eq(sources.id, sourceItems.sourceId)).where(inArray(sourceItems.id, itemIds))
    : [];
  const itemsById = new Map(items.map((r) => [r.item.id, r]));
  const sessions = new Map<string, Map<string, unknown>>();
  const live = new Map<string, Promise<Live>>();
  try {
    const results: CitationVerdict[] = [];
    for (const citation of citations) {
      results.push(await verifyOne(citation));
    }
    return { results };
  } finally {
    for (const session of sessions.values()) for (const value of session.values()) (value as { destroy?: () => void })?.destroy?.();
  }

  async function verifyOne(citation: CitationInput): Promise<CitationVerdict> {
    const documentId = citation.document_id ?? (citation.chunk_id ? chunkDoc.get(citation.chunk_id) : undefined);
    const found = documentId ? known.get(documentId) : undefined;
    if (!found || (citation.document_id && citation.chunk_id && chunkDoc.has(citation.chunk_id) && chunkDoc.get(citation.chunk_id) !== citation.document_id)) {
      return verdict(citation, 'gone', citation.chunk_id && !documentId ? 'No such passage: its document was removed, or re-indexed without it' : 'No such document in a knowledge base this key can reach');
    }
    const { doc, file } = found;
    const source = file.source;
    const base: Partial<CitationVerdict> = {
      document_id: doc.id,
      current_file_version: file.version,
      cited_file_version: citation.file_version ?? (citation.chunk_id && chunkDoc.has(citation.chunk_id) ? doc.indexedFileVersion : null),
      source_item: source ? { id: source.item_id, source_id: source.source_id, key: source.key, url: source.url } : null,
    };
    if (citation.chunk_id && !chunkDoc.has(citation.chunk_id)) {
      return verdict(citation, 'stale', 'The document was indexed again since this passage was cited; search it again for the current text', base);
    }
    const cited = base.cited_file_version ?? null;
    if (cited !== null && cited < file.version) {
      return verdict(citation, 'stale', `The file is at version ${file.version} now; this passage is from version ${cited}`, base);
    }
    if (cited !== null && cited > file.version) return verdict(citation, 'gone', `The file has no version ${cited}`, base);
    if (doc.indexedFileVersion !== null && doc.indexedFileVersion < file.version) {
      return verdict(citation, 'stale', `Version ${file.version} of the file is being indexed; searches still serve version ${doc.indexedFileVersion}`, base);
    }
    const entry = source ? itemsById.get(source.item_id) : undefined;
    if (!source || !entry || input.check_source === false) {
      return verdict(citation, 'current', source && !entry ? 'The file is no longer kept in step with a source; it is as stored' : 'The knowledge base serves the version cited', base);
    }
    if (entry.item.state === 'gone') return verdict(citation, 'gone', 'The item is gone from its source (its document is kept because keep_deleted is set)', base);
    let session = sessions.get(entry.source.id);
    if (!session) sessions.set(entry.source.id, (session = new Map()));
    let answer = live.get(entry.item.id);
    if (!answer) live.set(entry.item.id, (answer = askSource(entry.source, entry.item, session)));
    const now = await answer;
    if ('error' in now) {
      return verdict(citation, 'current', `The knowledge base serves the version cited; the source could not be asked (${now.error})`, base);
    }
    const checked = { ...base, source_checked: true };
    if (now.fingerprint === null) return verdict(citation, 'gone', 'The item is gone from its source; the next sync removes it', checked);
    if (!now.fingerprint.etag && !now.fingerprint.last_modified) {
      return verdict(citation, 'current', 'The knowledge base serves the version cited; the source gives no ETag or modification time to compare without downloading', { ...base });
    }
    if (!sameVersion(now.fingerprint, entry.item.fingerprint)) {
      return verdict(citation, 'stale', 'The item changed at its source since the last sync; the next sync stores the new version', checked);
    }
    return verdict(citation, 'current', 'The knowledge base serves the version cited, and it is the version at the source', checked);
  }
}
