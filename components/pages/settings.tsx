'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { QueryError, Switch, isForbidden, retryUnlessRefused } from '../admin';
import { api, errorMessage } from '../api';
import type { Maintenance } from '../api-types';
import { Button, Card, Dialog, Field, Loading, PageHeader, RelativeTime, Textarea } from '../ui';

const MAX_MESSAGE = 1000;

/** Settings (administrators only): maintenance mode, and the way to the users page. */
export function Settings() {
  const maintenance = useQuery({ queryKey: ['maintenance'], queryFn: () => api<Maintenance>('/admin/maintenance'), retry: retryUnlessRefused });
  if (isForbidden(maintenance.error)) {
    return (
      <>
        <PageHeader title="Settings" />
        <QueryError error={maintenance.error} action="change settings" />
      </>
    );
  }
  return (
    <>
      <PageHeader title="Settings" description="Settings that apply to everyone using this Quarry." />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Maintenance mode">
          {maintenance.isLoading ? (
            <Loading />
          ) : maintenance.isError ? (
            <QueryError error={maintenance.error} action="change settings" onRetry={() => maintenance.refetch()} />
          ) : (
            <MaintenanceForm current={maintenance.data!} />
          )}
        </Card>
        <Card title="Users">
          <p className="text-sm text-slate-600">Add people, choose who is an administrator, reset passwords and turn accounts off.</p>
          <Link
            href="/settings/users"
            className="mt-3 inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            Manage users
          </Link>
        </Card>
      </div>
    </>
  );
}

/** The maintenance switch and the message people see while it is on. */
function MaintenanceForm({ current }: { current: Maintenance }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState(current.message ?? '');
  useEffect(() => setMessage(current.message ?? ''), [current.message]);
  const save = useMutation({
    mutationFn: (body: { enabled: boolean; message?: string }) => api<Maintenance>('/admin/maintenance', { method: 'POST', json: body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(['maintenance'], saved);
      queryClient.invalidateQueries({ queryKey: ['health'] });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const [confirming, setConfirming] = useState(false);
  const trimmed = message.trim();
  const body = (enabled: boolean) => ({ enabled, ...(trimmed ? { message: trimmed } : {}) });
  const turn = (enabled: boolean) =>
    save.mutate(body(enabled), {
      onSuccess: () => {
        setConfirming(false);
        toast.success(enabled ? 'Maintenance mode is on' : 'Maintenance mode is off');
      },
    });

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        While maintenance mode is on, Quarry shows a notice and refuses uploads, searches and every other request from people and programs, answering with your message. This
        page and the health checks keep working, so you can turn it off again.
      </p>
      <Field label="Message shown to people" hint={`Optional, at most ${MAX_MESSAGE} characters. For example: “Upgrading, back at 14:00.” It is saved when you turn maintenance mode on.`}>
        {({ id, describedBy }) => <Textarea id={id} aria-describedby={describedBy} rows={3} maxLength={MAX_MESSAGE} value={message} onChange={(e) => setMessage(e.target.value)} />}
      </Field>
      <Switch
        label="Maintenance mode"
        checked={current.enabled}
        busy={save.isPending}
        // Turning it on stops everyone's work, so it is asked first; turning it off is not.
        onChange={(enabled) => (enabled ? setConfirming(true) : turn(false))}
        description={
          <>
            {current.enabled ? 'On' : 'Off'}
            {current.updated_at && (
              <>
                {' '}
                since <RelativeTime iso={current.updated_at} />
              </>
            )}
          </>
        }
      />
      {current.enabled && (
        <Button variant="secondary" busy={save.isPending} disabled={trimmed === (current.message ?? '')} onClick={() => save.mutate(body(true), { onSuccess: () => toast.success('Message saved') })}>
          Save message
        </Button>
      )}
      <Dialog open={confirming} title="Turn on maintenance mode?" onClose={() => setConfirming(false)}>
        <div className="space-y-3 text-sm text-slate-700">
          <p>
            Everyone will see a notice, and Quarry will refuse uploads, searches and every other request from people and programs until you turn maintenance mode off
            again. This page keeps working.
          </p>
          {trimmed ? (
            <p>
              People will see: <q className="font-medium text-slate-900">{trimmed}</q>
            </p>
          ) : (
            <p>No message is set: people will be told that the service is not accepting changes right now.</p>
          )}
        </div>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button busy={save.isPending} onClick={() => turn(true)}>
            Turn on maintenance mode
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
