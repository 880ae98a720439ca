'use client';

import Link from 'next/link';
import { useState } from 'react';
import { api, errorMessage } from '../api';
import type { CitationVerdict, SourceItemRef } from '../api-types';
import { webHref } from './describe';

/* Where a document or a passage came from, and which version of it: for documents a source keeps in step. */

/** "From https://…/intro.html", linking to the source's page. */
export function DocumentOrigin({ item }: { item: SourceItemRef | null | undefined }) {
  if (!item) return null;
  return (
    <span className="mt-0.5 block text-xs text-slate-600" data-testid="document-origin">
      From{' '}
      <Link href={`/sources/${item.source_id}`} className="font-mono break-all text-indigo-700 hover:underline">
        {item.url || item.key}
      </Link>
    </span>
  );
}

/** "v2", and "updating to v3" while a newer version is read and indexed. Nothing for a first version. */
export function VersionNote({ version, latest }: { version: number | null | undefined; latest?: number | null }) {
  // Before its first indexing a document has no version yet: only a later one is an update.
  const updating = typeof latest === 'number' && (typeof version === 'number' ? latest > version : latest > 1);
  if (!(typeof version === 'number' && version > 1) && !updating) return null;
  return (
    <span className="ml-1 inline-flex flex-wrap gap-1 align-middle text-xs" data-testid="document-version">
      {typeof version === 'number' && version > 1 && <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700">v{version}</span>}
      {updating && <span className="rounded bg-blue-100 px-1.5 py-0.5 font-medium text-blue-800">updating to v{latest}</span>}
    </span>
  );
}

const VERDICT_STYLE: Record<CitationVerdict['status'], string> = {
  current: 'bg-green-100 text-green-800',
  stale: 'bg-amber-100 text-amber-900',
  gone: 'bg-red-100 text-red-800',
};
const VERDICT_WORD: Record<CitationVerdict['status'], string> = { current: 'Still current', stale: 'Out of date', gone: 'Gone' };

/**
 * "Is this still current?": asks POST /v1/citations/verify, which compares the passage with what
 * the knowledge base serves and with the item at its source (without downloading it).
 */
export function CheckCurrent({ chunkId, documentId }: { chunkId: string; documentId: string }) {
  const [state, setState] = useState<{ busy: boolean; verdict?: CitationVerdict; error?: string }>({ busy: false });
  const check = async () => {
    setState({ busy: true });
    try {
      const { results } = await api<{ results: CitationVerdict[] }>('/v1/citations/verify', {
        method: 'POST',
        json: { citations: [{ chunk_id: chunkId, document_id: documentId }] },
      });
      setState({ busy: false, verdict: results[0] });
    } catch (err) {
      setState({ busy: false, error: errorMessage(err) });
    }
  };
  return (
    <span className="ml-2 inline-flex flex-wrap items-center gap-2 text-xs" aria-live="polite">
      <button type="button" onClick={check} disabled={state.busy} className="text-indigo-700 hover:underline disabled:text-slate-400">
        {state.busy ? 'Checking…' : 'Is it still current?'}
      </button>
      {state.verdict && (
        <span data-testid="citation-verdict" title={state.verdict.reason}>
          <span className={`rounded px-1.5 py-0.5 font-medium ${VERDICT_STYLE[state.verdict.status]}`}>{VERDICT_WORD[state.verdict.status]}</span>{' '}
          <span className="text-slate-600">{state.verdict.reason}</span>
        </span>
      )}
      {state.error && <span className="text-red-700">{state.error}</span>}
    </span>
  );
}

/** A passage's source address: a link to it when it is on the web, and the source's page. */
export function PassageOrigin({ item, version, chunkId, documentId }: { item: SourceItemRef | null | undefined; version?: number | null; chunkId?: string; documentId?: string }) {
  if (!item) return null;
  const href = webHref(item.url);
  return (
    <p className="mt-1 text-sm break-words text-slate-600" data-testid="result-origin">
      <span>From </span>
      {href ? (
        <a href={href} target="_blank" rel="noreferrer" className="font-mono text-xs break-all text-indigo-700 hover:underline">
          {item.url}
        </a>
      ) : (
        <span className="font-mono text-xs break-all">{item.url || item.key}</span>
      )}
      {typeof version === 'number' && <span className="ml-2 text-xs">version {version}</span>}
      <Link href={`/sources/${item.source_id}`} className="ml-2 text-xs text-indigo-700 hover:underline">
        About the source
      </Link>
      {chunkId && documentId && <CheckCurrent chunkId={chunkId} documentId={documentId} />}
    </p>
  );
}
