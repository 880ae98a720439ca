import type { Source, SourceRun, SourceRunStatus, SourceType } from '../api-types';

/* Sources and their syncs in plain words: the type, the schedule, a sync's status and counts. */

export const TYPE_NAMES: Record<SourceType, string> = { web: 'Website', url: 'Single URL', s3: 'S3-compatible bucket' };

export const TYPE_HINTS: Record<SourceType, string> = {
  web: 'Crawls a site from a start page or a sitemap, following its links.',
  url: 'One document or page, checked again on each sync.',
  s3: 'The files in a bucket (Amazon S3, MinIO, R2, …), under a prefix.',
};

/** The schedule as people read it: the server's words, or that it syncs only when asked. */
export function scheduleWords(source: Pick<Source, 'schedule_description'>): string {
  return source.schedule_description ?? 'Only when asked';
}

export const RUN_STATUS: Record<SourceRunStatus, { word: string; tone: 'gray' | 'blue' | 'green' | 'red' | 'yellow' }> = {
  queued: { word: 'Waiting to start', tone: 'yellow' },
  running: { word: 'Fetching', tone: 'blue' },
  indexing: { word: 'Indexing', tone: 'blue' },
  completed: { word: 'Completed', tone: 'green' },
  failed: { word: 'Failed', tone: 'red' },
};

export const TRIGGER_WORDS: Record<SourceRun['trigger'], string> = {
  created: 'When the source was added',
  manual: 'Asked for',
  schedule: 'On schedule',
  retry: 'Retry',
};

/** A sync still under way: its page refreshes while one is. */
export function isActive(run: Pick<SourceRun, 'status'> | null | undefined): boolean {
  return run?.status === 'queued' || run?.status === 'running' || run?.status === 'indexing';
}

const COUNT_ORDER = ['added', 'updated', 'unchanged', 'deleted', 'failed', 'skipped'] as const;
const COUNT_WORDS: Record<(typeof COUNT_ORDER)[number], string> = {
  added: 'added',
  updated: 'updated',
  unchanged: 'unchanged',
  deleted: 'removed',
  failed: 'failed',
  skipped: 'skipped',
};

/** "6 added · 2 updated · 6 skipped": the counts that are not zero, or "nothing yet". */
export function countsText(counts: SourceRun['counts']): string {
  const parts = COUNT_ORDER.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${COUNT_WORDS[k]}`);
  return parts.length > 0 ? parts.join(' · ') : 'nothing yet';
}

/** The counts as separate words, for lists. */
export function countsParts(counts: SourceRun['counts']): { key: string; text: string; tone: 'default' | 'bad' }[] {
  return COUNT_ORDER.filter((k) => counts[k] > 0).map((k) => ({ key: k, text: `${counts[k]} ${COUNT_WORDS[k]}`, tone: k === 'failed' ? 'bad' : 'default' }));
}

/** Where a source reads from, in one line: the start page, the URL, the bucket and prefix. */
export function whereFrom(source: Pick<Source, 'type' | 'config'>): string {
  const c = source.config as Record<string, unknown>;
  if (source.type === 's3') return `s3://${String(c.bucket ?? '')}/${String(c.prefix ?? '')}`;
  if (source.type === 'url') return String(c.url ?? '');
  return String(c.start_url ?? c.sitemap_url ?? '');
}

/** A source item's address for a link, when it is a web address; s3:// keys are shown as text. */
export function webHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
