'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { api, errorMessage, type Page } from '../api';
import type { Source } from '../api-types';
import { Card, EmptyState, ErrorState, Loading } from '../ui';
import { isActive } from './describe';
import { SourceTable } from './source-table';

const POLL_MS = 2000;

export const ADD_LINK =
  'inline-flex items-center justify-center rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700';

/** The sources of a knowledge base, on its page; while one syncs the list (and the documents) follow it. */
export function KnowledgeBaseSources({ kbId }: { kbId: string }) {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['sources', { kb: kbId }],
    queryFn: () => api<Page<Source>>(`/v1/sources?knowledge_base_id=${encodeURIComponent(kbId)}&limit=100`),
    refetchInterval: (query) => (query.state.data?.items.some((s) => isActive(s.last_run)) ? POLL_MS : false),
  });

  // A sync adds and removes documents: the knowledge base's counts and list follow each step.
  const signature = list.data?.items.map((s) => `${s.id}:${s.last_run?.id}:${s.last_run?.status}:${s.last_run?.items_done}`).join(',');
  const seen = useRef(signature);
  useEffect(() => {
    if (signature === seen.current) return;
    if (seen.current !== undefined) void queryClient.invalidateQueries({ queryKey: ['knowledge-base', kbId] });
    seen.current = signature;
  }, [signature, kbId, queryClient]);

  return (
    <Card
      title="Sources"
      actions={
        <Link href={`/knowledge-bases/${kbId}/sources/new`} className={ADD_LINK}>
          Add a source
        </Link>
      }
    >
      {list.isLoading ? (
        <Loading label="Loading sources…" />
      ) : list.isError ? (
        <ErrorState error={errorMessage(list.error)} onRetry={() => list.refetch()} />
      ) : list.data && list.data.items.length > 0 ? (
        <SourceTable items={list.data.items} />
      ) : (
        <EmptyState title="No sources yet">
          <p>Add a website, a document on the web or a bucket, and its documents are added here and kept up to date.</p>
        </EmptyState>
      )}
    </Card>
  );
}
