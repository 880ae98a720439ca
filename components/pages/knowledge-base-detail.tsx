'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { AddDocuments } from '../add-documents';
import { api, errorMessage, type Page } from '../api';
import type { DocumentItem, KnowledgeBase } from '../api-types';
import { KnowledgeBaseForm, type KnowledgeBaseFormValues } from '../knowledge-base-form';
import { DocumentTable } from '../knowledge-bases/document-table';
import { RetryAllFailed } from '../knowledge-bases/retry';
import { Summary } from '../knowledge-bases/summary';
import { KnowledgeBaseSources } from '../sources/kb-sources';
import { isNotFound, retryUnlessNotFound } from '../not-found';
import { Button, Card, ConfirmButton, Dialog, EmptyState, ErrorState, Loading, PageHeader, Pagination } from '../ui';

const LIMIT = 100;
const POLL_MS = 1500;

/** One knowledge base: its settings, its documents (updating live) and the ways to change them. */
export function KnowledgeBaseDetail({ kbId }: { kbId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [offset, setOffset] = useState(0);

  const kb = useQuery({
    queryKey: ['knowledge-base', kbId],
    queryFn: () => api<KnowledgeBase>(`/v1/knowledge-bases/${kbId}`),
    refetchInterval: (query) => (query.state.data?.index_status === 'reindexing' ? POLL_MS : false),
    retry: retryUnlessNotFound,
  });
  const documents = useQuery({
    queryKey: ['knowledge-base', kbId, 'documents', { offset }],
    queryFn: () => api<Page<DocumentItem>>(`/v1/knowledge-bases/${kbId}/documents?limit=${LIMIT}&offset=${offset}`),
    enabled: kb.isSuccess,
    placeholderData: (previous) => previous,
    refetchInterval: (query) =>
      query.state.data?.items.some((d) => d.status === 'pending' || d.status === 'indexing') || kb.data?.index_status === 'reindexing'
        ? POLL_MS
        : false,
  });

  const items = documents.data?.items;
  const working = items?.filter((d) => d.status === 'pending' || d.status === 'indexing').length ?? 0;
  const existingFileIds = useMemo(() => new Set((items ?? []).map((d) => d.file_id)), [items]);

  /* Counts on the knowledge base follow the documents as they finish. */
  const doneSignature = items?.map((d) => `${d.id}:${d.status}`).join(',');
  const seenSignature = useRef(doneSignature);
  useEffect(() => {
    if (doneSignature === seenSignature.current) return;
    if (seenSignature.current !== undefined) queryClient.invalidateQueries({ queryKey: ['knowledge-base', kbId], exact: true });
    seenSignature.current = doneSignature;
  }, [doneSignature, kbId, queryClient]);

  const update = useMutation({
    mutationFn: (values: KnowledgeBaseFormValues) => {
      const current = kb.data!.chunking_strategy;
      const next = values.chunking_strategy;
      const strategyChanged = current.type !== next.type || current.chunk_size !== next.chunk_size || current.overlap !== next.overlap;
      return api<KnowledgeBase>(`/v1/knowledge-bases/${kbId}`, {
        method: 'PATCH',
        json: { name: values.name, description: values.description, ...(strategyChanged ? { chunking_strategy: next } : {}) },
      });
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(['knowledge-base', kbId], updated);
      queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
      toast.success(updated.index_status === 'reindexing' ? 'Saved. Documents are being cut again in the background.' : 'Saved.');
      setEditing(false);
    },
    onError: (err) => toast.error(`Your changes were not saved: ${errorMessage(err)}`),
  });

  async function removeKnowledgeBase() {
    try {
      await api(`/v1/knowledge-bases/${kbId}`, { method: 'DELETE' });
    } catch (err) {
      toast.error(`The knowledge base was not deleted: ${errorMessage(err)}`);
      return;
    }
    queryClient.removeQueries({ queryKey: ['knowledge-base', kbId] });
    queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
    toast.success(`“${kb.data?.name}” was deleted.`);
    router.push('/knowledge-bases');
  }

  async function removeDocument(doc: DocumentItem) {
    try {
      await api(`/v1/knowledge-bases/${kbId}/documents/${doc.id}`, { method: 'DELETE' });
    } catch (err) {
      toast.error(`${doc.title} was not removed: ${errorMessage(err)}`);
      return;
    }
    queryClient.invalidateQueries({ queryKey: ['knowledge-base', kbId] });
    queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
    toast.success(`${doc.title} was removed.`);
  }

  if (kb.isLoading) return <Loading label="Loading the knowledge base…" />;
  if (kb.isError) {
    const missing = isNotFound(kb.error);
    return (
      <>
        <PageHeader title={missing ? 'Knowledge base not found' : 'Knowledge base'} />
        {missing ? (
          <EmptyState title="This knowledge base does not exist">
            <p>It may have been deleted.</p>
            <Link href="/knowledge-bases" className="mt-3 inline-block text-indigo-700 underline">
              See all knowledge bases
            </Link>
          </EmptyState>
        ) : (
          <ErrorState error={errorMessage(kb.error)} onRetry={() => kb.refetch()} />
        )}
      </>
    );
  }
  const data = kb.data!;

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/knowledge-bases" className="text-indigo-700 hover:underline">
          Knowledge bases
        </Link>
      </nav>
      <PageHeader
        title={data.name}
        description={data.description || undefined}
        actions={
          <>
            <Link
              href={`/search?kb=${data.id}`}
              className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Search this knowledge base
            </Link>
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <ConfirmButton
              label="Delete"
              title="Delete knowledge base"
              message={
                <p>
                  Delete <strong>{data.name}</strong> and its {data.document_count === 1 ? 'document' : `${data.document_count} documents`}? Searches
                  will stop finding them. Your files are kept.
                </p>
              }
              onConfirm={removeKnowledgeBase}
            />
          </>
        }
      />
      <Dialog open={editing} title="Edit knowledge base" onClose={() => setEditing(false)}>
        {editing && (
          <KnowledgeBaseForm
            editing
            initial={{ name: data.name, description: data.description, chunking_strategy: data.chunking_strategy }}
            submitLabel="Save changes"
            onCancel={() => setEditing(false)}
            onSubmit={(values) => update.mutateAsync(values).catch(() => undefined)}
          />
        )}
      </Dialog>
      <div className="space-y-6">
        <Summary kb={data} />
        <KnowledgeBaseSources kbId={kbId} />
        <Card
          title="Documents"
          actions={
            <>
              <RetryAllFailed kbId={kbId} signature={doneSignature} />
              <AddDocuments kbId={kbId} existingFileIds={existingFileIds} />
            </>
          }
        >
          <p aria-live="polite" className={working > 0 ? 'mb-3 text-sm text-blue-800' : 'sr-only'}>
            {working > 0
              ? `${working === 1 ? '1 document is' : `${working} documents are`} being prepared (turned into text, then indexed). This list updates by itself.`
              : items && items.length > 0
                ? 'All documents are indexed or finished.'
                : ''}
          </p>
          {documents.isLoading ? (
            <Loading label="Loading documents…" />
          ) : documents.isError ? (
            <ErrorState error={errorMessage(documents.error)} onRetry={() => documents.refetch()} />
          ) : items && items.length > 0 ? (
            <>
              <DocumentTable kbId={kbId} items={items} onRemove={removeDocument} />
              <Pagination total={documents.data!.total} limit={LIMIT} offset={offset} onChange={setOffset} />
            </>
          ) : (
            <EmptyState title="No documents yet">
              <p>Add files; those without text are turned into text first, and all become searchable once indexed.</p>
            </EmptyState>
          )}
        </Card>
      </div>
    </>
  );
}
