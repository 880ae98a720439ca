'use client';

import type { Source } from '../api-types';
import { Badge, RelativeTime, Table, TableLink, type Column } from '../ui';
import { countsText, isActive, RUN_STATUS, scheduleWords, TYPE_NAMES, whereFrom } from './describe';

/* Sources in a table: what each reads, when it syncs, and how its newest sync went. */

/** The newest sync in a few words: its status, its counts, and when. */
export function LastSync({ source }: { source: Source }) {
  const run = source.last_run;
  if (!run) return <span className="text-slate-600">Not synced yet</span>;
  const status = RUN_STATUS[run.status];
  return (
    <div className="space-y-0.5">
      <Badge tone={status.tone}>{status.word}</Badge>
      <span className="block text-xs text-slate-700">
        {isActive(run) && run.items_total > 0 ? `${run.items_done} of ${run.items_total} items · ` : ''}
        {countsText(run.counts)}
      </span>
      <span className="block text-xs text-slate-600">
        {run.completed_at ? (
          <>
            ended <RelativeTime iso={run.completed_at} />
          </>
        ) : (
          <>
            started <RelativeTime iso={run.started_at ?? run.created_at} />
          </>
        )}
      </span>
    </div>
  );
}

/** When the next sync starts by itself, in words. */
export function NextSync({ source }: { source: Source }) {
  if (!source.enabled) return <span className="text-slate-600">Turned off</span>;
  if (!source.next_sync_at) return <span className="text-slate-600">When asked</span>;
  return <RelativeTime iso={source.next_sync_at} />;
}

export function SourceTable({ items, knowledgeBaseNames }: { items: Source[]; knowledgeBaseNames?: Map<string, string> }) {
  const columns: Column<Source>[] = [
    {
      header: 'Source',
      className: 'max-w-xs',
      cell: (s) => (
        <>
          <TableLink href={`/sources/${s.id}`} className="break-words">
            {s.name}
          </TableLink>
          <span className="mt-0.5 block font-mono text-xs break-all text-slate-600">{whereFrom(s)}</span>
        </>
      ),
    },
    ...(knowledgeBaseNames
      ? [
          {
            header: 'Knowledge base',
            cell: (s: Source) => <TableLink href={`/knowledge-bases/${s.knowledge_base_id}`}>{knowledgeBaseNames.get(s.knowledge_base_id) ?? 'Open'}</TableLink>,
          },
        ]
      : []),
    { header: 'Type', cell: (s) => TYPE_NAMES[s.type] },
    { header: 'Schedule', cell: (s) => scheduleWords(s) },
    { header: 'Last sync', cell: (s) => <LastSync source={s} /> },
    { header: 'Next sync', className: 'whitespace-nowrap', cell: (s) => <NextSync source={s} /> },
  ];
  return (
    <Table
      look="roomy"
      caption="Sources and their syncs"
      cardsOnPhones
      className="sm:min-w-[44rem]"
      columns={columns}
      rows={items}
      rowKey={(s) => s.id}
      rowTestId="source-row"
    />
  );
}
