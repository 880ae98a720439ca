'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { AddDocuments } from '../add-documents';
import { ApiClientError, api, errorMessage, type Page } from '../api';
import { describeStrategy, KnowledgeBaseForm, type KnowledgeBase, type KnowledgeBaseFormValues } from '../knowledge-base-form';
import { Badge, Button, Card, ConfirmButton, Dialog, EmptyState, ErrorState, Loading, PageHeader, Pagination, ProgressBar, RelativeTime } from '../ui';

interface DocumentItem {
  id: string;
  file_id: string;
  title: string;
  status: 'pending' | 'indexing' | 'indexed' | 'failed';
  chunk_count: number;
  created_at: string;
}

interface DocumentDetail extends DocumentItem {
  error?: { code: string; message: string };
  indexed_at: string | null;
}

const LIMIT = 100;
const POLL_MS = 1500;

const STATUS: Record<DocumentItem['status'], { word: string; tone: 'yellow' | 'blue' | 'green' | 'red' }> = {
  pending: { word: 'Waiting', tone: 'yellow' },
  indexing: { word: 'Indexing', tone: 'blue' },
  indexed: { word: 'Indexed', tone: 'green' },
  failed: { word: 'Failed', tone: 'red' },
};

/** A document's status in words and colour. */
function DocumentStatus({ status }: { status: DocumentItem['status'] }) {
  return <Badge tone={STATUS[status].tone}>{STATUS[status].word}</Badge>;
}

/** Why a document failed, loaded when its row is shown. */
function FailureReason({ kbId, documentId }: { kbId: string; documentId: string }) {
  const detail = useQuery({
    queryKey: ['knowledge-base', kbId, 'document', documentId],
    queryFn: () => api<DocumentDetail>(`/v1/knowledge-bases/${kbId}/documents/${documentId}`),
  });
  if (!detail.data?.error) return null;
  return <p className="mt-1 text-xs text-red-700">{detail.data.error.message}</p>;
}

/** Documents with live statuses. On phones the counts and dates move under the title so the actions stay in view. */
function DocumentTable({ kbId, items, onRemove }: { kbId: string; items: DocumentItem[]; onRemove: (doc: DocumentItem) => Promise<unknown> }) {
  return (
    <div className="relative -mx-4 overflow-x-auto px-4">
      <table className="w-full text-left text-sm sm:min-w-[36rem]">
        <caption className="sr-only">Documents and their indexing status</caption>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">Document</th>
            <th scope="col" className="py-2 pr-4 font-medium">Status</th>
            <th scope="col" className="hidden py-2 pr-4 text-right font-medium sm:table-cell">Passages</th>
            <th scope="col" className="hidden py-2 pr-4 font-medium sm:table-cell">Added</th>
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((doc) => (
            <tr key={doc.id} data-testid="document-row">
              <td className="max-w-xs py-3 pr-4">
                <span className="break-all font-medium sm:break-words">{doc.title}</span>
                <span className="mt-0.5 block text-xs text-slate-600 sm:hidden">
                  {doc.status === 'indexed' && `${doc.chunk_count} ${doc.chunk_count === 1 ? 'passage' : 'passages'} · `}
                  added <RelativeTime iso={doc.created_at} />
                </span>
                {doc.status === 'failed' && <FailureReason kbId={kbId} documentId={doc.id} />}
              </td>
              <td className="py-3 pr-4">
                <DocumentStatus status={doc.status} />
              </td>
              <td className="hidden py-3 pr-4 text-right tabular-nums sm:table-cell">{doc.status === 'indexed' ? doc.chunk_count : '–'}</td>
              <td className="hidden whitespace-nowrap py-3 pr-4 text-slate-600 sm:table-cell">
                <RelativeTime iso={doc.created_at} />
              </td>
              <td className="py-3 text-right">
                <ConfirmButton
                  label="Remove"
                  variant="secondary"
                  title="Remove document"
                  confirmLabel="Remove"
                  message={
                    <p>
                      Remove <strong>{doc.title}</strong> from this knowledge base? Its passages will no longer be found. The file itself is kept.
                    </p>
                  }
                  onConfirm={() => onRemove(doc)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Facts about the knowledge base, with re-indexing progress while a new strategy is applied. */
function Summary({ kb }: { kb: KnowledgeBase }) {
  const facts: [string, ReactNode][] = [
    ['Documents', kb.document_count],
    ['Passages', kb.chunk_count],
    ['Passages are cut', describeStrategy(kb.chunking_strategy)],
    ['Created', <RelativeTime key="c" iso={kb.created_at} />],
    ['Last changed', <RelativeTime key="u" iso={kb.updated_at} />],
    ['Meaning model', `${kb.embedding.model} (${kb.embedding.provider})`],
  ];
  return (
    <Card title="About">
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-slate-500">{label}</dt>
            <dd className="break-words font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      {kb.index_status === 'reindexing' && kb.reindex && (
        <div className="mt-4 rounded-md bg-blue-50 p-3 text-sm text-blue-900" role="status">
          <p className="mb-2">
            Cutting documents again: {kb.reindex.documents_done} of {kb.document_count} done. Searches use the previous passages (
            {describeStrategy(kb.reindex.serving_chunking_strategy)}) until this finishes.
          </p>
          <ProgressBar value={kb.document_count ? (100 * kb.reindex.documents_done) / kb.document_count : 0} label="Re-indexing progress" />
        </div>
      )}
    </Card>
  );
}

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
    retry: (count, err) => !(err instanceof ApiClientError && err.status === 404) && count < 1,
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
    const missing = kb.error instanceof ApiClientError && kb.error.status === 404;
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
        <Card title="Documents" actions={<AddDocuments kbId={kbId} existingFileIds={existingFileIds} />}>
          <p aria-live="polite" className={working > 0 ? 'mb-3 text-sm text-blue-800' : 'sr-only'}>
            {working > 0
              ? `${working === 1 ? '1 document is' : `${working} documents are`} being indexed. This list updates by itself.`
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
              <p>Add files whose text has been extracted; they become searchable once indexed.</p>
            </EmptyState>
          )}
        </Card>
      </div>
    </>
  );
}
