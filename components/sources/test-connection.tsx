'use client';

import { useMutation } from '@tanstack/react-query';
import { api, ApiClientError, errorMessage } from '../api';
import type { SourceTest, SourceType } from '../api-types';
import { Button, formatBytes } from '../ui';

/* "Test connection": the first items a source's settings find, or why nothing could be read. */

export interface TestRequest {
  type: SourceType;
  config: Record<string, unknown>;
  credentials?: Record<string, string>;
}

/** Why a test found nothing, in a sentence before the server's own message. */
const FAILURE_LEADS: Record<string, string> = {
  SOURCE_ADDRESS_BLOCKED: 'Quarry may not reach this address (it is on a private or local network).',
  SOURCE_UNREACHABLE: 'The source could not be reached.',
  SOURCE_TIMEOUT: 'The source took too long to answer.',
  SOURCE_NOT_FOUND: 'Nothing was found at this address.',
  SOURCE_ACCESS_DENIED: 'The source refused access: check the credentials and the bucket’s permissions.',
  SOURCE_SITEMAP_INVALID: 'The sitemap could not be read.',
  SOURCE_URL_INVALID: 'The address is not one Quarry can fetch.',
  SOURCE_ITEM_SKIPPED: 'The first item was found but would not be indexed.',
  UNSUPPORTED_FORMAT: 'The address does not lead to a document Quarry can read.',
};

function TestResult({ result }: { result: SourceTest }) {
  if (!result.ok) {
    const lead = result.error ? FAILURE_LEADS[result.error.code] : undefined;
    return (
      <div className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        <p className="font-medium">The connection did not work. {lead}</p>
        {result.error?.message && <p className="mt-1 break-words">{result.error.message}</p>}
      </div>
    );
  }
  if (result.items.length === 0) {
    return (
      <div className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        <p className="font-medium">The connection worked, but nothing was found to sync.</p>
        <p className="mt-1">Check the address, the prefix or the path.</p>
      </div>
    );
  }
  return (
    <div className="rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
      <p className="font-medium">
        The connection worked. {result.more ? `The first ${result.items.length} items found:` : `${result.items.length === 1 ? '1 item' : `${result.items.length} items`} found:`}
      </p>
      <ul aria-label="Items found" className="mt-2 space-y-1">
        {result.items.map((item) => (
          <li key={item.key} className="flex min-w-0 justify-between gap-3">
            <span className="min-w-0 font-mono text-xs break-all">{item.url || item.key}</span>
            {item.size !== null && <span className="shrink-0 text-xs text-green-800">{formatBytes(item.size)}</span>}
          </li>
        ))}
      </ul>
      {result.more && <p className="mt-2 text-xs">…and more. A sync takes them all, up to its limits.</p>}
    </div>
  );
}

/**
 * The button and what it found. `request` answers the settings to try, or null when the form's
 * own checks found a problem (shown beside its field); `onRefused` gets a 400 naming a field.
 */
export function TestConnection({ request, onRefused }: { request: () => TestRequest | null; onRefused: (err: ApiClientError) => void }) {
  const test = useMutation({
    mutationFn: (body: TestRequest) => api<SourceTest>('/v1/sources/test', { method: 'POST', json: body }),
    onError: (err) => {
      if (err instanceof ApiClientError && err.status === 400 && err.details?.field) onRefused(err);
    },
  });
  const refusedByField = test.error instanceof ApiClientError && test.error.status === 400 && Boolean(test.error.details?.field);
  return (
    <div className="space-y-3">
      <Button
        variant="secondary"
        busy={test.isPending}
        onClick={() => {
          const body = request();
          if (body) test.mutate(body);
          else test.reset();
        }}
      >
        Test connection
      </Button>
      <div aria-live="polite" role="region" aria-label="Test result">
        {test.isPending && <p className="text-sm text-slate-600">Trying the source…</p>}
        {test.data && !test.isPending && <TestResult result={test.data} />}
        {test.isError && !test.isPending && (
          <p className="text-sm text-red-700">{refusedByField ? 'Fix the field marked above, then test again.' : `The test did not run: ${errorMessage(test.error)}`}</p>
        )}
      </div>
    </div>
  );
}
