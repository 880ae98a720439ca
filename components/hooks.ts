'use client';

import { useQuery } from '@tanstack/react-query';
import { api } from './api';

export interface Me {
  kind: 'user' | 'api_key';
  id: string;
  name: string;
  role: 'admin' | 'member' | null;
  scopes: string[];
}

export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => api<Me>('/v1/me'), staleTime: 60_000 });
}

export interface HealthDetail {
  status: 'healthy' | 'unhealthy';
  version: string;
  maintenance: { enabled: boolean; message: string | null };
  components: Record<string, { status: string; latency_ms?: number; error?: string; kind?: string; queued?: number; running?: number; oldest_wait_s?: number }>;
}

/** Detailed health (database, storage, maintenance), refreshed every 15 seconds. */
export function useHealth() {
  return useQuery({
    queryKey: ['health'],
    queryFn: async () => {
      const res = await fetch('/health/detailed', { credentials: 'same-origin' });
      if (res.status === 401) throw new Error('Signed out');
      return (await res.json()) as HealthDetail;
    },
    refetchInterval: 15_000,
  });
}
