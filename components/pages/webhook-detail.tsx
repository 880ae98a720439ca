'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { QueryError, Switch, retryUnlessRefused } from '../admin';
import { api, errorMessage } from '../api';
import type { Webhook } from '../api-types';
import { isNotFound } from '../not-found';
import { Button, Card, ConfirmButton, EmptyState, Loading, PageHeader, RelativeTime } from '../ui';
import { WebhookForm, describeEvents, type WebhookFormValues } from '../webhook-form';
import { DeliveryLog } from '../webhooks/delivery-log';
import { TestCard } from '../webhooks/test-card';

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
    const notFound = isNotFound(webhook.error);
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
