'use client';

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, type Page } from '../api';
import type { FileListItem } from '../api-types';
import { FileUploader } from '../file-uploader';
import { BulkActions } from '../files/bulk-actions';
import { FileFilters, SORTS, normaliseTags, type FilterValues } from '../files/file-filters';
import { FileTable, SelectPage } from '../files/file-table';
import { Report, type ActionReport } from '../files/report';
import { anyWorking } from '../files/text-status';
import { useFileTypes } from '../files-common';
import { Button, Card, EmptyState, ErrorState, Loading, PageHeader, Pagination } from '../ui';

/*
 * The Files page: upload by drag and drop, find files again by name, tags and kind, see which
 * have been turned into text, and act on many at once (turn into text, add to a knowledge base,
 * delete).
 */

const PAGE_SIZE = 20;
/** How often the list is asked again while some of its files are being turned into text. */
const POLL_MS = 2000;
const NO_FILTERS: FilterValues = { name: '', tags: '', contentType: '', sort: 'newest' };

export function Files() {
  const queryClient = useQueryClient();
  const types = useFileTypes();
  const [form, setForm] = useState<FilterValues>(NO_FILTERS);
  // What is typed is applied after a short pause: these are the values the list is asked for.
  const [typed, setTyped] = useState({ q: '', tags: '' });
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<ReadonlyMap<string, FileListItem>>(new Map());
  const [report, setReport] = useState<ActionReport | null>(null);

  useEffect(() => {
    const next = { q: form.name.trim(), tags: normaliseTags(form.tags) };
    if (next.q === typed.q && next.tags === typed.tags) return;
    const timer = setTimeout(() => {
      setTyped(next);
      setOffset(0);
    }, 350);
    return () => clearTimeout(timer);
  }, [form.name, form.tags, typed]);

  const sort = SORTS[form.sort];
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset), sort_by: sort.sort_by, order: sort.order });
  if (typed.q) params.set('q', typed.q);
  if (typed.tags) params.set('tags', typed.tags);
  if (form.contentType) params.set('content_type', form.contentType);
  const list = useQuery({
    queryKey: ['files', 'list', params.toString()],
    queryFn: () => api<Page<FileListItem>>(`/v1/files?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anyWorking(query.state.data?.items) ? POLL_MS : false),
  });

  // Selected files follow the list as it refreshes, so the dialogs know which have text now.
  useEffect(() => {
    const items = list.data?.items;
    if (!items) return;
    setSelected((current) => {
      const fresher = items.filter((f) => current.has(f.id) && current.get(f.id) !== f);
      return fresher.length === 0 ? current : new Map([...current, ...fresher.map((f) => [f.id, f] as const)]);
    });
  }, [list.data]);

  // A page emptied by deletions falls back to the first page.
  const emptyPage = list.data !== undefined && list.data.items.length === 0 && offset > 0;
  useEffect(() => {
    if (emptyPage) setOffset(0);
  }, [emptyPage]);

  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['files'] });
    void queryClient.invalidateQueries({ queryKey: ['count'] });
  }, [queryClient]);

  const changeFilters = (patch: Partial<FilterValues>) => {
    setForm((current) => ({ ...current, ...patch }));
    // A choice from a list applies at once; typing waits for the pause above.
    if (patch.contentType !== undefined || patch.sort !== undefined) setOffset(0);
  };
  const clearFilters = () => {
    setForm((current) => ({ ...NO_FILTERS, sort: current.sort }));
    setTyped({ q: '', tags: '' });
    setOffset(0);
  };

  const toggle = useCallback((files: FileListItem[], on: boolean) => {
    setSelected((current) => {
      const next = new Map(current);
      for (const f of files) {
        if (on) next.set(f.id, f);
        else next.delete(f.id);
      }
      return next;
    });
  }, []);

  const finished = (result: ActionReport, keepSelected: string[]) => {
    setReport(result);
    setSelected((current) => new Map([...current].filter(([id]) => keepSelected.includes(id))));
    refresh();
    void queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
    void queryClient.invalidateQueries({ queryKey: ['knowledge-base'] });
  };

  const filtered = Boolean(typed.tags || form.contentType);
  const emptyTitle = typed.q ? `No files match “${typed.q}”${filtered ? ' with these filters' : ''}` : 'No files match these filters';

  return (
    <>
      <PageHeader title="Files" description="Upload documents, turn them into text you can read, copy and search, and add them to knowledge bases." />
      <div className="space-y-6">
        <FileUploader onUploaded={refresh} />
        <Card title="Your files" actions={list.isFetching && list.isPlaceholderData ? <span className="text-xs text-slate-600">Updating…</span> : undefined}>
          <FileFilters values={form} types={types.data} onChange={changeFilters} />
          <BulkActions selected={selected} onClear={() => setSelected(new Map())} onFinished={finished} />
          {/* After the dialog, whose closing gives the focus back first: the report then takes it. */}
          <Report report={report} onDismiss={() => setReport(null)} />

          {list.isLoading ? (
            <Loading label="Loading files…" />
          ) : list.isError ? (
            <ErrorState error={`The files could not be loaded. ${errorMessage(list.error)}`} onRetry={() => list.refetch()} />
          ) : list.data && list.data.items.length === 0 ? (
            typed.q || filtered ? (
              <EmptyState title={emptyTitle}>
                <Button variant="secondary" onClick={clearFilters}>
                  {filtered ? 'Clear filters' : 'Clear search'}
                </Button>
              </EmptyState>
            ) : (
              <EmptyState title="No files yet">Drop a document in the upload area above to get started.</EmptyState>
            )
          ) : list.data ? (
            <>
              <SelectPage items={list.data.items} selected={selected} onToggle={toggle} />
              <FileTable
                items={list.data.items}
                caption={`Your files, ${sort.label.toLowerCase()}`}
                sortedBy={{ column: sort.sort_by, order: sort.order }}
                types={types.data}
                selected={selected}
                onToggle={toggle}
              />
              <Pagination total={list.data.total} limit={PAGE_SIZE} offset={offset} onChange={setOffset} />
              {list.data.total <= PAGE_SIZE && <p className="mt-3 text-xs text-slate-600">{list.data.total === 1 ? '1 file' : `${list.data.total} files`}</p>}
            </>
          ) : null}
        </Card>
      </div>
    </>
  );
}
