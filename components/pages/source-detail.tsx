'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { api, ApiClientError, errorMessage } from '../api';
import type { KnowledgeBase, Source, SourceRun } from '../api-types';
import { RecordNotLoaded, retryUnlessNotFound } from '../not-found';
import { DeleteSource } from '../sources/delete-source';
import { isActive, TYPE_NAMES } from '../sources/describe';
import { RunHistory } from '../sources/run-history';
import { SourceSettings, type SourceChanges } from '../sources/source-settings';
import { Button, Loading, PageHeader } from '../ui';

const POLL_MS = 1500;

/** One source: its settings, "Sync now", and its syncs, followed live while one runs. */
export function SourceDetail({ sourceId }: { sourceId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const path = `/v1/sources/${encodeURIComponent(sourceId)}`;
  const source = useQuery({
    queryKey: ['source', sourceId],
    queryFn: () => api<Source>(path),
    retry: retryUnlessNotFound,
    refetchInterval: (query) => (isActive(query.state.data?.last_run) ? POLL_MS : false),
  });
  const kbId = source.data?.knowledge_base_id;
  const kb = useQuery({
    queryKey: ['knowledge-base', kbId],
    queryFn: () => api<KnowledgeBase>(`/v1/knowledge-bases/${kbId}`),
    enabled: Boolean(kbId),
    retry: false,
  });

  // The newest sync ending is announced, and the runs and knowledge base catch up.
  const lastRun = source.data?.last_run;
  const seen = useRef<{ id?: string; status?: string }>({});
  useEffect(() => {
    const was = seen.current;
    seen.current = { id: lastRun?.id, status: lastRun?.status };
    if (!lastRun || was.id !== lastRun.id || was.status === lastRun.status) return;
    void queryClient.invalidateQueries({ queryKey: ['source', sourceId, 'runs'] });
    if (kbId) void queryClient.invalidateQueries({ queryKey: ['knowledge-base', kbId] });
    if (lastRun.status === 'completed') toast.success('The sync is complete.');
    if (lastRun.status === 'failed') toast.error('The sync failed.', { description: lastRun.error?.message });
  }, [lastRun, sourceId, kbId, queryClient]);

  const sync = useMutation({
    mutationFn: () => api<SourceRun>(`${path}/sync`, { method: 'POST' }),
    onSuccess: () => {
      toast.success('A sync has started.');
      void queryClient.invalidateQueries({ queryKey: ['source', sourceId] });
      void queryClient.invalidateQueries({ queryKey: ['sources'] });
    },
    onError: (err) =>
      toast.error(err instanceof ApiClientError && err.code === 'SOURCE_BUSY' ? errorMessage(err) : `The sync did not start: ${errorMessage(err)}`),
  });

  const update = useMutation({
    mutationFn: (changes: SourceChanges) => api<Source>(path, { method: 'PATCH', json: changes }),
    onSuccess: (saved, changes) => {
      queryClient.setQueryData(['source', sourceId], saved);
      void queryClient.invalidateQueries({ queryKey: ['sources'] });
      toast.success(changes.enabled === undefined ? 'Saved.' : changes.enabled ? 'The source syncs on its schedule again.' : 'The source no longer syncs by itself.');
    },
    onError: (err, changes) => {
      if (changes.enabled !== undefined) toast.error(`The change was not saved: ${errorMessage(err)}`);
    },
  });

  async function remove(keepDocuments: boolean) {
    try {
      await api(`${path}${keepDocuments ? '?keep_documents=true' : ''}`, { method: 'DELETE' });
    } catch (err) {
      toast.error(`The source was not deleted: ${errorMessage(err)}`);
      return;
    }
    queryClient.removeQueries({ queryKey: ['source', sourceId] });
    void queryClient.invalidateQueries({ queryKey: ['sources'] });
    if (kbId) void queryClient.invalidateQueries({ queryKey: ['knowledge-base', kbId] });
    toast.success(keepDocuments ? `“${source.data?.name}” was deleted; its documents were kept.` : `“${source.data?.name}” and its documents were deleted.`);
    router.push(kbId ? `/knowledge-bases/${kbId}` : '/sources');
  }

  if (source.isLoading) return <Loading label="Loading the source…" />;
  if (source.isError || !source.data) {
    return (
      <RecordNotLoaded
        title="Source"
        error={source.error}
        notFound="This source does not exist. It may have been deleted."
        failed="The source could not be loaded."
        onRetry={() => source.refetch()}
        backHref="/sources"
        backLabel="See all sources"
      />
    );
  }
  const s = source.data;
  const running = isActive(s.last_run);

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href={`/knowledge-bases/${s.knowledge_base_id}`} className="text-indigo-700 hover:underline">
          <span aria-hidden="true">← </span>
          {kb.data?.name ?? 'The knowledge base'}
        </Link>
      </nav>
      <PageHeader
        title={s.name}
        description={`${TYPE_NAMES[s.type]} source of ${kb.data ? `“${kb.data.name}”` : 'a knowledge base'}`}
        actions={
          <>
            <Button busy={sync.isPending} onClick={() => sync.mutate()} aria-describedby={running ? 'sync-running' : undefined}>
              Sync now
            </Button>
            <DeleteSource name={s.name} itemCount={s.item_count} onDelete={remove} />
          </>
        }
      />
      {running && (
        <p id="sync-running" className="sr-only">
          A sync is under way.
        </p>
      )}
      <div className="space-y-6">
        <SourceSettings source={s} kb={kb.data} onSave={(changes) => update.mutateAsync(changes)} saving={update.isPending} />
        <RunHistory sourceId={sourceId} sourceActive={running} onRetry={() => sync.mutate()} retrying={sync.isPending} />
      </div>
    </>
  );
}
