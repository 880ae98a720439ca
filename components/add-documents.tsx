'use client';

import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { ApiClientError, api, errorMessage, type Page } from './api';
import type { ExtractionListItem, FileListItem } from './api-types';
import { Button, Dialog, ErrorState, Input, Loading, Pagination, formatBytes } from './ui';

/* Picking files whose text has been extracted and adding them to a knowledge base. */

const LIMIT = 25;

/** Why a file cannot be picked, or null when it can. */
function unavailableReason(extraction: ExtractionListItem | undefined | null, loading: boolean, alreadyAdded: boolean): string | null {
  if (alreadyAdded) return 'Already in this knowledge base';
  if (loading) return 'Checking…';
  if (extraction === undefined) return 'Could not be checked';
  if (extraction === null) return 'Text not extracted yet';
  if (extraction.status === 'pending' || extraction.status === 'processing') return 'Text extraction in progress';
  if (extraction.status === 'failed') return 'Text extraction failed';
  return null;
}

/** One page of files, each with a checkbox enabled only when its latest extraction completed. */
function FilePicker({
  existingFileIds,
  selected,
  onToggle,
}: {
  existingFileIds: Set<string>;
  selected: Map<string, string>;
  onToggle: (file: FileListItem, on: boolean) => void;
}) {
  const [offset, setOffset] = useState(0);
  const [filter, setFilter] = useState('');
  const files = useQuery({
    queryKey: ['files', 'picker', { offset }],
    queryFn: () => api<Page<FileListItem>>(`/v1/files?limit=${LIMIT}&offset=${offset}`),
    placeholderData: (previous) => previous,
  });
  const items = files.data?.items ?? [];
  const extractions = useQueries({
    queries: items.map((file) => ({
      queryKey: ['files', file.id, 'latest-extraction'],
      queryFn: async () => (await api<Page<ExtractionListItem>>(`/v1/files/${file.id}/extractions?limit=1`)).items[0] ?? null,
      staleTime: 10_000,
    })),
  });

  if (files.isLoading) return <Loading label="Loading files…" />;
  if (files.isError) return <ErrorState error={errorMessage(files.error)} onRetry={() => files.refetch()} />;
  if (!files.data || files.data.total === 0) {
    return (
      <p className="text-sm text-slate-600">
        There are no files yet. <Link href="/files" className="text-indigo-700 underline">Upload files</Link> and extract their text first.
      </p>
    );
  }

  const needle = filter.trim().toLowerCase();
  const shown = items.map((file, i) => ({ file, q: extractions[i] })).filter(({ file }) => !needle || file.filename.toLowerCase().includes(needle));

  return (
    <div className="space-y-3">
      <Input type="search" aria-label="Filter files by name" placeholder="Filter by name" value={filter} onChange={(e) => setFilter(e.target.value)} />
      <fieldset>
        <legend className="sr-only">Files</legend>
        <ul className="max-h-[50vh] divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
          {shown.length === 0 && <li className="px-3 py-4 text-sm text-slate-600">No file on this page matches.</li>}
          {shown.map(({ file, q }) => {
            const reason = unavailableReason(q?.isError ? undefined : q?.data, !!q?.isLoading, existingFileIds.has(file.id));
            const hintId = `pick-${file.id}-hint`;
            return (
              <li key={file.id}>
                <label className={reason ? 'flex gap-3 px-3 py-2 text-sm text-slate-500' : 'flex cursor-pointer gap-3 px-3 py-2 text-sm hover:bg-slate-50'}>
                  <input
                    type="checkbox"
                    className="mt-0.5"
                    disabled={!!reason}
                    checked={selected.has(file.id)}
                    aria-describedby={hintId}
                    onChange={(e) => onToggle(file, e.target.checked)}
                  />
                  <span className="min-w-0">
                    <span className="block break-all font-medium text-slate-800">{file.filename}</span>
                    <span id={hintId} className="block text-xs">
                      {formatBytes(file.size)}
                      {reason ? ` · ${reason}` : ' · Ready to add'}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <Pagination total={files.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />
    </div>
  );
}

/** The "Add documents" button and its dialog. */
export function AddDocuments({ kbId, existingFileIds }: { kbId: string; existingFileIds: Set<string> }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [busy, setBusy] = useState(false);

  function close() {
    setOpen(false);
    setSelected(new Map());
  }

  function toggle(file: FileListItem, on: boolean) {
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(file.id, file.filename);
      else next.delete(file.id);
      return next;
    });
  }

  async function add() {
    setBusy(true);
    let added = 0;
    for (const [fileId, filename] of selected) {
      try {
        await api(`/v1/knowledge-bases/${kbId}/documents`, { method: 'POST', json: { file_id: fileId } });
        added++;
      } catch (err) {
        const message =
          err instanceof ApiClientError && err.code === 'DOCUMENT_EXISTS'
            ? 'it is already in this knowledge base.'
            : err instanceof ApiClientError && err.code === 'EXTRACTION_NOT_COMPLETED'
              ? 'its text has not been extracted yet.'
              : errorMessage(err);
        toast.error(`${filename} was not added: ${message}`);
      }
    }
    setBusy(false);
    queryClient.invalidateQueries({ queryKey: ['knowledge-base', kbId] });
    queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
    if (added > 0) {
      toast.success(`${added === 1 ? '1 document was' : `${added} documents were`} added. Indexing has started.`);
      close();
    }
  }

  const count = selected.size;
  return (
    <>
      <Button onClick={() => setOpen(true)}>Add documents</Button>
      <Dialog open={open} title="Add documents" onClose={close}>
        <p className="mb-3 text-sm text-slate-600">Pick files whose text has been extracted. Each becomes a searchable document.</p>
        {open && <FilePicker existingFileIds={existingFileIds} selected={selected} onToggle={toggle} />}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button disabled={count === 0} busy={busy} onClick={add}>
            {count === 0 ? 'Add documents' : count === 1 ? 'Add 1 document' : `Add ${count} documents`}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
