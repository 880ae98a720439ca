'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { api, errorMessage, type Page } from '../api';
import type { KnowledgeBaseListItem, Source } from '../api-types';
import { isActive } from '../sources/describe';
import { SourceTable } from '../sources/source-table';
import { Card, EmptyState, ErrorState, Loading, PageHeader, Pagination } from '../ui';

const LIMIT = 50;

/** Every source, with the knowledge base it fills; a source is added from its knowledge base's page. */
export function Sources() {
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: ['sources', 'all', { offset }],
    queryFn: () => api<Page<Source>>(`/v1/sources?limit=${LIMIT}&offset=${offset}`),
    placeholderData: (previous) => previous,
    refetchInterval: (query) => (query.state.data?.items.some((s) => isActive(s.last_run)) ? 2000 : false),
  });
  const kbs = useQuery({
    queryKey: ['knowledge-bases', 'all'],
    queryFn: () => api<Page<KnowledgeBaseListItem>>('/v1/knowledge-bases?limit=100&sort_by=name'),
  });
  const names = useMemo(() => new Map((kbs.data?.items ?? []).map((kb) => [kb.id, kb.name])), [kbs.data]);
  return (
    <>
      <PageHeader
        title="Sources"
        description="Websites, documents on the web and buckets that keep knowledge bases up to date. To add one, open a knowledge base and choose “Add a source”."
      />
      {list.isLoading ? (
        <Loading label="Loading sources…" />
      ) : list.isError ? (
        <ErrorState error={errorMessage(list.error)} onRetry={() => list.refetch()} />
      ) : list.data && list.data.items.length > 0 ? (
        <Card>
          <SourceTable items={list.data.items} knowledgeBaseNames={names} />
          <Pagination total={list.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />
        </Card>
      ) : (
        <EmptyState title="No sources yet">
          <p>
            Open a{' '}
            <Link href="/knowledge-bases" className="text-indigo-700 underline">
              knowledge base
            </Link>{' '}
            and choose “Add a source” to keep it in step with a website, a document on the web or a bucket.
          </p>
        </EmptyState>
      )}
    </>
  );
}
