'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { ApiClientError, api, errorMessage, type Page } from '../api';
import type { EventItem } from '../api-types';
import { useHealth } from '../hooks';
import { Card, ErrorState, Loading, PageHeader, RelativeTime, StatusBadge } from '../ui';

function Count({ label, href, path }: { label: string; href: string; path: string }) {
  const q = useQuery({ queryKey: ['count', path], queryFn: () => api<Page<unknown>>(`${path}?limit=1`) });
  return (
    <Link href={href} className="block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-indigo-300">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-semibold">{q.data ? q.data.total : q.isError ? '–' : '…'}</p>
    </Link>
  );
}

/** Counts, service health and recent activity. */
export function Overview() {
  const health = useHealth();
  const events = useQuery({ queryKey: ['events', 'recent'], queryFn: () => api<Page<EventItem>>('/v1/events?limit=10'), retry: false });
  return (
    <>
      <PageHeader title="Overview" description="Your documents, knowledge bases and the state of the service." />
      <div className="grid gap-4 sm:grid-cols-2">
        <Count label="Files" href="/files" path="/v1/files" />
        <Count label="Knowledge bases" href="/knowledge-bases" path="/v1/knowledge-bases" />
      </div>
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <Card title="Service health">
          {health.isLoading ? (
            <Loading />
          ) : health.data ? (
            <ul className="space-y-2 text-sm">
              {Object.entries(health.data.components).map(([name, c]) => (
                <li key={name} className="flex items-center justify-between gap-2">
                  <span>
                    <span className="capitalize">{name === 'pipeline' ? 'Background work' : name}</span>
                    {c.kind && <span className="ml-2 text-xs text-slate-500">{c.kind}</span>}
                    {'queued' in c && c.queued !== undefined && (
                      <span className="ml-2 text-xs text-slate-500">
                        {c.running ?? 0} running · {c.queued} waiting
                      </span>
                    )}
                  </span>
                  <span className="flex items-center gap-2">
                    {c.latency_ms !== undefined && <span className="text-slate-500">{Math.round(c.latency_ms)} ms</span>}
                    <StatusBadge status={c.status} />
                  </span>
                </li>
              ))}
              <li className="flex items-center justify-between gap-2">
                <span>Version</span>
                <span className="text-slate-600">{health.data.version}</span>
              </li>
            </ul>
          ) : (
            <ErrorState error="Health information is not available." />
          )}
        </Card>
        <Card title="Recent activity">
          {events.isLoading ? (
            <Loading />
          ) : events.isError ? (
            <p className="text-sm text-slate-600">
              {events.error instanceof ApiClientError && events.error.status === 403
                ? 'Recent activity is shown to administrators.'
                : errorMessage(events.error)}
            </p>
          ) : events.data && events.data.items.length > 0 ? (
            <ul className="divide-y divide-slate-100 text-sm">
              {events.data.items.map((e) => (
                <li key={e.id} className="flex justify-between gap-2 py-2">
                  <span className="font-mono text-xs">{e.type}</span>
                  <RelativeTime iso={e.created_at} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">Nothing has happened yet. Upload a file to begin.</p>
          )}
        </Card>
      </div>
    </>
  );
}
