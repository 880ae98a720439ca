import { Cron } from 'croner';
import cronstrue from 'cronstrue';
import type { SourceScheduleValue } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors';

/*
 * Schedules: a cron expression read in a time zone (parsed by croner, described in words by
 * cronstrue), or an interval. The workflow runner's sweeper starts the syncs that are due
 * (enqueueDueSyncs in sync.ts), every minute, so a schedule runs at most once a minute.
 */

export const MIN_INTERVAL_SECONDS = 300;

export type ScheduleInput = { cron: string; timezone?: string } | { interval: string } | null;

function invalid(field: string, reason: string): ApiError {
  return new ApiError('INVALID_REQUEST', `Invalid body: ${field}: ${reason}`, { field, reason });
}

function cronOf(expression: string, timezone: string): Cron {
  return new Cron(expression, { timezone, paused: true });
}

/** Checks a schedule and puts it in its stored form. */
export function parseSchedule(input: ScheduleInput): SourceScheduleValue | null {
  if (input === null) return null;
  if ('interval' in input) {
    const match = /^(\d+)\s*(m|min|h|d)$/i.exec(input.interval.trim())!;
    const unit = match[2].toLowerCase();
    const seconds = Number(match[1]) * (unit === 'd' ? 86_400 : unit === 'h' ? 3_600 : 60);
    if (seconds < MIN_INTERVAL_SECONDS) throw invalid('schedule.interval', `must be at least ${MIN_INTERVAL_SECONDS / 60} minutes`);
    if (seconds > 366 * 86_400) throw invalid('schedule.interval', 'must be at most 366 days');
    return { interval_seconds: seconds };
  }
  const timezone = input.timezone ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw invalid('schedule.timezone', `${timezone} is not a known IANA time zone`);
  }
  let cron: Cron;
  try {
    cron = cronOf(input.cron, timezone);
  } catch (err) {
    throw invalid('schedule.cron', `not a valid cron expression (${(err as Error).message})`);
  }
  const first = cron.nextRun();
  const second = first ? cron.nextRun(first) : null;
  if (!first) throw invalid('schedule.cron', 'never runs');
  if (second && second.getTime() - first.getTime() < 60_000) throw invalid('schedule.cron', 'must not run more than once a minute');
  return { cron: input.cron.trim(), timezone };
}

/** When a schedule next starts a sync after `after` (the previous start, or now). */
export function nextSyncTime(schedule: SourceScheduleValue | null, after: Date): Date | null {
  if (!schedule) return null;
  if ('interval_seconds' in schedule) return new Date(after.getTime() + schedule.interval_seconds * 1000);
  return cronOf(schedule.cron, schedule.timezone).nextRun(after) ?? null;
}

function intervalText(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400}d`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600}h`;
  return `${Math.round(seconds / 60)}m`;
}

/** The schedule as the API shows it. */
export function scheduleView(schedule: SourceScheduleValue | null) {
  if (!schedule) return null;
  if ('interval_seconds' in schedule) return { interval: intervalText(schedule.interval_seconds), interval_seconds: schedule.interval_seconds };
  return { cron: schedule.cron, timezone: schedule.timezone };
}

/** The schedule in plain words: "Every 6 hours", "At 03:00 AM (Europe/Paris)". */
export function describeSchedule(schedule: SourceScheduleValue | null): string | null {
  if (!schedule) return null;
  if ('interval_seconds' in schedule) {
    const s = schedule.interval_seconds;
    const [n, unit] = s % 86_400 === 0 ? [s / 86_400, 'day'] : s % 3_600 === 0 ? [s / 3_600, 'hour'] : [Math.round(s / 60), 'minute'];
    return n === 1 ? `Every ${unit}` : `Every ${n} ${unit}s`;
  }
  return `${cronstrue.toString(schedule.cron, { verbose: false })} (${schedule.timezone})`;
}
