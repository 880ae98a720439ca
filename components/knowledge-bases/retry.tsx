'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { api, errorMessage, type Page } from '../api';
import type { DocumentItem, RetriedDocument, RetryFailedResult } from '../api-types';
import { Button } from '../ui';

/* Sending failed documents through their pipeline again: one, or every failed one at once. */

/** Retry for one failed document; the list then shows it waiting again. */
export function RetryDocumentButton({ kbId, doc }: { kbId: string; doc: DocumentItem }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => api<RetriedDocument>(`/v1/knowledge-bases/${kbId}/documents/${doc.id}/retry`, { method: 'POST' }),
    onSuccess: () => {
      toast.success(`${doc.title} is being prepared again.`);
      return queryClient.invalidateQueries({ queryKey: ['knowledge-base', kbId] });
    },
    onError: (err) => toast.error(`${doc.title} was not sent again: ${errorMessage(err)}`),
  });
  return (
    <Button variant="secondary" busy={retry.isPending} disabled={retry.isPending} onClick={() => retry.mutate()}>
      Retry<span className="sr-only"> {doc.title}</span>
    </Button>
  );
}

/**
 * "Retry all failed (N)", shown only while some documents of the knowledge base failed. The count
 * covers every page of the list; `signature` changes whenever a document's status does.
 */
export function RetryAllFailed({ kbId, signature }: { kbId: string; signature: string | undefined }) {
  const queryClient = useQueryClient();
  const failed = useQuery({
    queryKey: ['knowledge-base', kbId, 'failed-count'],
    queryFn: () => api<Page<DocumentItem>>(`/v1/knowledge-bases/${kbId}/documents?status=failed&limit=1`).then((r) => r.total),
  });
  const { refetch } = failed;
  useEffect(() => {
    if (signature !== undefined) void refetch();
  }, [signature, refetch]);
  const retry = useMutation({
    mutationFn: () => api<RetryFailedResult>(`/v1/knowledge-bases/${kbId}/retry-failed`, { method: 'POST' }),
    onSuccess: (result) => {
      const notRetried = result.results.filter((r) => r.error);
      if (result.retried > 0) toast.success(result.retried === 1 ? '1 document is being prepared again.' : `${result.retried} documents are being prepared again.`);
      if (notRetried.length > 0) {
        toast.error(notRetried.length === 1 ? '1 document could not be sent again' : `${notRetried.length} documents could not be sent again`, {
          description: notRetried[0]!.error!.message,
        });
      }
      return queryClient.invalidateQueries({ queryKey: ['knowledge-base', kbId] });
    },
    onError: (err) => toast.error(`The failed documents were not sent again: ${errorMessage(err)}`),
  });
  const count = failed.data ?? 0;
  if (count === 0) return null;
  return (
    <Button variant="secondary" busy={retry.isPending} disabled={retry.isPending} onClick={() => retry.mutate()}>
      Retry all failed ({count})
    </Button>
  );
}
