import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import './globals.css';

export const metadata = { title: 'Quarry', description: 'Document extraction and knowledge bases' };
export const viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
