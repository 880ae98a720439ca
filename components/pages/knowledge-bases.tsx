'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { api, errorMessage, type Page } from '../api';
import { KnowledgeBaseForm, type KnowledgeBase, type KnowledgeBaseFormValues, type KnowledgeBaseListItem } from '../knowledge-base-form';
import { Button, Card, Dialog, EmptyState, ErrorState, Loading, PageHeader, Pagination, RelativeTime } from '../ui';

const LIMIT = 20;

/** The dialog that creates a knowledge base and opens it. */
function CreateKnowledgeBase({ open, onClose }: { open: boolean; onClose: () => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (values: KnowledgeBaseFormValues) => api<KnowledgeBase>('/v1/knowledge-bases', { method: 'POST', json: values }),
    onSuccess: (kb) => {
      queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
      queryClient.setQueryData(['knowledge-base', kb.id], kb);
      toast.success(`“${kb.name}” was created. Add documents to it next.`);
      onClose();
      router.push(`/knowledge-bases/${kb.id}`);
    },
    onError: (err) => toast.error(`The knowledge base was not created: ${errorMessage(err)}`),
  });
  return (
    <Dialog open={open} title="New knowledge base" onClose={onClose}>
      {open && (
        <KnowledgeBaseForm
          submitLabel="Create knowledge base"
          onCancel={onClose}
          onSubmit={(values) => create.mutateAsync(values).catch(() => undefined)}
        />
      )}
    </Dialog>
  );
}

/** A table of knowledge bases that scrolls sideways inside its card on narrow screens. */
function KnowledgeBaseTable({ items }: { items: KnowledgeBaseListItem[] }) {
  return (
    <div className="relative -mx-4 overflow-x-auto px-4">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">Knowledge bases</caption>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">Name</th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">Documents</th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">Passages</th>
            <th scope="col" className="py-2 font-medium">Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((kb) => (
            <tr key={kb.id}>
              <td className="max-w-md py-3 pr-4">
                <Link href={`/knowledge-bases/${kb.id}`} className="font-medium text-indigo-700 hover:underline">
                  {kb.name}
                </Link>
                {kb.description && <p className="mt-0.5 line-clamp-2 text-slate-600">{kb.description}</p>}
              </td>
              <td className="py-3 pr-4 text-right tabular-nums">{kb.document_count}</td>
              <td className="py-3 pr-4 text-right tabular-nums">{kb.chunk_count}</td>
              <td className="whitespace-nowrap py-3 text-slate-600">
                <RelativeTime iso={kb.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every knowledge base, with a way to create one. */
export function KnowledgeBases() {
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    queryKey: ['knowledge-bases', { offset }],
    queryFn: () => api<Page<KnowledgeBaseListItem>>(`/v1/knowledge-bases?limit=${LIMIT}&offset=${offset}&sort_by=created_at&order=desc`),
    placeholderData: (previous) => previous,
  });

  return (
    <>
      <PageHeader
        title="Knowledge bases"
        description="Collections of extracted documents that people and programs can search by meaning or by keywords."
        actions={<Button onClick={() => setCreating(true)}>New knowledge base</Button>}
      />
      <CreateKnowledgeBase open={creating} onClose={() => setCreating(false)} />
      {list.isLoading ? (
        <Loading label="Loading knowledge bases…" />
      ) : list.isError ? (
        <ErrorState error={errorMessage(list.error)} onRetry={() => list.refetch()} />
      ) : list.data && list.data.total === 0 ? (
        <EmptyState title="No knowledge bases yet">
          <p>Create one, then add documents whose text has been extracted.</p>
          <Button className="mt-4" onClick={() => setCreating(true)}>
            New knowledge base
          </Button>
        </EmptyState>
      ) : list.data ? (
        <Card>
          <KnowledgeBaseTable items={list.data.items} />
          <Pagination total={list.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />
        </Card>
      ) : null}
    </>
  );
}
