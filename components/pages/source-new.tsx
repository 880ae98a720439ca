'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { api } from '../api';
import type { KnowledgeBase, Source } from '../api-types';
import { RecordNotLoaded, retryUnlessNotFound } from '../not-found';
import { SourceForm, type NewSource } from '../sources/source-form';
import { Card, Loading, PageHeader } from '../ui';

/** Adding a source to a knowledge base; once saved, its page opens (showing its first sync). */
export function NewSourcePage({ kbId }: { kbId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const kb = useQuery({
    queryKey: ['knowledge-base', kbId],
    queryFn: () => api<KnowledgeBase>(`/v1/knowledge-bases/${kbId}`),
    retry: retryUnlessNotFound,
  });

  async function create(body: NewSource): Promise<Source> {
    const source = await api<Source>('/v1/sources', { method: 'POST', json: body });
    queryClient.setQueryData(['source', source.id], source);
    void queryClient.invalidateQueries({ queryKey: ['sources'] });
    toast.success(body.sync ? `“${source.name}” was added. Its first sync has started.` : `“${source.name}” was added.`);
    router.push(`/sources/${source.id}`);
    return source;
  }

  if (kb.isLoading) return <Loading label="Loading the knowledge base…" />;
  if (kb.isError || !kb.data) {
    return (
      <RecordNotLoaded
        title="Add a source"
        error={kb.error}
        notFound="This knowledge base does not exist. It may have been deleted."
        failed="The knowledge base could not be loaded."
        onRetry={() => kb.refetch()}
        backHref="/knowledge-bases"
        backLabel="See all knowledge bases"
      />
    );
  }
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href={`/knowledge-bases/${kbId}`} className="text-indigo-700 hover:underline">
          <span aria-hidden="true">← </span>
          {kb.data.name}
        </Link>
      </nav>
      <PageHeader
        title="Add a source"
        description={`A source keeps “${kb.data.name}” in step with a website, a document on the web or a bucket: new items are added, changed ones updated, and gone ones removed on each sync.`}
      />
      <Card>
        <SourceForm kbId={kbId} onSubmit={create} />
      </Card>
    </>
  );
}
