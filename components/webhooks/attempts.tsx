'use client';

import { useQuery } from '@tanstack/react-query';
import { retryUnlessRefused } from '../admin';
import { api, errorMessage } from '../api';
import type { Attempt, Delivery } from '../api-types';
import { Badge, ErrorState, Loading, RelativeTime } from '../ui';

/** Every attempt of one delivery, and the message that was sent. */
export function DeliveryAttempts({ path, deliveryId, pending }: { path: string; deliveryId: string; pending: boolean }) {
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

/** What went wrong with an attempt in plain words; null when there is nothing more to say than the error itself. */
export function plainError(error: string): string | null {
  if (/ECONNREFUSED/.test(error)) return 'Nothing at the address accepted the connection: the receiver may be down, or the address may be wrong.';
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return 'The name in the address could not be found.';
  if (/ETIMEDOUT|No response within/.test(error)) return 'The receiver did not answer in time.';
  if (/ECONNRESET|EPIPE|socket hang up/i.test(error)) return 'The connection was cut off before the receiver answered.';
  if (/CERT|certificate|SSL|TLS/i.test(error)) return 'The receiver’s security certificate was not accepted.';
  if (/^HTTP \d{3}$/.test(error)) return 'The receiver answered with an error.';
  return null;
}

/** Time, answer, duration, the start of the receiver's reply and any error of one attempt. */
export function AttemptDetails({ attempt: a }: { attempt: Attempt }) {
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
          <dd className="break-words text-red-700">
            {plainError(a.error) ?? a.error}
            {plainError(a.error) && <span className="block font-mono text-xs text-slate-700">{a.error}</span>}
          </dd>
        </>
      )}
    </dl>
  );
}
