'use client';

import type { DocumentItem } from '../api-types';
import { withoutCodes } from '../files-common';
import { Badge, ConfirmButton, RelativeTime, Table, type Column } from '../ui';
import { DocumentOrigin, VersionNote } from '../sources/origin';
import { RetryDocumentButton } from './retry';

const STATUS: Record<DocumentItem['status'], { word: string; tone: 'yellow' | 'blue' | 'green' | 'red' }> = {
  pending: { word: 'Waiting', tone: 'yellow' },
  indexing: { word: 'Indexing', tone: 'blue' },
  indexed: { word: 'Indexed', tone: 'green' },
  failed: { word: 'Failed', tone: 'red' },
};

/** A document's status in words and colour; one still waiting for its text shows how far that is. */
function DocumentStatus({ doc }: { doc: DocumentItem }) {
  if (doc.status === 'pending' && doc.waiting_for === 'extraction') {
    return <Badge tone="blue">Turning into text… {doc.extraction_progress ?? 0}%</Badge>;
  }
  return <Badge tone={STATUS[doc.status].tone}>{STATUS[doc.status].word}</Badge>;
}

/** Why a document failed, as the list reports it. */
function FailureReason({ error }: { error: DocumentItem['error'] }) {
  if (!error) return null;
  return (
    <p className="mt-1 text-xs text-red-700" data-testid="failure-reason">
      <span className="font-medium">Why it failed: </span>
      {withoutCodes(error.message) || 'the reason was not recorded.'}
    </p>
  );
}

/** Documents with live statuses. On phones the counts and dates move under the title so the actions stay in view. */
export function DocumentTable({ kbId, items, onRemove }: { kbId: string; items: DocumentItem[]; onRemove: (doc: DocumentItem) => Promise<unknown> }) {
  const columns: Column<DocumentItem>[] = [
    {
      header: 'Document',
      className: 'max-w-xs',
      cell: (doc) => (
        <>
          <span className="break-all font-medium sm:break-words">{doc.title}</span>
          <VersionNote version={doc.file_version} latest={doc.latest_file_version} />
          <DocumentOrigin item={doc.source_item} />
          <span className="mt-0.5 block text-xs text-slate-600 sm:hidden">
            {doc.status === 'indexed' && `${doc.chunk_count} ${doc.chunk_count === 1 ? 'passage' : 'passages'} · `}
            added <RelativeTime iso={doc.created_at} />
          </span>
          {doc.status === 'failed' && <FailureReason error={doc.error} />}
        </>
      ),
    },
    { header: 'Status', cell: (doc) => <DocumentStatus doc={doc} /> },
    {
      header: 'Passages',
      wideOnly: true,
      headerClassName: 'text-right',
      className: 'text-right tabular-nums',
      cell: (doc) => (doc.status === 'indexed' ? doc.chunk_count : '–'),
    },
    { header: 'Added', wideOnly: true, className: 'whitespace-nowrap text-slate-600', cell: (doc) => <RelativeTime iso={doc.created_at} /> },
    {
      header: 'Actions',
      hideHeader: true,
      className: 'text-right',
      cell: (doc) => (
        <div className="flex flex-wrap justify-end gap-2">
          {doc.status === 'failed' && <RetryDocumentButton kbId={kbId} doc={doc} />}
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
        </div>
      ),
    },
  ];
  return (
    <Table
      look="roomy"
      caption="Documents and their indexing status"
      className="sm:min-w-[36rem]"
      columns={columns}
      rows={items}
      rowKey={(doc) => doc.id}
      rowTestId="document-row"
    />
  );
}
