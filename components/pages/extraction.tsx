'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { api, ApiClientError, errorMessage } from '../api';
import type { Extraction, ExtractionStatus, FileRecord } from '../api-types';
import { citationBoxes, requestedSpan, type ExtractionLayout, type PassageSpan } from '../citations/boxes';
import { originalKind } from '../citations/kinds';
import { OriginalPage } from '../citations/original-page';
import { About } from '../extraction/about';
import { splitPages } from '../extraction/markdown-pages';
import { usePaging } from '../extraction/page-nav';
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
 * Search results link here with `?page=N&q=…&from=…&to=…` (or `#page-N`): the text opens at that
 * page, marked as the one the passage came from, with the searched words marked and the passage
 * (the span from–to of the Markdown) highlighted. PDFs and pictures show the original page beside
 * the text, with the passage highlighted on it; other documents open the text at the passage.
 */

/** The page, searched words and passage asked for in the address; the hash is read after the first render (the server never sees it). */
function useCitation(): { page?: number; query: string; span?: PassageSpan } {
  const params = useSearchParams();
  const [hash, setHash] = useState('');
  useEffect(() => {
    const read = () => setHash(window.location.hash);
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
  const search = params.toString();
  const span = useMemo(() => requestedSpan(search), [search]);
  return { page: requestedPage(search, hash), query: params.get('q') ?? '', span };
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
  const completed = extraction?.status === 'completed';
  const kind = completed ? originalKind(file.data?.content_type) : null;
  const layout = useQuery({
    queryKey: ['extraction', extractionId, 'layout'],
    queryFn: () => api<ExtractionLayout>(`/v1/extractions/${extractionId}/layout`),
    enabled: (kind === 'pdf' || kind === 'image') && citation.span !== undefined,
    retry: false,
    staleTime: Infinity,
  });
  const boxes = useMemo(() => citationBoxes(layout.data, citation.span), [layout.data, citation.span]);
  const markdown = completed ? (extraction?.markdown ?? '') : '';
  const pages = useMemo(() => splitPages(markdown), [markdown]);
  const paging = usePaging(pages, citation.page);

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
  const resultProps = {
    markdown,
    pages,
    paging,
    filename,
    fallbackName: extraction.id,
    citedPage: citation.page,
    highlight,
    span: citation.span,
    // PDFs and pictures show the passage on the original page; other documents open at the passage.
    showPassage: kind !== 'pdf' && kind !== 'image',
    structure: { extractionId: extraction.id, fileId: extraction.file_id },
  };

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
      {kind !== null && file.data ? (
        <>
          {kind !== 'unshown-image' && (
            // On a phone the original comes below the text: a way straight to it.
            <p className="mb-3 text-sm lg:hidden">
              <button type="button" className="font-medium text-indigo-700 underline" onClick={() => document.getElementById('original-page')?.scrollIntoView({ block: 'start' })}>
                {kind === 'pdf' ? 'Go to the original page' : 'Go to the original picture'}
                {citation.span ? ', with the passage highlighted' : ''}
              </button>
            </p>
          )}
          <div className="grid gap-6 lg:grid-cols-2">
            <div className="min-w-0">
              <Result {...resultProps} />
            </div>
            <div className="flex min-w-0 flex-col gap-6">
              <div id="original-page" className="scroll-mt-4">
                <OriginalPage
                  kind={kind}
                  fileId={extraction.file_id}
                  filename={filename}
                  pages={pages}
                  paging={paging}
                  boxes={boxes}
                  citedPage={citation.page}
                  positionsKnown={!citation.span || !layout.isSuccess || layout.data.pages.length > 0}
                />
              </div>
              <div>
                <About extraction={extraction} file={file.data} />
              </div>
            </div>
          </div>
        </>
      ) : (
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="min-w-0 lg:col-span-2">
            {running ? (
              <Progress extraction={extraction} onCancel={cancel} />
            ) : extraction.status === 'failed' ? (
              <Failure extraction={extraction} />
            ) : file.isLoading ? (
              <Loading label="Loading the text…" />
            ) : (
              <Result {...resultProps} />
            )}
          </div>
          <About extraction={extraction} file={file.data} />
        </div>
      )}
    </>
  );
}
