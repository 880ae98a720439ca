'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import type { Extraction, FileRecord } from '../api-types';
import { humanizeKey, metadataText, MODE_NAMES } from '../files-common';
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
