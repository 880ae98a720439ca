'use client';

import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { api, sessionEnded } from './api';
import type { HealthDetail, Me } from './api-types';

export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => api<Me>('/v1/me'), staleTime: 60_000 });
}

/** Detailed health (database, storage, maintenance), refreshed every 15 seconds. */
export function useHealth() {
  return useQuery({
    queryKey: ['health'],
    queryFn: async () => {
      const res = await fetch('/health/detailed', { credentials: 'same-origin' });
      if (res.status === 401) {
        sessionEnded();
        throw new Error('Signed out');
      }
      return (await res.json()) as HealthDetail;
    },
    refetchInterval: 15_000,
  });
}

/**
 * A form's messages per field, and `recheck`: a field that shows a message is checked again as it
 * changes, so the message changes or goes as soon as the field is right (fields without a message
 * stay quiet until the next submit).
 */
export function useFieldErrors<E extends Record<string, string | undefined>>() {
  const [errors, setErrors] = useState<E>({} as E);
  const recheck = useCallback(
    (field: keyof E, message: string | undefined) => setErrors((current) => (current[field] ? { ...current, [field]: message } : current)),
    [],
  );
  return [errors, setErrors, recheck] as const;
}
