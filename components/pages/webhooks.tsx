'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { QueryError, TD, TH, TableFrame, isForbidden, retryUnlessRefused } from '../admin';
import { api, type Page } from '../api';
import { Card, EmptyState, Loading, PageHeader, Pagination, RelativeTime, StatusBadge, Button } from '../ui';
import { WebhookForm, describeEvents, type WebhookFormValues } from '../webhook-form';

export interface WebhookListItem {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  created_at: string;
}

const LIMIT = 25;

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
  });
  const create = useMutation({
    mutationFn: (values: WebhookFormValues) => api<WebhookListItem>('/v1/webhooks', { method: 'POST', json: values }),
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
          <TableFrame label="Webhooks">
            <table className="w-full min-w-[36rem] text-sm">
              <caption className="sr-only">Webhooks</caption>
              <thead className="border-b border-slate-200">
                <tr>
                  <th scope="col" className={TH}>
                    Address
                  </th>
                  <th scope="col" className={TH}>
                    Events
                  </th>
                  <th scope="col" className={TH}>
                    Status
                  </th>
                  <th scope="col" className={TH}>
                    Added
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {list.data.items.map((w) => (
                  <tr key={w.id}>
                    <td className={TD}>
                      <Link href={`/webhooks/${w.id}`} className="font-medium break-all text-indigo-700 underline-offset-2 hover:underline">
                        {w.url}
                      </Link>
                    </td>
                    <td className={`${TD} text-slate-700`}>{describeEvents(w.events)}</td>
                    <td className={TD}>
                      <StatusBadge status={w.enabled ? 'enabled' : 'disabled'} />
                    </td>
                    <td className={`${TD} whitespace-nowrap`}>
                      <RelativeTime iso={w.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableFrame>
          <Pagination total={list.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />
        </Card>
      ) : null}
    </>
  );
}
