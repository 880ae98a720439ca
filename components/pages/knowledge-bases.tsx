'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { api, errorMessage, type Page } from '../api';
import type { KnowledgeBase, KnowledgeBaseListItem } from '../api-types';
import { KnowledgeBaseForm, type KnowledgeBaseFormValues } from '../knowledge-base-form';
import { Button, Card, Dialog, EmptyState, ErrorState, Loading, PageHeader, Pagination, RelativeTime, Table, TableLink, type Column } from '../ui';

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
  const columns: Column<KnowledgeBaseListItem>[] = [
    {
      header: 'Name',
      className: 'max-w-md',
      cell: (kb) => (
        <>
          <TableLink href={`/knowledge-bases/${kb.id}`}>{kb.name}</TableLink>
          {kb.description && <p className="mt-0.5 line-clamp-2 text-slate-600">{kb.description}</p>}
        </>
      ),
    },
    { header: 'Documents', headerClassName: 'text-right', className: 'text-right tabular-nums', cell: (kb) => kb.document_count },
    { header: 'Passages', headerClassName: 'text-right', className: 'text-right tabular-nums', cell: (kb) => kb.chunk_count },
    { header: 'Created', className: 'whitespace-nowrap text-slate-600', cell: (kb) => <RelativeTime iso={kb.created_at} /> },
  ];
  return <Table look="roomy" caption="Knowledge bases" className="min-w-[36rem]" columns={columns} rows={items} rowKey={(kb) => kb.id} />;
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
          <p>Create one, then add files to it: they are turned into text and indexed for search.</p>
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
