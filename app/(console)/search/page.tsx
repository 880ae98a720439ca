import { Search } from '@/components/pages/search';

export const metadata = { title: 'Search · Quarry' };

export default async function SearchPage({ searchParams }: { searchParams: Promise<{ kb?: string | string[] }> }) {
  const { kb } = await searchParams;
  return <Search initialKbId={typeof kb === 'string' ? kb : undefined} />;
}
