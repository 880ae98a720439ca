'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { QueryError, Switch, isForbidden, retryUnlessRefused } from '../admin';
import { ApiClientError, api, errorMessage, type Page } from '../api';
import { Badge, Button, Card, ConfirmButton, EmptyState, ErrorState, Loading, PageHeader, Pagination, RelativeTime, Select, StatusBadge } from '../ui';
import { EVENT_CHOICES, WebhookForm, describeEvents, type WebhookFormValues } from '../webhook-form';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  last_delivery_at: string | null;
  created_at: string;
  updated_at: string;
}

interface DeliveryItem {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempt_count: number;
  last_response_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  redelivery_of: string | null;
  created_at: string;
  completed_at: string | null;
}

interface Attempt {
  number: number;
  attempted_at: string;
  duration_ms: number;
  response_status: number | null;
  response_excerpt: string | null;
  error: string | null;
}

interface Delivery extends DeliveryItem {
  payload: unknown;
  attempts: Attempt[];
}

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

/** One webhook: its settings, a test message, and the log of everything sent to it. */
export function WebhookDetail({ webhookId }: { webhookId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const path = `/v1/webhooks/${encodeURIComponent(webhookId)}`;
  const webhook = useQuery({ queryKey: ['webhook', webhookId], queryFn: () => api<Webhook>(path), retry: retryUnlessRefused });

  const update = useMutation({
    mutationFn: (changes: Partial<WebhookFormValues> & { enabled?: boolean }) => api<Webhook>(path, { method: 'PATCH', json: changes }),
    onSuccess: (saved) => {
      queryClient.setQueryData(['webhook', webhookId], saved);
      queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      queryClient.invalidateQueries({ queryKey: ['deliveries', webhookId] });
    },
  });

  if (webhook.isLoading) return <Loading label="Loading webhook…" />;
  if (webhook.isError) {
    const notFound = webhook.error instanceof ApiClientError && webhook.error.status === 404;
    return (
      <>
        <BackLink />
        <PageHeader title="Webhook" />
        {notFound ? (
          <EmptyState title="This webhook does not exist">It may have been deleted. Go back to the list of webhooks.</EmptyState>
        ) : (
          <QueryError error={webhook.error} action="manage webhooks" onRetry={() => webhook.refetch()} />
        )}
      </>
    );
  }
  const w = webhook.data!;

  return (
    <>
      <BackLink />
      <PageHeader
        title="Webhook"
        description={<span className="font-mono break-all">{w.url}</span>}
        actions={
          <ConfirmButton
            label="Delete webhook"
            title="Delete this webhook?"
            message={
              <p>
                Quarry will stop sending messages to <span className="font-mono break-all">{w.url}</span> and its delivery log will be erased. This cannot be undone.
              </p>
            }
            onConfirm={async () => {
              try {
                await api(path, { method: 'DELETE' });
                toast.success('Webhook deleted');
                queryClient.invalidateQueries({ queryKey: ['webhooks'] });
                router.push('/webhooks');
              } catch (err) {
                toast.error(errorMessage(err));
              }
            }}
          />
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Settings" actions={!editing && <Button variant="secondary" onClick={() => setEditing(true)}>Edit address, events or secret</Button>}>
          {editing ? (
            <WebhookForm
              mode="edit"
              initial={w}
              submitLabel="Save changes"
              onSubmit={async (values) => {
                await update.mutateAsync(values);
                toast.success('Webhook saved');
                setEditing(false);
              }}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <div className="space-y-4 text-sm">
              <Switch
                label="Send messages"
                checked={w.enabled}
                busy={update.isPending}
                onChange={(enabled) =>
                  update.mutate(
                    { enabled },
                    {
                      onSuccess: () => toast.success(enabled ? 'Webhook turned on' : 'Webhook turned off; waiting retries were cancelled'),
                      onError: (err) => toast.error(errorMessage(err)),
                    },
                  )
                }
                description={w.enabled ? 'On: new events are sent to the address.' : 'Off: nothing is sent until you turn it on again.'}
              />
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
                <dt className="text-slate-600">Events</dt>
                <dd>{describeEvents(w.events)}</dd>
                <dt className="text-slate-600">Last message</dt>
                <dd>
                  <RelativeTime iso={w.last_delivery_at} />
                </dd>
                <dt className="text-slate-600">Added</dt>
                <dd>
                  <RelativeTime iso={w.created_at} />
                </dd>
              </dl>
            </div>
          )}
        </Card>
        <TestCard path={path} webhookId={webhookId} />
      </div>
      <DeliveryLog path={path} webhookId={webhookId} enabled={w.enabled} />
    </>
  );
}

function BackLink() {
  return (
    <p className="mb-2 text-sm">
      <Link href="/webhooks" className="text-indigo-700 underline-offset-2 hover:underline">
        ← All webhooks
      </Link>
    </p>
  );
}

/** Sends a test message at once and shows what the receiver answered. */
function TestCard({ path, webhookId }: { path: string; webhookId: string }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () => api<Delivery>(`${path}/test`, { method: 'POST' }),
    onSuccess: (delivery) => {
      queryClient.invalidateQueries({ queryKey: ['deliveries', webhookId] });
      queryClient.invalidateQueries({ queryKey: ['webhook', webhookId] });
      if (delivery.status === 'succeeded') toast.success('The test message was received');
      else toast.error('The test message was not accepted by the receiver');
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const result = test.data;
  return (
    <Card title="Test">
      <p className="text-sm text-slate-600">Send a test message now to check that the receiver gets it. It is sent once, without retries.</p>
      <Button className="mt-3" variant="secondary" busy={test.isPending} onClick={() => test.mutate()}>
        Send test event
      </Button>
      <div aria-live="polite">
        {result && (
          <div className="mt-4 space-y-2 rounded-md border border-slate-200 p-3 text-sm">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-medium">Test result:</span>
              <StatusBadge status={result.status} />
              <span>{result.status === 'succeeded' ? 'The receiver accepted the message.' : 'The receiver did not accept the message.'}</span>
            </p>
            {result.attempts[0] && <AttemptDetails attempt={result.attempts[0]} />}
          </div>
        )}
      </div>
    </Card>
  );
}

/** The deliveries of a webhook, newest first, filtered by status and event; each can be expanded and sent again. */
function DeliveryLog({ path, webhookId, enabled }: { path: string; webhookId: string; enabled: boolean }) {
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
        <label className="flex min-w-0 flex-1 basis-40 flex-col gap-1 text-sm font-medium text-slate-800">
          Status
          <Select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setOffset(0);
            }}
          >
            <option value="">Any status</option>
            <option value="succeeded">Received</option>
            <option value="pending">Waiting</option>
            <option value="failed">Failed</option>
            <option value="cancelled">Cancelled</option>
          </Select>
        </label>
        <label className="flex min-w-0 flex-1 basis-40 flex-col gap-1 text-sm font-medium text-slate-800">
          Event
          <Select
            value={eventType}
            onChange={(e) => {
              setEventType(e.target.value);
              setOffset(0);
            }}
          >
            <option value="">Any event</option>
            <option value="webhook.test">Test message</option>
            {EVENT_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </Select>
        </label>
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
    mutationFn: () => api<DeliveryItem>(`${path}/deliveries/${d.id}/redeliver`, { method: 'POST' }),
    onSuccess: () => {
      toast.success('Sent again: a new delivery was added to the log');
      queryClient.invalidateQueries({ queryKey: ['deliveries', webhookId] });
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
          {d.last_error && <p className="text-xs break-words text-red-700">{d.last_error}</p>}
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

/** Every attempt of one delivery, and the message that was sent. */
function DeliveryAttempts({ path, deliveryId, pending }: { path: string; deliveryId: string; pending: boolean }) {
  const detail = useQuery({
    queryKey: ['delivery', deliveryId],
    queryFn: () => api<Delivery>(`${path}/deliveries/${deliveryId}`),
    retry: retryUnlessRefused,
    refetchInterval: pending ? 3_000 : false,
  });
  if (detail.isLoading) return <Loading label="Loading attempts…" />;
  if (detail.isError) return <ErrorState error={errorMessage(detail.error)} onRetry={() => detail.refetch()} />;
  const delivery = detail.data!;
  return (
    <div className="space-y-3">
      {delivery.attempts.length === 0 ? (
        <p className="text-sm text-slate-600">No attempt has been made yet.</p>
      ) : (
        <ol className="space-y-2" aria-label="Attempts">
          {delivery.attempts.map((a) => (
            <li key={a.number} className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
              <p className="mb-1 font-medium">Attempt {a.number}</p>
              <AttemptDetails attempt={a} />
            </li>
          ))}
        </ol>
      )}
      <details className="rounded-md border border-slate-200 p-3 text-sm">
        <summary className="cursor-pointer font-medium">Message sent</summary>
        <pre className="mt-2 max-h-72 overflow-auto rounded bg-slate-900 p-3 text-xs whitespace-pre-wrap break-all text-slate-100">{formatPayload(delivery.payload)}</pre>
      </details>
    </div>
  );
}

function formatPayload(payload: unknown): string {
  if (typeof payload === 'string') {
    try {
      return JSON.stringify(JSON.parse(payload), null, 2);
    } catch {
      return payload;
    }
  }
  return JSON.stringify(payload, null, 2);
}

/** Time, answer, duration, the start of the receiver's reply and any error of one attempt. */
function AttemptDetails({ attempt: a }: { attempt: Attempt }) {
  const ok = a.response_status !== null && a.response_status >= 200 && a.response_status < 300;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="text-slate-600">Time</dt>
      <dd>
        <RelativeTime iso={a.attempted_at} />
      </dd>
      <dt className="text-slate-600">Answer</dt>
      <dd>{a.response_status === null ? <span className="text-slate-600">no answer</span> : <Badge tone={ok ? 'green' : 'red'}>{`HTTP ${a.response_status}`}</Badge>}</dd>
      <dt className="text-slate-600">Took</dt>
      <dd>{a.duration_ms} ms</dd>
      {a.response_excerpt && (
        <>
          <dt className="text-slate-600">Reply</dt>
          <dd className="min-w-0">
            <pre className="max-h-40 overflow-auto rounded bg-white p-2 font-mono text-xs whitespace-pre-wrap break-all">{a.response_excerpt}</pre>
          </dd>
        </>
      )}
      {a.error && (
        <>
          <dt className="text-slate-600">Error</dt>
          <dd className="break-words text-red-700">{a.error}</dd>
        </>
      )}
    </dl>
  );
}
