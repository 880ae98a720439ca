'use client';

import type { FileType } from '../api-types';
import { distinctTypes } from '../files-common';
import { Field, Input, Select } from '../ui';

/* The ways to find files again: part of the name, tags, kind of file and order. */

export const SORTS = {
  newest: { label: 'Newest first', sort_by: 'created_at', order: 'desc' },
  oldest: { label: 'Oldest first', sort_by: 'created_at', order: 'asc' },
  name_asc: { label: 'Name, A to Z', sort_by: 'filename', order: 'asc' },
  name_desc: { label: 'Name, Z to A', sort_by: 'filename', order: 'desc' },
  largest: { label: 'Largest first', sort_by: 'size', order: 'desc' },
  smallest: { label: 'Smallest first', sort_by: 'size', order: 'asc' },
} as const;
export type SortKey = keyof typeof SORTS;

/** Tags typed by a person ("a, b ,,c") as the API's comma-separated list ("a,b,c"). */
export function normaliseTags(text: string): string {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .join(',');
}

export interface FilterValues {
  name: string;
  tags: string;
  contentType: string;
  sort: SortKey;
}

export function FileFilters({ values, types, onChange }: { values: FilterValues; types: FileType[] | undefined; onChange: (patch: Partial<FilterValues>) => void }) {
  return (
    <form role="search" aria-label="Filter files" className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" onSubmit={(e) => e.preventDefault()}>
      <Field label="Search by name" hint="Looks through all your files">
        {({ id, describedBy }) => (
          <Input id={id} aria-describedby={describedBy} type="search" maxLength={200} value={values.name} onChange={(e) => onChange({ name: e.target.value })} placeholder="report" />
        )}
      </Field>
      <Field label="Tags" hint="Files having all of these tags">
        {({ id, describedBy }) => (
          <Input id={id} aria-describedby={describedBy} type="search" value={values.tags} onChange={(e) => onChange({ tags: e.target.value })} placeholder="finance, 2024" />
        )}
      </Field>
      <Field label="Kind of file">
        {({ id }) => (
          <Select id={id} value={values.contentType} onChange={(e) => onChange({ contentType: e.target.value })}>
            <option value="">All kinds</option>
            {distinctTypes(types ?? []).map((t) => (
              <option key={t.mime_type} value={t.mime_type}>
                {t.description}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Sort by">
        {({ id }) => (
          <Select id={id} value={values.sort} onChange={(e) => onChange({ sort: e.target.value as SortKey })}>
            {Object.entries(SORTS).map(([key, s]) => (
              <option key={key} value={key}>
                {s.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
    </form>
  );
}
