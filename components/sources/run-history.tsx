'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorMessage, type Page } from '../api';
import type { SourceRun, SourceRunDetail } from '../api-types';
import { Badge, Button, Card, EmptyState, ErrorState, Loading, Pagination, ProgressBar, RelativeTime, Table, type Column } from '../ui';
import { countsParts, isActive, RUN_STATUS, TRIGGER_WORDS } from './describe';

/*
 * The syncs of a source, newest first, refreshing while one is under way; a sync whose items
 * failed lists them with why, and offers to sync again.
 */

const LIMIT = 20;
const POLL_MS = 1500;

/** How far the sync under way is. */
export function ActiveRun({ run }: { run: SourceRun }) {
  const status = RUN_STATUS[run.status];
  const sentence =
    run.status === 'queued'
      ? 'The sync is waiting to start.'
      : run.status === 'indexing'
        ? `All ${run.items_total} items are fetched; the documents are being made searchable.`
        : run.items_total > 0
          ? `Fetching: ${run.items_done} of ${run.items_total} items done so far.`
          : 'Looking for items…';
  return (
    <div role="status" className="mb-4 space-y-2 rounded-md bg-blue-50 p-3 text-sm text-blue-900" data-testid="active-run">
      <p>
        <span className="font-medium">{status.word}.</span> {sentence}
      </p>
      <ProgressBar value={run.items_total ? (100 * run.items_done) / run.items_total : 0} label="Sync progress" />
    </div>
  );
}

function Failures({ sourceId, run, onRetry, retrying }: { sourceId: string; run: SourceRun; onRetry: () => void; retrying: boolean }) {
  const detail = useQuery({
    queryKey: ['source', sourceId, 'runs', run.id],
    queryFn: () => api<SourceRunDetail>(`/v1/sources/${sourceId}/runs/${run.id}`),
    refetchInterval: isActive(run) ? POLL_MS : false,
  });
  if (detail.isLoading) return <Loading label="Loading the failures…" />;
  if (detail.isError) return <ErrorState error={errorMessage(detail.error)} onRetry={() => detail.refetch()} />;
  const failures = detail.data!.failures;
  return (
    <div className="mt-2 space-y-2">
      <ul aria-label="Items that failed" className="space-y-2">
        {failures.map((f) => (
          <li key={f.key} className="rounded border border-red-100 bg-red-50 p-2 text-xs">
            <span className="block font-mono break-all text-slate-800">{f.url || f.key}</span>
            <span className="block text-red-800">Why: {f.reason}</span>
          </li>
        ))}
      </ul>
      {run.counts.failed > failures.length && <p className="text-xs text-slate-600">The first {failures.length} are shown.</p>}
      <Button variant="secondary" busy={retrying} onClick={onRetry}>
        Retry<span className="sr-only"> the failed items (a new sync)</span>
      </Button>
    </div>
  );
}

function Outcome({ sourceId, run, onRetry, retrying }: { sourceId: string; run: SourceRun; onRetry: () => void; retrying: boolean }) {
  const [open, setOpen] = useState(false);
  const parts = countsParts(run.counts);
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap gap-x-2 text-sm" data-testid="run-counts">
        {parts.length === 0 ? (
          <span className="text-slate-600">Nothing yet</span>
        ) : (
          parts.map((p, i) => (
            <span key={p.key} className={p.tone === 'bad' ? 'font-medium text-red-700' : undefined}>
              {i > 0 && <span aria-hidden="true" className="mr-2 text-slate-400">·</span>}
              {p.text}
            </span>
          ))
        )}
      </p>
      {run.error && <p className="mt-1 text-xs text-red-700">Why it failed: {run.error.message}</p>}
      {run.limit_reached && <p className="mt-1 text-xs text-amber-800">The source has more items than one sync takes; nothing was removed.</p>}
      {run.counts.failed > 0 && (
        <>
          <button type="button" aria-expanded={open} className="mt-1 text-xs font-medium text-indigo-700 hover:underline" onClick={() => setOpen((v) => !v)}>
            {open ? 'Hide the failures' : `See ${run.counts.failed === 1 ? 'the failure' : `the ${run.counts.failed} failures`}`}
          </button>
          {open && <Failures sourceId={sourceId} run={run} onRetry={onRetry} retrying={retrying} />}
        </>
      )}
    </div>
  );
}

export function RunHistory({ sourceId, sourceActive, onRetry, retrying }: { sourceId: string; sourceActive: boolean; onRetry: () => void; retrying: boolean }) {
  const [offset, setOffset] = useState(0);
  const runs = useQuery({
    queryKey: ['source', sourceId, 'runs', { offset }],
    queryFn: () => api<Page<SourceRun>>(`/v1/sources/${sourceId}/runs?limit=${LIMIT}&offset=${offset}`),
    placeholderData: (previous) => previous,
    refetchInterval: (query) => (sourceActive || query.state.data?.items.some(isActive) ? POLL_MS : false),
  });
  const columns: Column<SourceRun>[] = [
    {
      header: 'Status',
      cell: (run) => (
        <span className="space-y-1">
          <Badge tone={RUN_STATUS[run.status].tone}>{RUN_STATUS[run.status].word}</Badge>
          {isActive(run) && run.items_total > 0 && (
            <span className="block text-xs text-slate-700">
              {run.items_done} of {run.items_total} items
            </span>
          )}
        </span>
      ),
    },
    { header: 'Started', className: 'whitespace-nowrap', cell: (run) => <RelativeTime iso={run.started_at ?? run.created_at} /> },
    { header: 'Why', cell: (run) => TRIGGER_WORDS[run.trigger] },
    { header: 'What it did', className: 'max-w-md', cell: (run) => <Outcome sourceId={sourceId} run={run} onRetry={onRetry} retrying={retrying} /> },
    { header: 'Ended', className: 'whitespace-nowrap', cell: (run) => (run.completed_at ? <RelativeTime iso={run.completed_at} /> : <span className="text-slate-600">Not yet</span>) },
  ];
  return (
    <Card title="Syncs">
      {runs.isLoading ? (
        <Loading label="Loading syncs…" />
      ) : runs.isError ? (
        <ErrorState error={errorMessage(runs.error)} onRetry={() => runs.refetch()} />
      ) : runs.data && runs.data.items.length > 0 ? (
        <>
          {offset === 0 && isActive(runs.data.items[0]) && <ActiveRun run={runs.data.items[0]!} />}
          <Table look="roomy" caption="Syncs of this source, newest first" cardsOnPhones className="sm:min-w-[40rem]" columns={columns} rows={runs.data.items} rowKey={(r) => r.id} rowTestId="run-row" />
          <Pagination total={runs.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />
        </>
      ) : (
        <EmptyState title="No syncs yet">
          <p>Use “Sync now” to fetch the source’s items.</p>
        </EmptyState>
      )}
    </Card>
  );
}
