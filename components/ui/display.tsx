import type { ReactNode } from 'react';
import { cx } from './format';

/* Page frames and status words: cards, page headers and badges. */

export function Card({ title, actions, children, className }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={cx('rounded-lg border border-slate-200 bg-white p-4 shadow-sm', className)}>
      {(title || actions) && (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title && <h2 className="text-base font-semibold">{title}</h2>}
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold break-words">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

const BADGE_TONES = {
  gray: 'bg-slate-100 text-slate-700',
  blue: 'bg-blue-100 text-blue-800',
  green: 'bg-green-100 text-green-800',
  yellow: 'bg-amber-100 text-amber-800',
  red: 'bg-red-100 text-red-800',
} as const;

export function Badge({ tone = 'gray', children }: { tone?: keyof typeof BADGE_TONES; children: ReactNode }) {
  return <span className={cx('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium', BADGE_TONES[tone])}>{children}</span>;
}

/** A status word with a colour: pending, processing, completed, failed, indexed, … */
export function StatusBadge({ status }: { status: string }) {
  const tone =
    status === 'completed' || status === 'indexed' || status === 'succeeded' || status === 'enabled' || status === 'active'
      ? 'green'
      : status === 'failed' || status === 'cancelled' || status === 'revoked' || status === 'disabled'
        ? 'red'
        : status === 'processing' || status === 'indexing' || status === 'reindexing'
          ? 'blue'
          : status === 'pending'
            ? 'yellow'
            : 'gray';
  return <Badge tone={tone}>{status}</Badge>;
}
