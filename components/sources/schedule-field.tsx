'use client';

import cronstrue from 'cronstrue';
import { useId } from 'react';
import type { SourceSchedule } from '../api-types';
import { cx, Field, Input, Select } from '../ui';

/*
 * When a source syncs by itself: only when asked, every so many hours (or minutes, days), or on a
 * cron expression, with the choice read back in plain words as it is typed (cronstrue, as the
 * server describes it).
 */

export type ScheduleKind = 'none' | 'interval' | 'cron';
export type IntervalUnit = 'minutes' | 'hours' | 'days';

export interface ScheduleState {
  kind: ScheduleKind;
  every: string;
  unit: IntervalUnit;
  cron: string;
  timezone: string;
}

export type ScheduleErrors = { every?: string; cron?: string; timezone?: string };

const UNIT_SECONDS: Record<IntervalUnit, number> = { minutes: 60, hours: 3600, days: 86_400 };
const UNIT_LETTER: Record<IntervalUnit, string> = { minutes: 'm', hours: 'h', days: 'd' };
const MIN_SECONDS = 300;
const MAX_SECONDS = 366 * 86_400;

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The form's state for a source's schedule; a new source syncs only when asked until another choice is made. */
export function initialSchedule(schedule?: SourceSchedule): ScheduleState {
  const base: ScheduleState = { kind: 'none', every: '6', unit: 'hours', cron: '0 3 * * *', timezone: browserTimeZone() };
  if (!schedule) return base;
  if ('cron' in schedule) return { ...base, kind: 'cron', cron: schedule.cron, timezone: schedule.timezone };
  const s = schedule.interval_seconds;
  const unit: IntervalUnit = s % 86_400 === 0 ? 'days' : s % 3600 === 0 ? 'hours' : 'minutes';
  return { ...base, kind: 'interval', every: String(s / UNIT_SECONDS[unit]), unit };
}

function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The cron expression in words, or null when cronstrue cannot read it. */
export function cronWords(expression: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 6) return null;
  try {
    return cronstrue.toString(expression.trim(), { throwExceptionOnParseError: true, verbose: false });
  } catch {
    return null;
  }
}

export function checkSchedule(state: ScheduleState): ScheduleErrors {
  if (state.kind === 'interval') {
    const n = Number(state.every);
    if (state.every.trim() === '' || !Number.isInteger(n) || n < 1) return { every: 'Enter a whole number, such as 6.' };
    const seconds = n * UNIT_SECONDS[state.unit];
    if (seconds < MIN_SECONDS) return { every: 'Syncs can be at most every 5 minutes.' };
    if (seconds > MAX_SECONDS) return { every: 'Syncs must be at least once every 366 days.' };
    return {};
  }
  if (state.kind === 'cron') {
    const errors: ScheduleErrors = {};
    if (!state.cron.trim()) errors.cron = 'Enter a cron expression, such as 0 3 * * * (every day at 03:00).';
    else if (cronWords(state.cron) === null) errors.cron = 'This is not a cron expression: give 5 fields (minute hour day month weekday), such as 0 3 * * *.';
    if (!state.timezone.trim()) errors.timezone = 'Enter a time zone, such as UTC or Europe/Paris.';
    else if (!knownTimeZone(state.timezone.trim())) errors.timezone = `${state.timezone.trim()} is not a time zone this browser knows, such as UTC or Europe/Paris.`;
    return errors;
  }
  return {};
}

/** The schedule as the API takes it. */
export function scheduleBody(state: ScheduleState): null | { interval: string } | { cron: string; timezone: string } {
  if (state.kind === 'interval') return { interval: `${Number(state.every)}${UNIT_LETTER[state.unit]}` };
  if (state.kind === 'cron') return { cron: state.cron.trim(), timezone: state.timezone.trim() };
  return null;
}

/** The chosen schedule in words, as the page reads it back. */
export function scheduleSentence(state: ScheduleState): string {
  if (state.kind === 'none') return 'Syncs only when you ask (with “Sync now”).';
  if (state.kind === 'interval') {
    const n = Number(state.every);
    if (!Number.isInteger(n) || n < 1) return 'Enter how often to sync.';
    const unit = state.unit.slice(0, -1);
    return `Syncs ${n === 1 ? `every ${unit}` : `every ${n} ${state.unit}`}, counted from the start of the previous sync.`;
  }
  const words = cronWords(state.cron);
  return words ? `Syncs ${words.charAt(0).toLowerCase()}${words.slice(1)} (${state.timezone.trim() || 'UTC'}).` : 'Enter a cron expression to see when it syncs.';
}

const CHOICES: { kind: ScheduleKind; label: string }[] = [
  { kind: 'none', label: 'Only when I ask' },
  { kind: 'interval', label: 'Every … hours' },
  { kind: 'cron', label: 'Custom (cron)' },
];

export function ScheduleField({
  value,
  onChange,
  errors,
}: {
  value: ScheduleState;
  onChange: (next: ScheduleState) => void;
  errors: ScheduleErrors & { form?: string };
}) {
  const name = useId();
  const set = (patch: Partial<ScheduleState>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-800">When to sync</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {CHOICES.map((c) => (
          <label
            key={c.kind}
            className={cx('flex cursor-pointer items-center gap-2 rounded-md border p-2.5 text-sm', value.kind === c.kind ? 'border-indigo-500 bg-indigo-50' : 'border-slate-200 hover:bg-slate-50')}
          >
            <input type="radio" name={name} checked={value.kind === c.kind} onChange={() => set({ kind: c.kind })} />
            {c.label}
          </label>
        ))}
      </div>
      {value.kind === 'interval' && (
        <div className="grid grid-cols-2 gap-3 sm:max-w-sm">
          <Field label="Every" error={errors.every}>
            {({ id, describedBy }) => (
              <Input
                id={id}
                aria-describedby={describedBy}
                aria-invalid={errors.every ? true : undefined}
                type="number"
                inputMode="numeric"
                min={1}
                value={value.every}
                onChange={(e) => set({ every: e.target.value })}
              />
            )}
          </Field>
          <Field label="Unit">
            {({ id }) => (
              <Select id={id} value={value.unit} onChange={(e) => set({ unit: e.target.value as IntervalUnit })}>
                <option value="minutes">minutes</option>
                <option value="hours">hours</option>
                <option value="days">days</option>
              </Select>
            )}
          </Field>
        </div>
      )}
      {value.kind === 'cron' && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Cron expression" hint="minute hour day-of-month month day-of-week, e.g. 0 3 * * 1-5" error={errors.cron}>
            {({ id, describedBy }) => (
              <Input
                id={id}
                aria-describedby={describedBy}
                aria-invalid={errors.cron ? true : undefined}
                className="font-mono"
                autoComplete="off"
                spellCheck={false}
                value={value.cron}
                onChange={(e) => set({ cron: e.target.value })}
              />
            )}
          </Field>
          <Field label="Time zone" hint="The expression is read in this time zone." error={errors.timezone}>
            {({ id, describedBy }) => (
              <Input
                id={id}
                aria-describedby={describedBy}
                aria-invalid={errors.timezone ? true : undefined}
                autoComplete="off"
                value={value.timezone}
                onChange={(e) => set({ timezone: e.target.value })}
              />
            )}
          </Field>
        </div>
      )}
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="schedule-preview">
        {scheduleSentence(value)}
      </p>
      {errors.form && (
        <p role="alert" className="text-xs text-red-700">
          {errors.form}
        </p>
      )}
    </fieldset>
  );
}
