'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { api, errorMessage } from '../api';
import { withoutCodes } from '../files-common';
import type { CreatedExtraction, DocumentDetail, Extraction, ExtractionMode, RetriedDocument } from '../api-types';

/*
 * What became of an uploaded file after the upload: its extraction and, when it was added to a
 * knowledge base, its document. Polled only while one of them is still in progress.
 */

const POLL_MS = 1500;

export type StepTone = 'working' | 'done' | 'failed' | 'stopped';

export interface AfterUpload {
  /** The step in plain words: "Turning into text… 40%". */
  text: string;
  tone: StepTone;
  /** Percent while a step with progress runs. */
  progress?: number;
  /** Why it failed, in the API's words. */
  reason?: string;
  /** Sends the failed step again. */
  retry?: () => void;
  retrying?: boolean;
}

export interface Followed {
  fileId: string;
  mode: ExtractionMode;
  extractionId?: string;
  document?: { id: string; kbId: string };
}

/** Follows an extraction (without a knowledge base), with a retry that starts a new one. */
function useExtractionStep(followed: Followed, onNewExtraction: (id: string) => void, enabled: boolean): AfterUpload | null {
  const id = followed.extractionId;
  const extraction = useQuery({
    queryKey: ['extraction', id],
    queryFn: () => api<Extraction>(`/v1/extractions/${id}`),
    enabled: enabled && !!id,
    refetchInterval: (query) => (!query.state.data || query.state.data.status === 'pending' || query.state.data.status === 'processing' ? POLL_MS : false),
  });
  const again = useMutation({
    mutationFn: () => api<CreatedExtraction>('/v1/extractions', { method: 'POST', json: { file_id: followed.fileId, mode: followed.mode } }),
    onSuccess: (created) => onNewExtraction(created.id),
    onError: (err) => toast.error(`The text could not be read again: ${errorMessage(err)}`),
  });
  if (!enabled || !id) return null;
  const data = extraction.data;
  if (!data) return { text: 'Turning into text…', tone: 'working', progress: 0 };
  switch (data.status) {
    case 'pending':
    case 'processing':
      return { text: `Turning into text… ${data.progress ?? 0}%`, tone: 'working', progress: data.progress ?? 0 };
    case 'completed':
      return { text: 'Done: the text is ready', tone: 'done' };
    default:
      return {
        text: 'The text could not be read',
        tone: 'failed',
        reason: data.error ? withoutCodes(data.error.message) : undefined,
        retry: () => again.mutate(),
        retrying: again.isPending,
      };
  }
}

/** Follows a knowledge-base document (which waits for its extraction), with a retry when it failed. */
function useDocumentStep(followed: Followed, kbName: string | undefined): AfterUpload | null {
  const queryClient = useQueryClient();
  const doc = followed.document;
  const key = ['knowledge-base', doc?.kbId, 'document', doc?.id];
  const detail = useQuery({
    queryKey: key,
    queryFn: () => api<DocumentDetail>(`/v1/knowledge-bases/${doc!.kbId}/documents/${doc!.id}`),
    enabled: !!doc,
    refetchInterval: (query) => (!query.state.data || query.state.data.status === 'pending' || query.state.data.status === 'indexing' ? POLL_MS : false),
  });
  const retry = useMutation({
    mutationFn: () => api<RetriedDocument>(`/v1/knowledge-bases/${doc!.kbId}/documents/${doc!.id}/retry`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
    onError: (err) => toast.error(`The file was not sent again: ${errorMessage(err)}`),
  });
  const status = detail.data?.status;
  /* The knowledge base's pages (its counts, its document list) follow each step: mark them out of date. */
  useEffect(() => {
    if (!doc || !status) return;
    void queryClient.invalidateQueries({ queryKey: ['knowledge-base', doc.kbId], predicate: (q) => q.queryKey[2] !== 'document' });
    void queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
  }, [doc, status, queryClient]);
  if (!doc) return null;
  const data = detail.data;
  const into = kbName ? `“${kbName}”` : 'the knowledge base';
  if (!data) return { text: 'Turning into text…', tone: 'working', progress: 0 };
  switch (data.status) {
    case 'pending':
      if (data.waiting_for === 'extraction') {
        const progress = data.extraction_progress ?? 0;
        return { text: `Turning into text… ${progress}%`, tone: 'working', progress };
      }
      return { text: `Adding to ${into}…`, tone: 'working' };
    case 'indexing':
      return { text: `Adding to ${into}: indexing…`, tone: 'working' };
    case 'indexed':
      return { text: `Done: searchable in ${into}`, tone: 'done' };
    default:
      return {
        text: `Not added to ${into}`,
        tone: 'failed',
        reason: data.error ? withoutCodes(data.error.message) : 'Something went wrong while preparing this file.',
        retry: () => retry.mutate(),
        retrying: retry.isPending,
      };
  }
}

/** The current step after the upload, or null when nothing follows it. */
export function useAfterUpload(followed: Followed | undefined, kbName: string | undefined, onNewExtraction: (id: string) => void): AfterUpload | null {
  const empty: Followed = { fileId: '', mode: 'normal' };
  const fromDocument = useDocumentStep(followed ?? empty, kbName);
  const fromExtraction = useExtractionStep(followed ?? empty, onNewExtraction, !!followed && !followed.document);
  return fromDocument ?? fromExtraction;
}
