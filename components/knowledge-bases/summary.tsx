import type { ReactNode } from 'react';
import type { KnowledgeBase } from '../api-types';
import { describeStrategy } from '../knowledge-base-form';
import { Card, ProgressBar, RelativeTime } from '../ui';

/** Facts about the knowledge base, with re-indexing progress while a new strategy is applied. */
export function Summary({ kb }: { kb: KnowledgeBase }) {
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
            <dt className="text-slate-600">{label}</dt>
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
