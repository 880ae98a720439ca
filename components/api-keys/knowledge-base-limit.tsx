'use client';

import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { CheckboxGroup } from '../admin';
import { api, type Page } from '../api';
import type { KnowledgeBaseListItem } from '../api-types';
import { Badge, cx } from '../ui';

/** What a key limited to knowledge bases can never do, whatever permissions it is given. */
export const BEYOND_KNOWLEDGE_BASES = ['*', 'webhooks:*', 'api-keys:*'];

const PAGE = 100;
const MAX_PAGES = 50;

/** Every knowledge base by name (read 100 at a time), to choose from and to name the ones a key is limited to. */
export function useAllKnowledgeBases(enabled = true) {
  return useQuery({
    queryKey: ['knowledge-bases', 'all-by-name'],
    enabled,
    queryFn: async () => {
      const all: KnowledgeBaseListItem[] = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        const got = await api<Page<KnowledgeBaseListItem>>(`/v1/knowledge-bases?limit=${PAGE}&offset=${page * PAGE}&sort_by=name&order=asc`);
        all.push(...got.items);
        if (got.items.length < PAGE || all.length >= got.total) break;
      }
      return all;
    },
    staleTime: 30_000,
  });
}

/**
 * "All knowledge bases" or "Only the knowledge bases I choose", with the choice of them: radio
 * cards in a fieldset, then a checkbox per knowledge base.
 */
export function KnowledgeBaseLimitField({
  limited,
  onLimitedChange,
  selected,
  onSelectedChange,
  error,
}: {
  limited: boolean;
  onLimitedChange: (limited: boolean) => void;
  selected: string[];
  onSelectedChange: (ids: string[]) => void;
  error?: string;
}) {
  const name = useId();
  const kbs = useAllKnowledgeBases(limited);
  const options = [
    { value: false, label: 'All knowledge bases', description: 'The key works with every knowledge base, including ones created later.' },
    {
      value: true,
      label: 'Only the knowledge bases I choose',
      description:
        'The key sees only these knowledge bases, their documents and the files in them. It cannot create knowledge bases, upload files outside them, use webhooks or manage Quarry.',
    },
  ];
  return (
    <div className="space-y-3">
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Knowledge bases</legend>
        <p className="mt-1 text-xs text-slate-600">Which knowledge bases a program holding this key can reach.</p>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {options.map((o) => (
            <label
              key={o.label}
              className={cx('flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm', limited === o.value ? 'border-indigo-500 bg-indigo-50' : 'border-slate-200 hover:bg-slate-50')}
            >
              <input type="radio" name={name} checked={limited === o.value} onChange={() => onLimitedChange(o.value)} className="mt-0.5" />
              <span>
                <span className="block font-medium">{o.label}</span>
                <span className="block text-slate-600">{o.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {limited &&
        (kbs.isLoading ? (
          <p className="text-sm text-slate-600">Loading knowledge bases…</p>
        ) : kbs.isError ? (
          <p role="alert" className="text-sm text-red-700">
            The knowledge bases could not be loaded. Reload the page to try again.
          </p>
        ) : kbs.data && kbs.data.length === 0 ? (
          <p role="alert" className="text-sm text-slate-700">
            There are no knowledge bases yet. Create one first, or let the key use all knowledge bases.
          </p>
        ) : (
          <CheckboxGroup
            legend="Knowledge bases this key may use"
            hint="Choose at least one."
            choices={(kbs.data ?? []).map((kb) => ({ value: kb.id, label: kb.name, description: `${kb.document_count} ${kb.document_count === 1 ? 'document' : 'documents'}` }))}
            selected={selected}
            onChange={onSelectedChange}
            error={error}
          />
        ))}
      {limited && error && kbs.data?.length === 0 && (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** The knowledge bases a key is limited to, by name, for the key list. */
export function KnowledgeBaseLimitCell({ ids, names }: { ids: string[] | null; names: Map<string, string> }) {
  if (ids === null) return <span className="text-slate-700">All</span>;
  if (ids.length === 0) {
    // Its knowledge bases were all deleted: the key is never widened, it reaches nothing.
    return <Badge tone="red">None: its knowledge bases were deleted</Badge>;
  }
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Knowledge bases">
      {ids.map((id) => (
        <li key={id} title={id}>
          <Badge tone="gray">{names.get(id) ?? id}</Badge>
        </li>
      ))}
    </ul>
  );
}
