'use client';

import Link from 'next/link';
import { ApiClientError, errorMessage } from './api';
import { ErrorState, PageHeader } from './ui';

/** True when the API answered that the thing asked for does not exist. */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiClientError && err.status === 404;
}

/** Query retry rule of a page's own record: one retry for passing failures, none when it does not exist. */
export function retryUnlessNotFound(failures: number, err: unknown): boolean {
  return !isNotFound(err) && failures < 1;
}

/**
 * A page whose record could not be loaded: that it does not exist, or why loading failed with a
 * way to try again; then a link back to the list.
 */
export function RecordNotLoaded({
  title,
  error,
  notFound,
  failed,
  onRetry,
  backHref,
  backLabel,
}: {
  title: string;
  error: unknown;
  /** The sentence when the record does not exist. */
  notFound: string;
  /** The sentence before the error's own message when loading failed. */
  failed: string;
  onRetry: () => void;
  backHref: string;
  backLabel: string;
}) {
  const missing = isNotFound(error);
  return (
    <>
      <PageHeader title={title} />
      <ErrorState error={missing ? notFound : `${failed} ${errorMessage(error)}`} onRetry={missing ? undefined : onRetry} />
      <p className="mt-4 text-sm">
        <Link href={backHref} className="text-indigo-700 underline">
          {backLabel}
        </Link>
      </p>
    </>
  );
}

/** The console's page for an address that leads nowhere, shown inside the console's frame. */
export function PageNotFound() {
  return (
    <>
      <PageHeader title="This page does not exist" description="The address may be mistyped, or the page may have moved." />
      <div className="rounded-lg border border-slate-200 bg-white p-6 text-sm shadow-sm">
        <p className="text-slate-700">Check the address, or use the menu to find what you were looking for.</p>
        <p className="mt-4">
          <Link href="/" className="inline-flex items-center rounded-md bg-indigo-600 px-3 py-2 font-medium text-white hover:bg-indigo-700">
            Go to the overview
          </Link>
        </p>
      </div>
    </>
  );
}
