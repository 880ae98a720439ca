'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { api, ApiClientError, errorMessage } from '../api';
import type { Extraction, ExtractionStatus, FileRecord } from '../api-types';
import { About } from '../extraction/about';
import { Result } from '../extraction/result';
import { Failure, failureSentence, Progress } from '../extraction/status-cards';
import { MODE_NAMES } from '../files-common';
import { RecordNotLoaded, retryUnlessNotFound } from '../not-found';
import { highlightTerms } from '../search/highlight';
import { requestedPage } from '../search/links';
import { Loading, PageHeader, RelativeTime } from '../ui';

/*
 * One extraction: a live progress bar while the document is read, then its text as formatted
 * Markdown or raw, page by page, with copy and download; or why it failed, in plain words.
 * Search results link here with `?page=N&q=…` (or `#page-N`): the text opens at that page, marked
 * as the one the passage came from, with the searched words marked.
 */

/** The page and searched words asked for in the address; the hash is read after the first render (the server never sees it). */
function useCitation(): { page?: number; query: string } {
  const params = useSearchParams();
  const [hash, setHash] = useState('');
  useEffect(() => {
    const read = () => setHash(window.location.hash);
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
  return { page: requestedPage(params.toString(), hash), query: params.get('q') ?? '' };
}

export function ExtractionView({ extractionId }: { extractionId: string }) {
  const queryClient = useQueryClient();
  const citation = useCitation();
  const highlight = useMemo(() => (citation.query.trim() ? highlightTerms(citation.query) : undefined), [citation.query]);
  const query = useQuery({
    queryKey: ['extraction', extractionId],
    queryFn: () => api<Extraction>(`/v1/extractions/${extractionId}`),
    retry: retryUnlessNotFound,
    refetchInterval: (q) => (q.state.data?.status === 'pending' || q.state.data?.status === 'processing' ? 1000 : false),
  });
  const extraction = query.data;
  const file = useQuery({
    queryKey: ['files', 'detail', extraction?.file_id],
    queryFn: () => api<FileRecord>(`/v1/files/${extraction?.file_id}`),
    enabled: Boolean(extraction?.file_id),
    retry: false,
  });

  // Announce when the task ends, and refresh the file's list of extractions.
  const previous = useRef<ExtractionStatus | undefined>(undefined);
  useEffect(() => {
    const status = extraction?.status;
    const was = previous.current;
    previous.current = status;
    if (!status || !was || was === status) return;
    if (status === 'completed') toast.success('The text is ready');
    if (status === 'failed' && extraction?.error?.code !== 'CANCELLED') toast.error('The text could not be extracted', { description: failureSentence(extraction?.error?.code ?? '') });
    if (status === 'completed' || status === 'failed') void queryClient.invalidateQueries({ queryKey: ['files', 'extractions', extraction?.file_id] });
  }, [extraction?.status, extraction?.error?.code, extraction?.file_id, queryClient]);

  if (query.isLoading) return <Loading label="Loading the extraction…" />;
  if (query.isError || !extraction) {
    return (
      <RecordNotLoaded
        title="Extraction"
        error={query.error}
        notFound="This extraction was not found. Its file may have been deleted."
        failed="The extraction could not be loaded."
        onRetry={() => query.refetch()}
        backHref="/files"
        backLabel="Back to all files"
      />
    );
  }

  const cancel = async () => {
    try {
      const after = await api<Extraction>(`/v1/extractions/${extraction.id}/cancel`, { method: 'POST' });
      queryClient.setQueryData(['extraction', extractionId], after);
      toast.success('The extraction was stopped');
    } catch (err) {
      if (err instanceof ApiClientError && err.code === 'EXTRACTION_NOT_CANCELLABLE') {
        toast.info('The extraction had already finished');
        void query.refetch();
      } else {
        toast.error('The extraction could not be stopped', { description: errorMessage(err) });
      }
    }
  };

  const running = extraction.status === 'pending' || extraction.status === 'processing';
  const filename = file.data?.filename;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/files/${extraction.file_id}`} className="text-indigo-700 hover:underline">
          <span aria-hidden="true">← </span>
          {filename ? `Back to ${filename}` : 'Back to the file'}
        </Link>
      </p>
      <PageHeader
        title={filename ? `Text of ${filename}` : 'Extracted text'}
        description={
          <>
            {MODE_NAMES[extraction.mode]} reading, started <RelativeTime iso={extraction.created_at} />
          </>
        }
      />
      <p className="sr-only" role="status">
        {running ? 'The document is being read.' : extraction.status === 'completed' ? 'The text is ready.' : 'The extraction ended without text.'}
      </p>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          {running ? (
            <Progress extraction={extraction} onCancel={cancel} />
          ) : extraction.status === 'failed' ? (
            <Failure extraction={extraction} />
          ) : (
            <Result markdown={extraction.markdown ?? ''} filename={filename} fallbackName={extraction.id} citedPage={citation.page} highlight={highlight} />
          )}
        </div>
        <About extraction={extraction} file={file.data} />
      </div>
    </>
  );
}
