'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { Toaster } from 'sonner';

/*
 * Text colours of the coloured toasts. Sonner's own light greens, blues, ambers and reds reach only
 * about 3:1 to 4:1 on their pale backgrounds; these darker shades (Tailwind's 800s and red-700) keep
 * every toast at 4.5:1 or more. Set on the toast area itself, they win over Sonner's stylesheet.
 */
const TOAST_COLOURS = {
  '--success-text': '#166534',
  '--info-text': '#1e40af',
  '--warning-text': '#92400e',
  '--error-text': '#b91c1c',
} as CSSProperties;

/** Client-side context of every page: TanStack Query and the toast area. */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry: 1, staleTime: 5_000, refetchOnWindowFocus: true } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster position="top-right" richColors closeButton style={TOAST_COLOURS} />
    </QueryClientProvider>
  );
}
