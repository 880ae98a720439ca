'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { QueryError, isForbidden, retryUnlessRefused } from '../admin';
import { api, errorMessage, type Page } from '../api';
import type { Delivery, DeliveryItem } from '../api-types';
import { Badge, Button, Card, EmptyState, Loading, Pagination, RelativeTime, Select, StatusBadge } from '../ui';
import { EVENT_CHOICES } from '../webhook-form';
import { DeliveryAttempts, plainError } from './attempts';

const LIMIT = 20;
const STATUS_WORDS: Record<DeliveryItem['status'], string> = {
  pending: 'Waiting to be sent or retried',
  succeeded: 'Received',
  failed: 'Gave up after every retry',
  cancelled: 'Cancelled',
};

/** The plain-word label of an event type ("webhook.test" is the test message). */
function eventLabel(type: string): string {
  if (type === 'webhook.test') return 'Test message';
  return EVENT_CHOICES.find((c) => c.value === type)?.label ?? type;
}

/** The deliveries of a webhook, newest first, filtered by status and event; each can be expanded and sent again. */
export function DeliveryLog({ path, webhookId, enabled }: { path: string; webhookId: string; enabled: boolean }) {
  const [status, setStatus] = useState('');
  const [eventType, setEventType] = useState('');
  const [offset, setOffset] = useState(0);
  const params = new URLSearchParams({ limit: String(LIMIT), offset: String(offset) });
  if (status) params.set('status', status);
  if (eventType) params.set('event_type', eventType);
  const deliveries = useQuery({
    queryKey: ['deliveries', webhookId, status, eventType, offset],
    queryFn: () => api<Page<DeliveryItem>>(`${path}/deliveries?${params}`),
    retry: retryUnlessRefused,
    refetchInterval: (query) => (isForbidden(query.state.error) ? false : query.state.data?.items.some((d) => d.status === 'pending') ? 3_000 : 10_000),
  });

  return (
    <Card
      className="mt-6"
      title="Delivery log"
      actions={
        <Button variant="ghost" onClick={() => deliveries.refetch()} busy={deliveries.isFetching && !deliveries.isLoading}>
          Refresh
        </Button>
      }
    >
      <div className="mb-4 flex flex-wrap gap-3">
        <FilterSelect label="Status" value={status} onChange={(value) => (setStatus(value), setOffset(0))}>
          <option value="">Any status</option>
          <option value="succeeded">Received</option>
          <option value="pending">Waiting</option>
          <option value="failed">Failed</option>
          <option value="cancelled">Cancelled</option>
        </FilterSelect>
        <FilterSelect label="Event" value={eventType} onChange={(value) => (setEventType(value), setOffset(0))}>
          <option value="">Any event</option>
          <option value="webhook.test">Test message</option>
          {EVENT_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </FilterSelect>
      </div>
      {deliveries.isLoading ? (
        <Loading label="Loading deliveries…" />
      ) : deliveries.isError ? (
        <QueryError error={deliveries.error} action="see webhook deliveries" onRetry={() => deliveries.refetch()} />
      ) : deliveries.data && deliveries.data.items.length === 0 ? (
        <EmptyState title={status || eventType ? 'No deliveries match these filters' : 'Nothing has been sent yet'}>
          {status || eventType ? 'Try another status or event.' : 'Messages appear here as soon as a chosen event happens. Send a test event to try it.'}
        </EmptyState>
      ) : deliveries.data ? (
        <>
          <ul className="divide-y divide-slate-100 border-y border-slate-100" aria-label="Deliveries">
            {deliveries.data.items.map((d) => (
              <DeliveryRow key={d.id} delivery={d} path={path} webhookId={webhookId} enabled={enabled} />
            ))}
          </ul>
          <Pagination total={deliveries.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />
        </>
      ) : null}
    </Card>
  );
}

/** One delivery: a summary line, buttons to show its attempts and to send it again. */
function DeliveryRow({ delivery: d, path, webhookId, enabled }: { delivery: DeliveryItem; path: string; webhookId: string; enabled: boolean }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const panelId = `delivery-${d.id}`;
  const redeliver = useMutation({
    mutationFn: () => api<Delivery>(`${path}/deliveries/${d.id}/redeliver`, { method: 'POST' }),
    onSuccess: () => {
      toast.success('Sent again: a new delivery was added to the log');
      queryClient.invalidateQueries({ queryKey: ['deliveries', webhookId] });
      queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 space-y-1 text-sm">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{eventLabel(d.event_type)}</span>
            <span title={STATUS_WORDS[d.status]}>
              <StatusBadge status={d.status} />
            </span>
            {d.redelivery_of && <Badge tone="blue">sent again</Badge>}
          </p>
          <p className="text-xs text-slate-600">
            <span className="font-mono">{d.event_type}</span> · <RelativeTime iso={d.created_at} /> · {d.attempt_count} {d.attempt_count === 1 ? 'attempt' : 'attempts'}
            {d.last_response_status !== null && <> · answer {d.last_response_status}</>}
            {d.status === 'pending' && d.next_attempt_at && (
              <>
                {' '}
                · next try <RelativeTime iso={d.next_attempt_at} />
              </>
            )}
          </p>
          {d.last_error && <p className="text-xs break-words text-red-700">{plainError(d.last_error) ?? d.last_error}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((v) => !v)}>
            {open ? 'Hide attempts' : 'Show attempts'}
          </Button>
          <Button
            variant="secondary"
            busy={redeliver.isPending}
            disabled={!enabled}
            title={enabled ? undefined : 'Turn the webhook on to send messages again'}
            onClick={() => redeliver.mutate()}
          >
            Send again
          </Button>
        </div>
      </div>
      {open && (
        <div id={panelId} className="mt-3">
          <DeliveryAttempts path={path} deliveryId={d.id} pending={d.status === 'pending'} />
        </div>
      )}
    </li>
  );
}

/** A labelled filter above the log; changing it goes back to the first page. */
function FilterSelect({ label, value, onChange, children }: { label: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  return (
    <label className="flex min-w-0 flex-1 basis-40 flex-col gap-1 text-sm font-medium text-slate-800">
      {label}
      <Select value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </Select>
    </label>
  );
}
