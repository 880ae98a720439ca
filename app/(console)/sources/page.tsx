import { Sources } from '@/components/pages/sources';

export const metadata = { title: 'Sources · Quarry' };

export default function SourcesPage() {
  return <Sources />;
}
