'use client';

import { useQuery } from '@tanstack/react-query';
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
