'use client';

import Link from 'next/link';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Switch } from '../admin';
import { ApiClientError, errorMessage } from '../api';
import type { ExtractionMode, KnowledgeBase, Source } from '../api-types';
import { MODE_NAMES } from '../files-common';
import { ModeChoice } from '../files/mode-choice';
import { Button, Card, Field, FormError, Input, RelativeTime } from '../ui';
import { scheduleWords, TYPE_NAMES, webHref, whereFrom } from './describe';
import { checkSchedule, initialSchedule, scheduleBody, ScheduleField, type ScheduleErrors, type ScheduleState } from './schedule-field';
import { NextSync } from './source-table';

/* A source's settings: read at a glance, and the ones people change most (name, schedule, reading, on/off). */

export interface SourceChanges {
  name?: string;
  schedule?: ReturnType<typeof scheduleBody>;
  extraction_mode?: ExtractionMode;
  enabled?: boolean;
}

function EditSettings({ source, onSave, onCancel }: { source: Source; onSave: (changes: SourceChanges) => Promise<unknown>; onCancel: () => void }) {
  const [name, setName] = useState(source.name);
  const [schedule, setSchedule] = useState<ScheduleState>(() => initialSchedule(source.schedule));
  const [mode, setMode] = useState<ExtractionMode>(source.extraction_mode);
  const [nameError, setNameError] = useState<string>();
  const [scheduleErrors, setScheduleErrors] = useState<ScheduleErrors & { form?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const nameProblem = !name.trim() ? 'Enter a name.' : name.length > 200 ? 'The name can be at most 200 characters.' : undefined;
    const whenProblems = checkSchedule(schedule);
    setNameError(nameProblem);
    setScheduleErrors(whenProblems);
    setFormError(null);
    if (nameProblem || Object.keys(whenProblems).length > 0) return;
    setBusy(true);
    try {
      await onSave({ name: name.trim(), schedule: scheduleBody(schedule), extraction_mode: mode });
    } catch (err) {
      const field = err instanceof ApiClientError ? String(err.details?.field ?? '') : '';
      const reason = err instanceof ApiClientError ? String(err.details?.reason ?? err.message) : errorMessage(err);
      if (field === 'name') setNameError(reason);
      else if (field === 'schedule.interval') setScheduleErrors({ every: reason });
      else if (field === 'schedule.cron') setScheduleErrors({ cron: reason });
      else if (field === 'schedule.timezone') setScheduleErrors({ timezone: reason });
      else if (field.startsWith('schedule')) setScheduleErrors({ form: reason });
      else setFormError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Edit the source">
      <Field label="Name" error={nameError}>
        {({ id, describedBy }) => (
          <Input id={id} aria-describedby={describedBy} aria-invalid={nameError ? true : undefined} maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        )}
      </Field>
      <ScheduleField
        value={schedule}
        onChange={(next) => {
          setSchedule(next);
          if (Object.values(scheduleErrors).some(Boolean)) setScheduleErrors(checkSchedule(next));
        }}
        errors={scheduleErrors}
      />
      <ModeChoice label="How to read its documents" value={mode} onChange={setMode} />
      <p className="text-xs text-slate-600">A new reading mode applies to the documents the next syncs add or update.</p>
      <FormError message={formError} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={busy}>
          Save changes
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{term}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

export function SourceSettings({
  source,
  kb,
  onSave,
  saving,
}: {
  source: Source;
  kb: KnowledgeBase | undefined;
  onSave: (changes: SourceChanges) => Promise<unknown>;
  saving: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const from = whereFrom(source);
  const href = webHref(from);
  const c = source.config as Record<string, unknown>;
  return (
    <Card title="Settings" actions={!editing && <Button variant="secondary" onClick={() => setEditing(true)}>Edit name, schedule or reading</Button>}>
      {editing ? (
        <EditSettings
          source={source}
          onSave={async (changes) => {
            await onSave(changes);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div className="space-y-4 text-sm">
          <Switch
            label="Sync on its schedule"
            checked={source.enabled}
            busy={saving}
            onChange={(enabled) => void onSave({ enabled }).catch(() => undefined)}
            description={
              !source.enabled
                ? 'Off: it keeps its documents and syncs only when you ask.'
                : source.schedule
                  ? 'On: it syncs by itself on its schedule.'
                  : 'On, but it has no schedule: it syncs when you ask. Edit it to choose one.'
            }
          />
          <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
            <Fact term="Type">{TYPE_NAMES[source.type]}</Fact>
            <Fact term="Reads from">
              {href ? (
                <a href={href} target="_blank" rel="noreferrer" className="font-mono text-xs break-all text-indigo-700 hover:underline">
                  {from}
                </a>
              ) : (
                <span className="font-mono text-xs break-all">{from}</span>
              )}
            </Fact>
            <Fact term="Knowledge base">
              <Link href={`/knowledge-bases/${source.knowledge_base_id}`} className="text-indigo-700 hover:underline">
                {kb?.name ?? 'Open the knowledge base'}
              </Link>
            </Fact>
            <Fact term="Schedule">{scheduleWords(source)}</Fact>
            <Fact term="Next sync">
              <NextSync source={source} />
            </Fact>
            <Fact term="Last completed sync">
              <RelativeTime iso={source.last_synced_at} />
            </Fact>
            <Fact term="Items">{source.item_count}</Fact>
            <Fact term="Reading">{MODE_NAMES[source.extraction_mode]}</Fact>
            {source.type === 'web' && (
              <Fact term="Reach">
                {`${c.max_depth} ${c.max_depth === 1 ? 'link' : 'links'} deep, at most ${c.max_pages} pages`}
                {typeof c.path_prefix === 'string' && c.path_prefix ? `, under ${c.path_prefix}` : ''}
              </Fact>
            )}
            {source.type === 's3' && <Fact term="Credentials">{source.has_credentials ? 'Stored (never shown)' : 'The server’s own'}</Fact>}
            <Fact term="Items gone from the source">{c.keep_deleted ? 'Their documents are kept' : 'Their documents are removed'}</Fact>
          </dl>
        </div>
      )}
    </Card>
  );
}
