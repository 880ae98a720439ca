'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { QueryError, isForbidden, retryUnlessRefused } from '../admin';
import { api, type Page } from '../api';
import type { CreatedWebhook, WebhookListItem } from '../api-types';
import { Button, Card, EmptyState, Loading, PageHeader, Pagination, RelativeTime, StatusBadge, Table, TableLink, type Column } from '../ui';
import { WebhookForm, describeEvents, type WebhookFormValues } from '../webhook-form';

const LIMIT = 25;

/** "Failing: the last delivery failed" or "Failing: last 3 deliveries failed" (10 or more: "the last 10 or more"). */
function failingText(count: number): string {
  if (count === 1) return 'Failing: the last delivery failed';
  return count >= 10 ? 'Failing: the last 10 or more deliveries failed' : `Failing: last ${count} deliveries failed`;
}

/** Whether the webhook sends, and a warning when its latest deliveries did not get through. */
function WebhookStatus({ webhook }: { webhook: WebhookListItem }) {
  return (
    <div className="flex flex-col items-start gap-1">
      <StatusBadge status={webhook.enabled ? 'enabled' : 'disabled'} />
      {webhook.recent_failures > 0 && (
        <p className="flex items-start gap-1 text-xs font-medium text-red-800">
          <span aria-hidden="true">⚠</span>
          {failingText(webhook.recent_failures)}
        </p>
      )}
    </div>
  );
}

/** The webhooks of one page of the list, each linking to its own page. */
function WebhookTable({ items }: { items: WebhookListItem[] }) {
  const columns: Column<WebhookListItem>[] = [
    {
      header: 'Address',
      cell: (w) => (
        <TableLink href={`/webhooks/${w.id}`} className="break-all underline-offset-2">
          {w.url}
        </TableLink>
      ),
    },
    { header: 'Events', className: 'text-slate-700', cell: (w) => describeEvents(w.events) },
    { header: 'Status', cell: (w) => <WebhookStatus webhook={w} /> },
    { header: 'Added', className: 'whitespace-nowrap', cell: (w) => <RelativeTime iso={w.created_at} /> },
  ];
  return <Table label="Webhooks" caption="Webhooks" className="sm:min-w-[36rem]" cardsOnPhones columns={columns} rows={items} rowKey={(w) => w.id} />;
}

/** Webhooks: the list, and a form to add one (administrators only). */
export function Webhooks() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const [adding, setAdding] = useState(false);
  const list = useQuery({
    queryKey: ['webhooks', offset],
    queryFn: () => api<Page<WebhookListItem>>(`/v1/webhooks?limit=${LIMIT}&offset=${offset}`),
    retry: retryUnlessRefused,
    // Deliveries fail or succeed in the background: coming back to the list shows how they went.
    refetchOnMount: 'always',
  });
  const create = useMutation({
    mutationFn: (values: WebhookFormValues) => api<CreatedWebhook>('/v1/webhooks', { method: 'POST', json: values }),
    onSuccess: (webhook) => {
      toast.success('Webhook added');
      queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      router.push(`/webhooks/${webhook.id}`);
    },
  });
  const forbidden = isForbidden(list.error);

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="A webhook tells another system when something happens in Quarry, by sending a message to a web address you choose."
        actions={
          !forbidden &&
          !adding && (
            <Button onClick={() => setAdding(true)}>Add webhook</Button>
          )
        }
      />
      {adding && (
        <Card title="Add a webhook" className="mb-6">
          <WebhookForm
            mode="create"
            submitLabel="Add webhook"
            onSubmit={async (values) => {
              await create.mutateAsync(values);
            }}
            onCancel={() => setAdding(false)}
          />
        </Card>
      )}
      {list.isLoading ? (
        <Loading label="Loading webhooks…" />
      ) : list.isError ? (
        <QueryError error={list.error} action="manage webhooks" onRetry={() => list.refetch()} />
      ) : list.data && list.data.items.length === 0 ? (
        <EmptyState title="No webhooks yet">Add one to have Quarry send a message to another system when files, readings or knowledge bases change.</EmptyState>
      ) : list.data ? (
        <Card>
          <WebhookTable items={list.data.items} />
          <Pagination total={list.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />
        </Card>
      ) : null}
    </>
  );
}
