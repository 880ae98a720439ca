'use client';

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { api, errorMessage, type Page } from './api';
import type { ExtractionMode, FileListItem } from './api-types';
import { addToKnowledgeBase } from './files/batch';
import { ModeChoice } from './files/mode-choice';
import { anyWorking, textState } from './files/text-status';
import { Button, Dialog, ErrorState, Field, Input, Loading, Pagination, formatBytes } from './ui';

/*
 * Picking files to add to a knowledge base. Files are found by name among all files; those
 * without text yet can be picked too: they are turned into text first, then indexed.
 */

const LIMIT = 25;
const POLL_MS = 2000;

interface Picked {
  filename: string;
  /** Whether it still has to be turned into text. */
  needsText: boolean;
}

/** What becomes of a file when it is added, or why it cannot be. */
function describe(file: FileListItem, alreadyAdded: boolean): { words: string; disabled: boolean } {
  if (alreadyAdded) return { words: 'Already in this knowledge base', disabled: true };
  const latest = file.latest_extraction;
  switch (textState(latest)) {
    case 'ready':
      return { words: 'Text ready', disabled: false };
    case 'working':
      return { words: `Being turned into text (${latest?.progress ?? 0}%)`, disabled: false };
    case 'none':
      return { words: 'No text yet: it will be turned into text first', disabled: false };
    default:
      return { words: 'Could not be read last time: it will be tried again', disabled: false };
  }
}

function needsText(file: FileListItem): boolean {
  const state = textState(file.latest_extraction);
  return state === 'none' || state === 'failed';
}

/** A page of files found by name, each with a checkbox; "Select all ready" picks those with text. */
function FilePicker({
  existingFileIds,
  selected,
  onToggle,
}: {
  existingFileIds: Set<string>;
  selected: Map<string, Picked>;
  onToggle: (files: FileListItem[], on: boolean) => void;
}) {
  const [offset, setOffset] = useState(0);
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    if (typed.trim() === q) return;
    const timer = setTimeout(() => {
      setQ(typed.trim());
      setOffset(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed, q]);

  const params = new URLSearchParams({ limit: String(LIMIT), offset: String(offset) });
  if (q) params.set('q', q);
  const files = useQuery({
    queryKey: ['files', 'picker', params.toString()],
    queryFn: () => api<Page<FileListItem>>(`/v1/files?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anyWorking(query.state.data?.items) ? POLL_MS : false),
  });
  const items = files.data?.items ?? [];
  const ready = items.filter((f) => !existingFileIds.has(f.id) && textState(f.latest_extraction) === 'ready');

  if (files.isLoading) return <Loading label="Loading files…" />;
  if (files.isError) return <ErrorState error={errorMessage(files.error)} onRetry={() => files.refetch()} />;
  if (!q && !typed && files.data?.total === 0) {
    return (
      <p className="text-sm text-slate-600">
        There are no files yet.{' '}
        <Link href="/files" className="text-indigo-700 underline">
          Upload files
        </Link>{' '}
        first.
      </p>
    );
  }

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <Field label="Search files by name">
            {({ id }) => <Input id={id} type="search" maxLength={200} placeholder="report" value={typed} onChange={(e) => setTyped(e.target.value)} />}
          </Field>
        </div>
        <Button variant="secondary" disabled={ready.length === 0 || ready.every((f) => selected.has(f.id))} onClick={() => onToggle(ready, true)}>
          Select all ready
        </Button>
      </div>
      <fieldset>
        <legend className="sr-only">Files</legend>
        <ul className="max-h-[50vh] divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
          {items.length === 0 && <li className="px-3 py-4 text-sm text-slate-600">{q ? `No files match “${q}”.` : 'No files yet.'}</li>}
          {items.map((file) => {
            const { words, disabled } = describe(file, existingFileIds.has(file.id));
            const hintId = `pick-${file.id}-hint`;
            return (
              <li key={file.id}>
                <label className={disabled ? 'flex gap-3 px-3 py-2 text-sm text-slate-600' : 'flex cursor-pointer gap-3 px-3 py-2 text-sm hover:bg-slate-50'}>
                  <input
                    type="checkbox"
                    className="mt-0.5"
                    disabled={disabled}
                    checked={selected.has(file.id)}
                    aria-describedby={hintId}
                    onChange={(e) => onToggle([file], e.target.checked)}
                  />
                  <span className="min-w-0">
                    <span className="block break-all font-medium text-slate-800">{file.filename}</span>
                    <span id={hintId} className="block text-xs">
                      {formatBytes(file.size)} · {words}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      {files.data && <Pagination total={files.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />}
    </div>
  );
}

/** The "Add documents" button and its dialog. */
export function AddDocuments({ kbId, existingFileIds }: { kbId: string; existingFileIds: Set<string> }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<Map<string, Picked>>(new Map());
  const [mode, setMode] = useState<ExtractionMode>('normal');
  const [busy, setBusy] = useState(false);

  function close() {
    setOpen(false);
    setSelected(new Map());
  }

  function toggle(files: FileListItem[], on: boolean) {
    setSelected((current) => {
      const next = new Map(current);
      for (const file of files) {
        if (on) next.set(file.id, { filename: file.filename, needsText: needsText(file) });
        else next.delete(file.id);
      }
      return next;
    });
  }

  async function add() {
    setBusy(true);
    const outcome = await addToKnowledgeBase(kbId, [...selected.keys()], mode);
    setBusy(false);
    void queryClient.invalidateQueries({ queryKey: ['knowledge-base', kbId] });
    void queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
    void queryClient.invalidateQueries({ queryKey: ['files'] });

    const added = outcome.done.length;
    const present = outcome.failures.filter((f) => f.code === 'DOCUMENT_EXISTS').length;
    const failures = outcome.failures.filter((f) => f.code !== 'DOCUMENT_EXISTS');
    for (const f of failures) toast.error(`${selected.get(f.fileId)?.filename ?? 'A file'} was not added: ${f.reason}`);
    const already = present === 0 ? '' : present === 1 ? ' 1 file was already in it.' : ` ${present} files were already in it.`;
    if (added > 0) toast.success(`${added === 1 ? '1 document was' : `${added} documents were`} added. Indexing has started.${already}`);
    else if (present > 0) toast.info(`Nothing was added:${already}`);
    if (failures.length === 0) close();
    else setSelected((current) => new Map([...current].filter(([id]) => failures.some((f) => f.fileId === id))));
  }

  const count = selected.size;
  const withoutText = [...selected.values()].filter((p) => p.needsText).length;
  return (
    <>
      <Button onClick={() => setOpen(true)}>Add documents</Button>
      <Dialog open={open} title="Add documents" onClose={close}>
        <p className="mb-3 text-sm text-slate-600">Pick files to make searchable here. Files without text will be turned into text first.</p>
        {open && <FilePicker existingFileIds={existingFileIds} selected={selected} onToggle={toggle} />}
        {open && withoutText > 0 && (
          <div className="mt-4">
            <ModeChoice label="Reading mode for files without text" value={mode} onChange={setMode} />
          </div>
        )}
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
