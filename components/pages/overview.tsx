'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { ApiClientError, api, errorMessage, type Page } from '../api';
import type { EventItem, FileListItem, HealthDetail, KnowledgeBaseListItem, User } from '../api-types';
import { useHealth, useMe } from '../hooks';
import { Badge, Card, ErrorState, Loading, PageHeader, RelativeTime } from '../ui';

function Count({ label, href, path }: { label: string; href: string; path: string }) {
  const q = useQuery({ queryKey: ['count', path], queryFn: () => api<Page<unknown>>(`${path}?limit=1`) });
  return (
    <Link href={href} className="block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-indigo-300">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-semibold">{q.data ? q.data.total : q.isError ? '–' : '…'}</p>
    </Link>
  );
}

/* Service health in plain words; how each part is set up is shown to administrators only. */

const PART_NAMES: Record<string, string> = { database: 'Database', storage: 'File storage', pipeline: 'Background work' };
const SETUP_WORDS: Record<string, string> = {
  pglite: 'built into Quarry',
  postgres: 'separate database server',
  local: 'on this server’s disk',
  s3: 'cloud file storage',
  embedded: 'runs inside Quarry',
  inngest: 'separate job service',
};

function HealthList({ health, admin }: { health: HealthDetail; admin: boolean }) {
  return (
    <ul className="space-y-2 text-sm">
      {Object.entries(health.components).map(([name, part]) => (
        <li key={name} className="flex items-center justify-between gap-2">
          <span>
            <span>{PART_NAMES[name] ?? 'Other part'}</span>
            {admin && SETUP_WORDS[part.kind] && <span className="ml-2 text-xs text-slate-600">{SETUP_WORDS[part.kind]}</span>}
            {'queued' in part && part.queued !== undefined && (
              <span className="ml-2 text-xs text-slate-600">
                {part.running ?? 0} running · {part.queued} waiting
              </span>
            )}
          </span>
          <span className="flex items-center gap-2">
            {admin && part.latency_ms !== undefined && <span className="text-xs text-slate-600">answers in {Math.round(part.latency_ms)} ms</span>}
            {part.status === 'healthy' ? <Badge tone="green">working</Badge> : <Badge tone="red">not working</Badge>}
          </span>
        </li>
      ))}
      <li className="flex items-center justify-between gap-2">
        <span>Version</span>
        <span className="text-slate-600">{health.version}</span>
      </li>
    </ul>
  );
}

/* Recent activity as sentences, with the names of the files, knowledge bases and people involved. */

interface Names {
  files: Map<string, string>;
  kbs: Map<string, string>;
  users: Map<string, string>;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined);
const quoted = (name: string | undefined) => (name ? `“${name}”` : undefined);

/** One event in a sentence, such as "report.pdf was turned into text". */
export function describeEvent(event: EventItem, names: Names): string {
  const d = event.data;
  const file = text(d.filename) ?? names.files.get(String(d.file_id)) ?? 'A file';
  const kbName = text(d.name) ?? names.kbs.get(String(d.kb_id));
  const kb = quoted(kbName) ?? 'a knowledge base';
  const person = names.users.get(String(d.user_id)) ?? 'A user';
  switch (event.type) {
    case 'file.uploaded':
      return `${file} was uploaded`;
    case 'file.deleted':
      return `${file} was deleted`;
    case 'extraction.started':
      return `Turning ${file} into text started`;
    case 'extraction.completed':
      return `${file} was turned into text`;
    case 'extraction.failed':
      return `${file} could not be turned into text`;
    case 'document.indexing':
      return `${file} is being added to ${kb}`;
    case 'document.indexed':
      return `${file} can now be searched in ${kb}`;
    case 'document.index_failed':
      return `${file} could not be added to ${kb}`;
    case 'document.deleted':
      return `${file} was removed from ${kb}`;
    case 'knowledge_base.created':
      return kbName ? `Knowledge base ${quoted(kbName)} was created` : 'A knowledge base was created';
    case 'knowledge_base.deleted':
      return kbName ? `Knowledge base ${quoted(kbName)} was deleted` : 'A knowledge base was deleted';
    case 'user.created':
      return `${person} was given an account${d.role === 'admin' ? ' as an administrator' : ''}`;
    case 'user.updated':
      return `${person}’s account was changed`;
    case 'user.password_reset':
      return `${person} was given a new password`;
    case 'api_key.created':
      return text(d.name) ? `Key ${quoted(text(d.name))} was created` : 'An API key was created';
    case 'api_key.revoked':
      return text(d.name) ? `Key ${quoted(text(d.name))} was revoked` : 'An API key was revoked';
    default: {
      const words = event.type.replace(/[._]+/g, ' ').trim();
      return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : 'Something happened';
    }
  }
}

const NAME_LIMIT = 100;

/** The names the sentences need, from the lists the console already reads (no request per event). */
function useNames(enabled: boolean): Names {
  const options = { enabled, retry: false, staleTime: 30_000 } as const;
  const read = <T,>(path: string) => () => api<Page<T>>(`${path}?limit=${NAME_LIMIT}`).then((p) => p.items);
  const files = useQuery({ queryKey: ['names', 'files'], queryFn: read<FileListItem>('/v1/files'), ...options });
  const kbs = useQuery({ queryKey: ['names', 'kbs'], queryFn: read<KnowledgeBaseListItem>('/v1/knowledge-bases'), ...options });
  const users = useQuery({ queryKey: ['names', 'users'], queryFn: read<User>('/v1/users'), ...options });
  return {
    files: new Map((files.data ?? []).map((f) => [f.id, f.filename])),
    kbs: new Map((kbs.data ?? []).map((k) => [k.id, k.name])),
    users: new Map((users.data ?? []).map((u) => [u.id, u.name || u.email])),
  };
}

function RecentActivity() {
  const events = useQuery({ queryKey: ['events', 'recent'], queryFn: () => api<Page<EventItem>>('/v1/events?limit=10'), retry: false });
  const names = useNames(events.isSuccess && events.data.items.length > 0);
  if (events.isLoading) return <Loading />;
  if (events.isError) {
    return (
      <p className="text-sm text-slate-600">
        {events.error instanceof ApiClientError && events.error.status === 403 ? 'Recent activity is shown to administrators.' : errorMessage(events.error)}
      </p>
    );
  }
  if (!events.data || events.data.items.length === 0) return <p className="text-sm text-slate-600">Nothing has happened yet. Upload a file to begin.</p>;
  return (
    <ul aria-label="Recent activity" className="divide-y divide-slate-100 text-sm">
      {events.data.items.map((e) => (
        <li key={e.id} className="flex justify-between gap-3 py-2">
          <span className="min-w-0 break-words">{describeEvent(e, names)}</span>
          <span className="shrink-0 text-slate-600">
            <RelativeTime iso={e.created_at} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Counts, service health and recent activity. */
export function Overview() {
  const health = useHealth();
  const me = useMe();
  const admin = me.data?.role === 'admin';
  return (
    <>
      <PageHeader title="Overview" description="Your documents, knowledge bases and the state of the service." />
      <div className="grid gap-4 sm:grid-cols-2">
        <Count label="Files" href="/files" path="/v1/files" />
        <Count label="Knowledge bases" href="/knowledge-bases" path="/v1/knowledge-bases" />
      </div>
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <Card title="Service health">
          {health.isLoading ? <Loading /> : health.data ? <HealthList health={health.data} admin={admin} /> : <ErrorState error="Health information is not available." />}
        </Card>
        <Card title="Recent activity">
          <RecentActivity />
        </Card>
      </div>
    </>
  );
}
