'use client';

import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import type { ExtractionMode, FileListItem } from '../api-types';
import { Button, Field, FormError, Select } from '../ui';
import { useKnowledgeBaseChoices } from '../uploads/ingest-options';
import { addSummary, addToKnowledgeBase, deleteFiles, deleteSummary, extractFiles, extractSummary, fileCount, type BatchOutcome } from './batch';
import { ModeChoice } from './mode-choice';
import { reportOf, type ActionReport } from './report';
import { textState } from './text-status';

/*
 * The questions asked before acting on the selected files: how to read them, which knowledge base
 * to add them to, and whether to really delete them. Each answers with a report of what happened
 * and the files still worth keeping selected (those it failed for).
 */

export interface BulkDialogProps {
  files: FileListItem[];
  onCancel: () => void;
  onFinished: (report: ActionReport, keepSelected: string[]) => void;
}

function namesOf(files: FileListItem[]): Map<string, string> {
  return new Map(files.map((f) => [f.id, f.filename]));
}

/** The failed files that are worth trying again (not those already where they were sent). */
function toRetry(outcome: BatchOutcome, harmless: string[] = []): string[] {
  return outcome.failures.filter((f) => !harmless.includes(f.code)).map((f) => f.fileId);
}

/** The buttons at the foot of every dialog here. */
function Actions({ busy, disabled, confirm, danger, onCancel, onConfirm }: { busy: boolean; disabled?: boolean; confirm: string; danger?: boolean; onCancel: () => void; onConfirm: () => void }) {
  return (
    <div className="mt-5 flex flex-wrap justify-end gap-2">
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button variant={danger ? 'danger' : 'primary'} busy={busy} disabled={disabled} onClick={onConfirm}>
        {confirm}
      </Button>
    </div>
  );
}

/** Runs an action once; a failure of the whole request stays in the dialog. */
function useRun() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Something went wrong. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** Says that files with text already are read again. */
function alreadyRead(withText: number, total: number): string {
  const one = withText === 1;
  const who = withText === total ? (one ? 'This file already has' : 'These files already have') : `${withText} of them already ${one ? 'has' : 'have'}`;
  return `${who} text: ${one ? 'it' : 'they'} will be read again.`;
}

export function ExtractDialog({ files, onCancel, onFinished }: BulkDialogProps) {
  const [mode, setMode] = useState<ExtractionMode>('normal');
  const { busy, error, run } = useRun();
  const withText = files.filter((f) => textState(f.latest_extraction) === 'ready').length;
  const confirm = () =>
    run(async () => {
      const outcome = await extractFiles(
        files.map((f) => f.id),
        mode,
      );
      onFinished(reportOf(outcome, extractSummary(outcome), namesOf(files)), toRetry(outcome));
    });
  return (
    <>
      <ModeChoice label="Reading mode" value={mode} onChange={setMode} />
      {withText > 0 && <p className="mt-3 text-sm text-slate-700">{alreadyRead(withText, files.length)}</p>}
      <FormError message={error} />
      <Actions busy={busy} confirm="Turn into text" onCancel={onCancel} onConfirm={confirm} />
    </>
  );
}

export function AddToKnowledgeBaseDialog({ files, onCancel, onFinished }: BulkDialogProps) {
  const knowledgeBases = useKnowledgeBaseChoices();
  const [kbId, setKbId] = useState('');
  const [mode, setMode] = useState<ExtractionMode>('normal');
  const { busy, error, run } = useRun();
  const withoutText = files.filter((f) => {
    const state = textState(f.latest_extraction);
    return state === 'none' || state === 'failed';
  }).length;
  const kb = knowledgeBases.data?.find((k) => k.id === kbId);

  const confirm = () =>
    run(async () => {
      if (!kb) return;
      const outcome = await addToKnowledgeBase(
        kb.id,
        files.map((f) => f.id),
        mode,
      );
      const link = { href: `/knowledge-bases/${kb.id}`, label: `Open “${kb.name}”` };
      onFinished(reportOf(outcome, addSummary(outcome, kb.name), namesOf(files), { harmless: ['DOCUMENT_EXISTS'], link }), toRetry(outcome, ['DOCUMENT_EXISTS']));
    });

  let body: ReactNode;
  if (knowledgeBases.isLoading) body = <p className="text-sm text-slate-600">Loading your knowledge bases…</p>;
  else if (knowledgeBases.isError) body = <FormError message="Your knowledge bases could not be loaded. Close this and try again." />;
  else if (!knowledgeBases.data?.length)
    body = (
      <p className="text-sm text-slate-700">
        There is no knowledge base yet.{' '}
        <Link href="/knowledge-bases" className="font-medium text-indigo-700 underline">
          Create one
        </Link>{' '}
        first, then come back.
      </p>
    );
  else
    body = (
      <div className="space-y-4">
        <Field label="Knowledge base">
          {({ id }) => (
            <Select id={id} value={kbId} onChange={(e) => setKbId(e.target.value)}>
              <option value="">Choose a knowledge base</option>
              {knowledgeBases.data.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <p className="text-sm text-slate-700">Files without text will be turned into text first, then made searchable.</p>
        {withoutText > 0 && <ModeChoice label="Reading mode for files without text" value={mode} onChange={setMode} />}
      </div>
    );

  return (
    <>
      {body}
      <FormError message={error} />
      <Actions busy={busy} disabled={!kb} confirm={`Add ${fileCount(files.length)}`} onCancel={onCancel} onConfirm={confirm} />
    </>
  );
}

/** How many names the delete question lists before "and N more". */
const NAMES_SHOWN = 5;

export function DeleteDialog({ files, onCancel, onFinished }: BulkDialogProps) {
  const { busy, error, run } = useRun();
  const confirm = () =>
    run(async () => {
      const outcome = await deleteFiles(files.map((f) => f.id));
      onFinished(reportOf(outcome, deleteSummary(outcome), namesOf(files)), toRetry(outcome));
    });
  const rest = files.length - NAMES_SHOWN;
  return (
    <>
      <div className="space-y-2 text-sm text-slate-700">
        <p>Their text and their documents in knowledge bases are deleted too. This cannot be undone.</p>
        <ul className="list-disc pl-5">
          {files.slice(0, NAMES_SHOWN).map((f) => (
            <li key={f.id} className="break-all">
              {f.filename}
            </li>
          ))}
          {rest > 0 && <li>and {rest} more</li>}
        </ul>
      </div>
      <FormError message={error} />
      <Actions busy={busy} danger confirm={`Delete ${fileCount(files.length)}`} onCancel={onCancel} onConfirm={confirm} />
    </>
  );
}
