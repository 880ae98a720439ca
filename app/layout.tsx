import type { ReactNode } from 'react';

export const metadata = { title: 'Quarry', description: 'Document extraction and knowledge bases' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
