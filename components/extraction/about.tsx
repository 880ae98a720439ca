'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import type { Extraction, FileRecord } from '../api-types';
import { humanizeKey, metadataText, MODE_NAMES } from '../files-common';
import { webHref } from '../sources/describe';
import { Card, RelativeTime, StatusBadge } from '../ui';

function durationText(fromIso: string, toIso: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes} min ${rest} s`;
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-3 py-2">
      <dt className="shrink-0 text-slate-600">{term}</dt>
      <dd className="min-w-0 text-right break-words">{children}</dd>
    </div>
  );
}

const KNOWN_METADATA: Record<string, string> = { title: 'Title', author: 'Author', created_date: 'Document created', modified_date: 'Last edited' };

/** For a file a source keeps in step: where it comes from (a link when it is on the web) and its newest version. */
function SourceDetails({ item, version }: { item: NonNullable<FileRecord['source_item']>; version: number }) {
  const href = webHref(item.url);
  return (
    <>
      <Detail term="Comes from">
        {href ? (
          <a href={href} target="_blank" rel="noreferrer" className="font-mono text-xs break-all text-indigo-700 hover:underline" data-testid="source-url">
            {item.url}
          </a>
        ) : (
          <span className="font-mono text-xs break-all" data-testid="source-url">
            {item.url || item.key}
          </span>
        )}
        <Link href={`/sources/${item.source_id}`} className="mt-0.5 block text-xs text-indigo-700 hover:underline">
          About the source
        </Link>
      </Detail>
      <Detail term="Newest version">v{version}</Detail>
    </>
  );
}

/** What is known about the extraction and the document. */
export function About({ extraction, file }: { extraction: Extraction; file?: FileRecord }) {
  const extra = Object.entries(extraction.metadata ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== '');
  return (
    <Card title="About this extraction" className="self-start">
      <dl className="divide-y divide-slate-100 text-sm">
        <Detail term="File">
          <Link href={`/files/${extraction.file_id}`} className="text-indigo-700 hover:underline">
            {file?.filename ?? 'Open the file'}
          </Link>
        </Detail>
        {file?.source_item && <SourceDetails item={file.source_item} version={file.version} />}
        <Detail term="Status">
          <StatusBadge status={extraction.status} />
        </Detail>
        <Detail term="Reading">{MODE_NAMES[extraction.mode]}</Detail>
        {extraction.total_pages != null && <Detail term="Pages">{extraction.total_pages}</Detail>}
        {extra.map(([key, value]) => (
          <Detail key={key} term={KNOWN_METADATA[key] ?? humanizeKey(key)}>
            <span title={typeof value === 'string' ? value : undefined}>{metadataText(value)}</span>
          </Detail>
        ))}
        <Detail term="Started">
          <RelativeTime iso={extraction.created_at} />
        </Detail>
        {extraction.completed_at && (
          <>
            <Detail term="Finished">
              <RelativeTime iso={extraction.completed_at} />
            </Detail>
            <Detail term="Took">{durationText(extraction.created_at, extraction.completed_at)}</Detail>
          </>
        )}
      </dl>
    </Card>
  );
}
