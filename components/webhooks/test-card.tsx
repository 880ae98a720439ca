'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { api, errorMessage } from '../api';
import type { Delivery } from '../api-types';
import { Button, Card, StatusBadge } from '../ui';
import { AttemptDetails } from './attempts';

/** Sends a test message at once and shows what the receiver answered. */
export function TestCard({ path, webhookId }: { path: string; webhookId: string }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () => api<Delivery>(`${path}/test`, { method: 'POST' }),
    onSuccess: (delivery) => {
      queryClient.invalidateQueries({ queryKey: ['deliveries', webhookId] });
      queryClient.invalidateQueries({ queryKey: ['webhook', webhookId] });
      // The list tells which webhooks are failing.
      queryClient.invalidateQueries({ queryKey: ['webhooks'] });
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
