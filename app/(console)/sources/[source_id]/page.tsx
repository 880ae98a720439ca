import { SourceDetail } from '@/components/pages/source-detail';

export const metadata = { title: 'Source · Quarry' };

export default async function SourcePage({ params }: { params: Promise<{ source_id: string }> }) {
  const { source_id } = await params;
  return <SourceDetail sourceId={source_id} />;
}
