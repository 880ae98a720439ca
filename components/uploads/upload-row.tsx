'use client';

import Link from 'next/link';
import type { FileRecord } from '../api-types';
import type { IngestOptions } from './ingest-options';
import { Button, ProgressBar, cx, formatBytes } from '../ui';
import { useAfterUpload, type Followed } from './progress';

/* One file of the upload list: the upload itself, then what follows it (text, knowledge base). */

export type UploadState = 'waiting' | 'uploading' | 'done' | 'failed' | 'stopped';

export interface UploadItem {
  key: string;
  file: File;
  state: UploadState;
  progress: number;
  message?: string;
  stored?: FileRecord;
  controller?: AbortController;
  /** The extraction and document started with the upload. */
  followed?: Followed;
  /** What was chosen to follow its upload, kept for a retry. */
  choice?: IngestOptions;
  /** The knowledge base chosen for it, by name. */
  kbName?: string;
  /** Whether the server was asked (refused-before-sending files cannot be retried). */
  sent?: boolean;
}

const TONE = { working: 'text-blue-800', done: 'text-green-700', failed: 'text-red-700', stopped: 'text-slate-600' } as const;

export function UploadRow({
  item,
  onStop,
  onDismiss,
  onRetryUpload,
  onNewExtraction,
}: {
  item: UploadItem;
  onStop: () => void;
  onDismiss: () => void;
  onRetryUpload: () => void;
  onNewExtraction: (id: string) => void;
}) {
  const after = useAfterUpload(item.state === 'done' ? item.followed : undefined, item.kbName, onNewExtraction);
  const statusText =
    item.state === 'waiting'
      ? 'Waiting…'
      : item.state === 'uploading'
        ? `Uploading… ${Math.round(item.progress)}%`
        : item.state === 'done'
          ? 'Uploaded'
          : item.state === 'stopped'
            ? 'Stopped'
            : 'Not uploaded';
  const steps = item.followed ? (item.followed.document ? 3 : 2) : 1;
  const step = item.state !== 'done' || !after ? 1 : after.text.startsWith('Turning') ? 2 : steps;
  return (
    <li className="py-3" data-testid="upload-row">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" title={item.file.name}>
            {item.file.name}
          </p>
          <p className={cx('text-xs', item.state === 'failed' ? 'text-red-700' : item.state === 'done' ? 'text-green-700' : 'text-slate-600')}>
            {formatBytes(item.file.size)} · {statusText}
            {steps > 1 && (item.state === 'waiting' || item.state === 'uploading' || after?.tone === 'working') && (
              <span className="text-slate-600">
                {' '}
                · step {step} of {steps}
              </span>
            )}
          </p>
          {after && (
            <p className={cx('mt-0.5 text-sm', TONE[after.tone])} data-testid="upload-step">
              {after.text}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {after?.retry && (
            <Button variant="secondary" className="py-1.5" busy={after.retrying} disabled={after.retrying} onClick={after.retry}>
              Retry<span className="sr-only"> {item.file.name}</span>
            </Button>
          )}
          {item.state === 'failed' && item.sent && (
            <Button variant="secondary" className="py-1.5" onClick={onRetryUpload}>
              Retry<span className="sr-only"> uploading {item.file.name}</span>
            </Button>
          )}
          {item.state === 'done' && item.stored && (
            <Link href={`/files/${item.stored.id}`} className="rounded-md px-3 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-50">
              Open
              <span className="sr-only"> {item.file.name}</span>
            </Link>
          )}
          {item.state === 'waiting' || item.state === 'uploading' ? (
            <Button variant="ghost" className="py-1.5" onClick={onStop}>
              Stop<span className="sr-only"> uploading {item.file.name}</span>
            </Button>
          ) : (
            <Button variant="ghost" className="py-1.5" onClick={onDismiss}>
              Dismiss<span className="sr-only"> {item.file.name}</span>
            </Button>
          )}
        </div>
      </div>
      {(item.state === 'uploading' || item.state === 'waiting') && (
        <div className="mt-2">
          <ProgressBar value={item.progress} label={`Uploading ${item.file.name}`} />
        </div>
      )}
      {after?.tone === 'working' && after.progress !== undefined && (
        <div className="mt-2">
          <ProgressBar value={after.progress} label={`Turning ${item.file.name} into text`} />
        </div>
      )}
      {item.message && <p className="mt-1 text-sm text-red-700">{item.message}</p>}
      {after?.reason && (
        <p className="mt-1 text-sm text-red-700">
          <span className="font-medium">Why: </span>
          {after.reason}
        </p>
      )}
    </li>
  );
}
