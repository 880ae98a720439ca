'use client';

import { useEffect, useState } from 'react';
import { relativeTime } from './format';

/** "3 minutes ago", with the exact time on hover and for screen readers. */
export function RelativeTime({ iso }: { iso: string | null | undefined }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (!iso) return <span className="text-slate-600">never</span>;
  const exact = new Date(iso).toLocaleString();
  return (
    <time dateTime={iso} title={exact} aria-label={exact}>
      {relativeTime(iso)}
    </time>
  );
}
