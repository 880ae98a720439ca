'use client';

import Link from 'next/link';
import type { Extraction } from '../api-types';
import { Card, ConfirmButton, ProgressBar, StatusBadge } from '../ui';

/** What a failure code means for the person reading, and what they can do about it. */
const FAILURES: Record<string, string> = {
  OCR_FAILED:
    'No readable text was found. If this is a scan or a photo, it may be too blurry or faint: try the Thorough reading, the right document language, or a clearer copy.',
  ENCRYPTED_DOCUMENT: 'The document is protected with a password, so it cannot be read. Remove the password, then upload it again.',
  CORRUPT_DOCUMENT: 'The file seems damaged or incomplete, so it could not be read. Save or export it again and upload the new copy.',
  EXTRACTION_TIMEOUT: 'Reading the document took too long and was stopped. Try the Quick reading, or split the document into smaller parts.',
  TOO_MANY_PAGES: 'The document has more pages than this server accepts. Split it into smaller parts and upload them separately.',
  RESOURCE_LIMIT_EXCEEDED: 'The document needed more memory than this server allows. Split it into smaller parts and try again.',
  CANCELLED: 'The extraction was stopped before it finished.',
  UNSUPPORTED_FORMAT: 'Quarry cannot turn this kind of file into text.',
  INTERNAL_ERROR: 'Something went wrong on the server while reading the document. Try again in a little while.',
};

export function failureSentence(code: string): string {
  return FAILURES[code] ?? 'The document could not be read.';
}

/** The progress card of a pending or running extraction, with a way to stop it. */
export function Progress({ extraction, onCancel }: { extraction: Extraction; onCancel: () => Promise<void> }) {
  const progress = extraction.progress ?? 0;
  return (
    <Card title="Reading the document">
      <div className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span className="flex items-center gap-2">
            <StatusBadge status={extraction.status} />
            <span>{extraction.status === 'pending' ? 'Waiting for its turn…' : `Reading… ${Math.round(progress)}% done`}</span>
          </span>
          <ConfirmButton
            label="Stop"
            variant="secondary"
            title="Stop this extraction?"
            message="The document stops being read. You can start a new extraction from the file page at any time."
            confirmLabel="Stop extraction"
            onConfirm={onCancel}
          />
        </div>
        <ProgressBar value={progress} label="Extraction progress" />
        <p className="text-xs text-slate-600">This page updates by itself; you can leave it and come back later.</p>
      </div>
    </Card>
  );
}

/** Why an extraction failed, with a way to try again. */
export function Failure({ extraction }: { extraction: Extraction }) {
  const code = extraction.error?.code ?? 'INTERNAL_ERROR';
  return (
    <Card title={code === 'CANCELLED' ? 'Stopped' : 'The text could not be extracted'}>
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
        <p>{failureSentence(code)}</p>
        {extraction.error?.message && code !== 'CANCELLED' && <p className="mt-2 text-xs text-red-800">Details from the server: {extraction.error.message}</p>}
      </div>
      <p className="mt-4 text-sm">
        <Link href={`/files/${extraction.file_id}`} className="font-medium text-indigo-700 hover:underline">
          Try again with other settings
        </Link>
      </p>
    </Card>
  );
}
