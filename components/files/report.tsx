'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import type { BatchOutcome } from './batch';
import { Button, cx } from '../ui';

/*
 * What the last action on several files did, kept in view until the next one (a toast would
 * vanish before a long list of reasons could be read).
 */

export interface ActionReport {
  summary: string;
  /** The files it failed for, by name, with the reason. */
  failures: { name: string; reason: string }[];
  /** Where to follow what was started. */
  link?: { href: string; label: string };
  tone: 'success' | 'partial' | 'failed';
}

/** A report of an outcome; "already there" failures (`harmless`) do not make it a partial one. */
export function reportOf(
  outcome: BatchOutcome,
  summary: string,
  names: ReadonlyMap<string, string>,
  options: { harmless?: string[]; link?: ActionReport['link'] } = {},
): ActionReport {
  const failures = outcome.failures.filter((f) => !options.harmless?.includes(f.code));
  return {
    summary,
    failures: failures.map((f) => ({ name: names.get(f.fileId) ?? 'A file', reason: f.reason })),
    link: outcome.done.length > 0 ? options.link : undefined,
    tone: failures.length === 0 ? 'success' : outcome.done.length > 0 ? 'partial' : 'failed',
  };
}

const TONES = {
  success: 'border-green-200 bg-green-50 text-green-900',
  partial: 'border-amber-300 bg-amber-50 text-amber-900',
  failed: 'border-red-200 bg-red-50 text-red-900',
} as const;

/**
 * The live region is always there, so a new report is read out when it appears. The report takes
 * the focus, which would otherwise be lost with the selection bar that opened the dialog.
 */
export function Report({ report, onDismiss }: { report: ActionReport | null; onDismiss: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (report) box.current?.focus();
  }, [report]);
  return (
    <div role="status" aria-live="polite" data-testid="bulk-report">
      {report && (
        <div ref={box} tabIndex={-1} className={cx('mb-3 rounded-md border px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600', TONES[report.tone])}>
          <div className="flex flex-wrap items-start justify-between gap-2">
            <p className="font-medium">{report.summary}</p>
            <Button variant="ghost" className="-my-1 py-1 text-slate-800" onClick={onDismiss}>
              Dismiss
            </Button>
          </div>
          {report.failures.length > 0 && (
            <ul className="mt-1 list-disc space-y-0.5 pl-5">
              {report.failures.map((f, i) => (
                <li key={i} className="break-words">
                  <span className="font-medium">{f.name}</span>: {f.reason}
                </li>
              ))}
            </ul>
          )}
          {report.link && (
            <Link href={report.link.href} className="mt-1 inline-block font-medium text-indigo-800 underline">
              {report.link.label}
            </Link>
          )}
        </div>
      )}
    </div>
  );
}
