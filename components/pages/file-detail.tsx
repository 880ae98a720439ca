'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { api, errorMessage, type Page } from '../api';
import type { ExtractionListItem, FileRecord } from '../api-types';
import { ExtractForm } from '../extraction/extract-form';
import { humanizeKey, metadataText, MODE_NAMES, typeLabel, useFileTypes } from '../files-common';
import { RecordNotLoaded, retryUnlessNotFound } from '../not-found';
import { Badge, Card, ConfirmButton, EmptyState, ErrorState, formatBytes, Loading, PageHeader, RelativeTime, StatusBadge } from '../ui';

/*
 * One file: what it is, its tags and details, download and delete, the extractions made from it,
 * and a form to start a new one with the choices explained in plain words.
 */

/** The extractions made from this file, newest first; refreshed while one is running. */
function FileExtractions({ fileId }: { fileId: string }) {
  const list = useQuery({
    queryKey: ['files', 'extractions', fileId],
    queryFn: () => api<Page<ExtractionListItem>>(`/v1/files/${fileId}/extractions?limit=100`),
    refetchInterval: (q) => (q.state.data?.items.some((e) => e.status === 'pending' || e.status === 'processing') ? 3000 : false),
  });
  if (list.isLoading) return <Loading label="Loading extractions…" />;
  if (list.isError) return <ErrorState error={`The extractions could not be loaded. ${errorMessage(list.error)}`} onRetry={() => list.refetch()} />;
  const items = list.data?.items ?? [];
  if (items.length === 0) return <EmptyState title="No extractions yet">Start one above to turn this file into text.</EmptyState>;
  return (
    <ul className="divide-y divide-slate-100" aria-label="Extractions of this file">
      {items.map((e) => (
        <li key={e.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={e.status} />
            <span>{MODE_NAMES[e.mode]} reading</span>
            {e.total_pages != null && <span className="text-slate-600">· {e.total_pages === 1 ? '1 page' : `${e.total_pages} pages`}</span>}
            <span className="text-slate-600">
              · started <RelativeTime iso={e.created_at} />
            </span>
          </span>
          <Link href={`/extractions/${e.id}`} className="font-medium text-indigo-700 hover:underline">
            {e.status === 'completed' ? 'Read the text' : 'View'}
            <span className="sr-only"> of the extraction started {new Date(e.created_at).toLocaleString()}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="py-2 sm:grid sm:grid-cols-3 sm:gap-3">
      <dt className="text-slate-600">{term}</dt>
      <dd className="min-w-0 break-words sm:col-span-2">{children}</dd>
    </div>
  );
}

export function FileDetail({ fileId }: { fileId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const types = useFileTypes();
  const file = useQuery({ queryKey: ['files', 'detail', fileId], queryFn: () => api<FileRecord>(`/v1/files/${fileId}`), retry: retryUnlessNotFound });

  if (file.isLoading) return <Loading label="Loading the file…" />;
  if (file.isError || !file.data) {
    return (
      <RecordNotLoaded
        title="File"
        error={file.error}
        notFound="This file was not found. It may have been deleted."
        failed="The file could not be loaded."
        onRetry={() => file.refetch()}
        backHref="/files"
        backLabel="Back to all files"
      />
    );
  }

  const f = file.data;
  const metadata = Object.entries(f.metadata ?? {});
  const remove = async () => {
    try {
      await api(`/v1/files/${f.id}`, { method: 'DELETE' });
    } catch (err) {
      toast.error('The file could not be deleted', { description: errorMessage(err) });
      return;
    }
    toast.success(`${f.filename} was deleted`);
    queryClient.removeQueries({ queryKey: ['files', 'detail', f.id] });
    void queryClient.invalidateQueries({ queryKey: ['files'] });
    void queryClient.invalidateQueries({ queryKey: ['count'] });
    router.push('/files');
  };

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/files" className="text-indigo-700 hover:underline">
          <span aria-hidden="true">← </span>All files
        </Link>
      </p>
      <PageHeader
        title={f.filename}
        description={`${typeLabel(f.content_type, types.data)} · ${formatBytes(f.size)}`}
        actions={
          <>
            <a
              href={`/v1/files/${f.id}/download`}
              download={f.filename}
              className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Download
            </a>
            <ConfirmButton
              label="Delete"
              title="Delete this file?"
              message={
                <>
                  <p>
                    <strong className="break-words">{f.filename}</strong> will be removed for good, together with the text extracted from it and its
                    place in any knowledge base.
                  </p>
                  <p className="mt-2">This cannot be undone.</p>
                </>
              }
              confirmLabel="Delete file"
              onConfirm={remove}
            />
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Turn into text">
            <ExtractForm file={f} />
          </Card>
          <Card title="Extractions">
            <FileExtractions fileId={f.id} />
          </Card>
        </div>
        <Card title="Details" className="self-start">
          <dl className="divide-y divide-slate-100 text-sm">
            <Detail term="Kind">{typeLabel(f.content_type, types.data)}</Detail>
            <Detail term="Size">{formatBytes(f.size)}</Detail>
            <Detail term="Uploaded">
              <RelativeTime iso={f.created_at} />
            </Detail>
            <Detail term="Last changed">
              <RelativeTime iso={f.updated_at} />
            </Detail>
            <Detail term="Tags">
              {f.tags.length > 0 ? (
                <span className="flex flex-wrap gap-1">
                  {f.tags.map((t) => (
                    <Badge key={t}>{t}</Badge>
                  ))}
                </span>
              ) : (
                <span className="text-slate-600">None</span>
              )}
            </Detail>
            {metadata.map(([key, value]) => (
              <Detail key={key} term={humanizeKey(key)}>
                {metadataText(value)}
              </Detail>
            ))}
            <Detail term="File ID">
              <span className="font-mono text-xs">{f.id}</span>
            </Detail>
          </dl>
        </Card>
      </div>
    </>
  );
}
