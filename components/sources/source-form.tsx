'use client';

import Link from 'next/link';
import { useId, useState, type FormEvent } from 'react';
import { ApiClientError, errorMessage } from '../api';
import type { ExtractionMode, Source, SourceType } from '../api-types';
import { ModeChoice } from '../files/mode-choice';
import { Button, cx, Field, FormError, Input } from '../ui';
import { checkConfig, ConfigFields, configBody, EMPTY_CONFIG, refusalWords, refusedField, type ConfigState, type FieldErrors } from './config-fields';
import { TYPE_HINTS, TYPE_NAMES } from './describe';
import { checkSchedule, initialSchedule, scheduleBody, ScheduleField, type ScheduleErrors, type ScheduleState } from './schedule-field';
import { TestConnection } from './test-connection';

/*
 * The form that adds a source to a knowledge base: its type, the type's settings (tried with
 * "Test connection" before saving), a name, when it syncs and how its documents are read.
 */

export interface NewSource {
  type: SourceType;
  knowledge_base_id: string;
  name?: string;
  config: Record<string, unknown>;
  credentials?: Record<string, string>;
  schedule: ReturnType<typeof scheduleBody>;
  extraction_mode: ExtractionMode;
  sync: boolean;
}

const TYPES: SourceType[] = ['web', 'url', 's3'];

/** The fields each type shows, by the API's names: a refusal naming another goes to the form. */
const SHOWN: Record<SourceType, string[]> = {
  web: ['config.start_url', 'config.sitemap_url', 'config.path_prefix', 'config.max_depth', 'config.max_pages'],
  url: ['config.url'],
  s3: ['config.bucket', 'config.prefix', 'config.endpoint', 'config.region', 'credentials.access_key_id', 'credentials.secret_access_key', 'credentials.session_token'],
};

const SCHEDULE_FIELDS: Record<string, keyof ScheduleErrors> = { 'schedule.interval': 'every', 'schedule.cron': 'cron', 'schedule.timezone': 'timezone' };

function TypeChoice({ value, onChange }: { value: SourceType; onChange: (type: SourceType) => void }) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Type of source</legend>
      <div className="mt-1 grid gap-2 sm:grid-cols-3">
        {TYPES.map((type) => (
          <label
            key={type}
            className={cx('flex cursor-pointer items-start gap-2 rounded-md border p-3 text-sm', value === type ? 'border-indigo-500 bg-indigo-50' : 'border-slate-200 hover:bg-slate-50')}
          >
            <input type="radio" name={name} value={type} checked={value === type} onChange={() => onChange(type)} className="mt-0.5" />
            <span>
              <span className="block font-medium">{TYPE_NAMES[type]}</span>
              <span className="block text-xs text-slate-600">{TYPE_HINTS[type]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function SourceForm({ kbId, onSubmit }: { kbId: string; onSubmit: (source: NewSource) => Promise<Source> }) {
  const [type, setType] = useState<SourceType>('web');
  const [name, setName] = useState('');
  const [config, setConfig] = useState<ConfigState>(EMPTY_CONFIG);
  const [schedule, setSchedule] = useState<ScheduleState>(() => initialSchedule());
  const [mode, setMode] = useState<ExtractionMode>('normal');
  const [syncNow, setSyncNow] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [scheduleErrors, setScheduleErrors] = useState<ScheduleErrors & { form?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function changeConfig(patch: Partial<ConfigState>) {
    const next = { ...config, ...patch };
    setConfig(next);
    // A field showing a message is checked again as it changes, so the message goes once it is right.
    const changed = Object.keys(patch).flatMap((key) => [`config.${key}`, `credentials.${key}`]).filter((k) => errors[k]);
    if (changed.length > 0) {
      const fresh = checkConfig(type, next);
      setErrors((current) => ({ ...current, ...Object.fromEntries(changed.map((k) => [k, fresh[k]])) }));
    }
  }

  function changeSchedule(next: ScheduleState) {
    setSchedule(next);
    if (Object.values(scheduleErrors).some(Boolean)) setScheduleErrors(checkSchedule(next));
  }

  /** Shows a refusal of the server beside the field it names (or for the whole form). */
  function showRefusal(err: unknown) {
    if (!(err instanceof ApiClientError)) return setFormError(errorMessage(err));
    const reason = String(err.details?.reason ?? '');
    const field = refusedField(err.details?.field as string | undefined, reason);
    const words = refusalWords(reason, err.message);
    if (field && (SHOWN[type].includes(field) || field === 'name')) setErrors((current) => ({ ...current, [field]: words }));
    else if (field && SCHEDULE_FIELDS[field]) setScheduleErrors({ [SCHEDULE_FIELDS[field]]: words });
    else if (field?.startsWith('schedule')) setScheduleErrors({ form: words });
    else setFormError(err.message);
  }

  function checkedSettings() {
    const found = checkConfig(type, config);
    setErrors(found);
    setFormError(null);
    return Object.keys(found).length === 0 ? { type, ...configBody(type, config) } : null;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const settings = checkedSettings();
    const whenErrors = checkSchedule(schedule);
    setScheduleErrors(whenErrors);
    const nameError = name.length > 200 ? 'The name can be at most 200 characters.' : undefined;
    if (nameError) setErrors((current) => ({ ...current, name: nameError }));
    if (!settings || Object.keys(whenErrors).length > 0 || nameError) {
      setFormError('Some fields need your attention: see the messages beside them.');
      return;
    }
    setBusy(true);
    try {
      await onSubmit({
        ...settings,
        knowledge_base_id: kbId,
        ...(name.trim() ? { name: name.trim() } : {}),
        schedule: scheduleBody(schedule),
        extraction_mode: mode,
        sync: syncNow,
      });
    } catch (err) {
      showRefusal(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6" aria-label="Add a source">
      <TypeChoice
        value={type}
        onChange={(next) => {
          setType(next);
          setErrors({});
          setFormError(null);
        }}
      />
      <section aria-labelledby="source-settings" className="space-y-4">
        <h2 id="source-settings" className="text-base font-semibold">
          {TYPE_NAMES[type]}
        </h2>
        <ConfigFields type={type} value={config} onChange={changeConfig} errors={errors} />
        <TestConnection request={checkedSettings} onRefused={showRefusal} />
      </section>
      <section aria-labelledby="source-sync" className="space-y-4">
        <h2 id="source-sync" className="text-base font-semibold">
          Name and syncing
        </h2>
        <Field label="Name (optional)" hint="For people; from the address when empty." error={errors.name}>
          {({ id, describedBy }) => (
            <Input id={id} aria-describedby={describedBy} aria-invalid={errors.name ? true : undefined} maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <ScheduleField value={schedule} onChange={changeSchedule} errors={scheduleErrors} />
        <ModeChoice label="How to read its documents" value={mode} onChange={setMode} />
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-0.5 h-4 w-4 accent-indigo-600" checked={syncNow} onChange={(e) => setSyncNow(e.target.checked)} />
          <span>
            <span className="block font-medium text-slate-800">Start the first sync when saved</span>
            <span className="block text-xs text-slate-600">Otherwise it waits for its schedule or for “Sync now”.</span>
          </span>
        </label>
      </section>
      <FormError message={formError} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={busy}>
          Save
        </Button>
        <Link
          href={`/knowledge-bases/${kbId}`}
          className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          Cancel
        </Link>
      </div>
    </form>
  );
}
