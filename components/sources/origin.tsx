'use client';

import Link from 'next/link';
import type { SourceItemRef } from '../api-types';
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

/** A passage's source address: a link to it when it is on the web, and the source's page. */
export function PassageOrigin({ item, version }: { item: SourceItemRef | null | undefined; version?: number | null }) {
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
    </p>
  );
}
