'use client';

import { useEffect, useRef } from 'react';
import type { FileListItem, FileType } from '../api-types';
import { typeLabel } from '../files-common';
import { Badge, RelativeTime, Table, TableLink, formatBytes, type Column } from '../ui';
import { TextStatus } from './text-status';

/*
 * One page of the file list with a checkbox per row. On phones only the checkbox, the name and
 * whether the text is ready stay as columns; the kind, size, tags and date move under the name.
 */

export type SortColumn = 'filename' | 'size' | 'created_at';

function Tags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return <span className="text-slate-600">None</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {tags.map((t) => (
        <Badge key={t}>{t}</Badge>
      ))}
    </span>
  );
}

/** A checkbox with room around it for a finger; the box itself keeps the browser's look. */
function RowCheckbox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="-m-2 inline-flex cursor-pointer p-2">
      <input type="checkbox" className="h-4 w-4" aria-label={label} checked={checked} onChange={(e) => onChange(e.target.checked)} />
    </label>
  );
}

/** "Select all on this page", mixed when only some rows are selected. */
export function SelectPage({ items, selected, onToggle }: { items: FileListItem[]; selected: ReadonlyMap<string, FileListItem>; onToggle: (files: FileListItem[], on: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const count = items.filter((f) => selected.has(f.id)).length;
  const all = items.length > 0 && count === items.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <label className="inline-flex cursor-pointer items-center gap-2 py-1 text-sm text-slate-700">
      <input ref={ref} type="checkbox" className="h-4 w-4" checked={all} onChange={(e) => onToggle(items, e.target.checked)} />
      Select all on this page
    </label>
  );
}

export function FileTable({
  items,
  caption,
  sortedBy,
  types,
  selected,
  onToggle,
}: {
  items: FileListItem[];
  caption: string;
  sortedBy: { column: SortColumn; order: 'asc' | 'desc' };
  types: FileType[] | undefined;
  selected: ReadonlyMap<string, FileListItem>;
  onToggle: (files: FileListItem[], on: boolean) => void;
}) {
  const sort = (column: SortColumn) => (sortedBy.column === column ? (sortedBy.order === 'asc' ? 'ascending' : 'descending') : undefined);
  const columns: Column<FileListItem>[] = [
    {
      header: 'Select',
      hideHeader: true,
      className: 'w-8 align-top sm:align-middle',
      cell: (f) => <RowCheckbox label={`Select ${f.filename}`} checked={selected.has(f.id)} onChange={(on) => onToggle([f], on)} />,
    },
    {
      header: 'Name',
      sort: sort('filename'),
      className: 'max-w-[20rem]',
      cell: (f) => (
        <>
          <TableLink href={`/files/${f.id}`} className="block break-all sm:truncate sm:break-normal" title={f.filename}>
            {f.filename}
          </TableLink>
          <span className="mt-0.5 block text-xs text-slate-600 sm:hidden">
            {typeLabel(f.content_type, types)} · {formatBytes(f.size)} · <RelativeTime iso={f.created_at} />
          </span>
          {f.tags.length > 0 && (
            <span className="mt-1 block sm:hidden">
              <Tags tags={f.tags} />
            </span>
          )}
        </>
      ),
    },
    { header: 'Text', className: 'align-top sm:align-middle', cell: (f) => <TextStatus latest={f.latest_extraction} /> },
    { header: 'Kind', wideOnly: true, className: 'whitespace-nowrap text-slate-700', cell: (f) => typeLabel(f.content_type, types) },
    {
      header: 'Size',
      wideOnly: true,
      sort: sort('size'),
      headerClassName: 'text-right',
      className: 'text-right whitespace-nowrap text-slate-700',
      cell: (f) => formatBytes(f.size),
    },
    { header: 'Tags', wideOnly: true, cell: (f) => <Tags tags={f.tags} /> },
    { header: 'Uploaded', wideOnly: true, sort: sort('created_at'), className: 'whitespace-nowrap text-slate-700', cell: (f) => <RelativeTime iso={f.created_at} /> },
  ];
  return <Table look="flush" label="Files table" caption={caption} className="sm:min-w-[46rem]" columns={columns} rows={items} rowKey={(f) => f.id} rowTestId="file-row" />;
}
