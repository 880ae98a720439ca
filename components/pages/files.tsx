'use client';

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, type Page } from '../api';
import type { FileListItem, FileType } from '../api-types';
import { FileUploader } from '../file-uploader';
import { distinctTypes, typeLabel, useFileTypes } from '../files-common';
import { Badge, Button, Card, EmptyState, ErrorState, Field, Input, Loading, PageHeader, Pagination, RelativeTime, Select, Table, TableLink, formatBytes, type Column } from '../ui';

/*
 * The Files page: upload by drag and drop, then find files again with tag and type filters,
 * sorting and pages.
 */

const PAGE_SIZE = 20;

const SORTS = {
  newest: { label: 'Newest first', sort_by: 'created_at', order: 'desc' },
  oldest: { label: 'Oldest first', sort_by: 'created_at', order: 'asc' },
  name_asc: { label: 'Name, A to Z', sort_by: 'filename', order: 'asc' },
  name_desc: { label: 'Name, Z to A', sort_by: 'filename', order: 'desc' },
  largest: { label: 'Largest first', sort_by: 'size', order: 'desc' },
  smallest: { label: 'Smallest first', sort_by: 'size', order: 'asc' },
} as const;
type SortKey = keyof typeof SORTS;

/** Tags typed by a person ("a, b ,,c") as the API's comma-separated list ("a,b,c"). */
function normaliseTags(text: string): string {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .join(',');
}

/** The value of aria-sort for a column, given the chosen order. */
function ariaSort(column: 'filename' | 'size' | 'created_at', sort: SortKey): 'ascending' | 'descending' | undefined {
  const s = SORTS[sort];
  if (s.sort_by !== column) return undefined;
  return s.order === 'asc' ? 'ascending' : 'descending';
}

/** The files of one page of the list, each linking to its own page. */
function FileTable({ items, sort, types }: { items: FileListItem[]; sort: SortKey; types: FileType[] | undefined }) {
  const columns: Column<FileListItem>[] = [
    {
      header: 'Name',
      sort: ariaSort('filename', sort),
      className: 'max-w-[20rem]',
      cell: (f) => (
        <TableLink href={`/files/${f.id}`} className="block truncate" title={f.filename}>
          {f.filename}
        </TableLink>
      ),
    },
    { header: 'Kind', className: 'whitespace-nowrap text-slate-700', cell: (f) => typeLabel(f.content_type, types) },
    { header: 'Size', sort: ariaSort('size', sort), headerClassName: 'text-right', className: 'text-right whitespace-nowrap text-slate-700', cell: (f) => formatBytes(f.size) },
    {
      header: 'Tags',
      cell: (f) =>
        f.tags.length > 0 ? (
          <span className="flex flex-wrap gap-1">
            {f.tags.map((t) => (
              <Badge key={t}>{t}</Badge>
            ))}
          </span>
        ) : (
          <span className="text-slate-400">None</span>
        ),
    },
    { header: 'Uploaded', sort: ariaSort('created_at', sort), className: 'whitespace-nowrap text-slate-700', cell: (f) => <RelativeTime iso={f.created_at} /> },
  ];
  return (
    <Table
      look="flush"
      label="Files table"
      caption={`Your files, ${SORTS[sort].label.toLowerCase()}`}
      className="min-w-[40rem]"
      columns={columns}
      rows={items}
      rowKey={(f) => f.id}
    />
  );
}

export function Files() {
  const queryClient = useQueryClient();
  const types = useFileTypes();
  const [tagsText, setTagsText] = useState('');
  const [tags, setTags] = useState('');
  const [contentType, setContentType] = useState('');
  const [sort, setSort] = useState<SortKey>('newest');
  const [offset, setOffset] = useState(0);

  // Typing in the tag filter applies it after a short pause.
  useEffect(() => {
    const timer = setTimeout(() => {
      setTags(normaliseTags(tagsText));
      setOffset(0);
    }, 350);
    return () => clearTimeout(timer);
  }, [tagsText]);

  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset), sort_by: SORTS[sort].sort_by, order: SORTS[sort].order });
  if (tags) params.set('tags', tags);
  if (contentType) params.set('content_type', contentType);
  const list = useQuery({
    queryKey: ['files', 'list', params.toString()],
    queryFn: () => api<Page<FileListItem>>(`/v1/files?${params}`),
    placeholderData: keepPreviousData,
  });

  // A page emptied by deletions elsewhere falls back to the first page.
  const emptyPage = list.data !== undefined && list.data.items.length === 0 && offset > 0;
  useEffect(() => {
    if (emptyPage) setOffset(0);
  }, [emptyPage]);

  const onUploaded = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['files'] });
    void queryClient.invalidateQueries({ queryKey: ['count'] });
  }, [queryClient]);

  const filtered = Boolean(tags || contentType);
  const clearFilters = () => {
    setTagsText('');
    setTags('');
    setContentType('');
    setOffset(0);
  };

  return (
    <>
      <PageHeader title="Files" description="Upload documents, then open one to turn it into text you can read, copy and search." />
      <div className="space-y-6">
        <FileUploader onUploaded={onUploaded} />
        <Card title="Your files" actions={list.isFetching && !list.isLoading ? <span className="text-xs text-slate-500">Updating…</span> : undefined}>
          <form role="search" aria-label="Filter files" className="mb-4 grid gap-3 sm:grid-cols-3" onSubmit={(e) => e.preventDefault()}>
            <Field label="Tags" hint="Files having all of these tags">
              {({ id, describedBy }) => (
                <Input id={id} aria-describedby={describedBy} type="search" value={tagsText} onChange={(e) => setTagsText(e.target.value)} placeholder="finance, 2024" />
              )}
            </Field>
            <Field label="Kind of file">
              {({ id }) => (
                <Select
                  id={id}
                  value={contentType}
                  onChange={(e) => {
                    setContentType(e.target.value);
                    setOffset(0);
                  }}
                >
                  <option value="">All kinds</option>
                  {distinctTypes(types.data ?? []).map((t) => (
                    <option key={t.mime_type} value={t.mime_type}>
                      {t.description}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Sort by">
              {({ id }) => (
                <Select
                  id={id}
                  value={sort}
                  onChange={(e) => {
                    setSort(e.target.value as SortKey);
                    setOffset(0);
                  }}
                >
                  {Object.entries(SORTS).map(([key, s]) => (
                    <option key={key} value={key}>
                      {s.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </form>

          {list.isLoading ? (
            <Loading label="Loading files…" />
          ) : list.isError ? (
            <ErrorState error={`The files could not be loaded. ${errorMessage(list.error)}`} onRetry={() => list.refetch()} />
          ) : list.data && list.data.items.length === 0 ? (
            filtered ? (
              <EmptyState title="No files match these filters">
                <Button variant="secondary" onClick={clearFilters}>
                  Clear filters
                </Button>
              </EmptyState>
            ) : (
              <EmptyState title="No files yet">Drop a document in the upload area above to get started.</EmptyState>
            )
          ) : list.data ? (
            <>
              <FileTable items={list.data.items} sort={sort} types={types.data} />
              <Pagination total={list.data.total} limit={PAGE_SIZE} offset={offset} onChange={setOffset} />
              {list.data.total <= PAGE_SIZE && (
                <p className="mt-3 text-xs text-slate-500">{list.data.total === 1 ? '1 file' : `${list.data.total} files`}</p>
              )}
            </>
          ) : null}
        </Card>
      </div>
    </>
  );
}
