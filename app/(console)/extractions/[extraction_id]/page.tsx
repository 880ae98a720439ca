import { ExtractionView } from '@/components/pages/extraction';

export const metadata = { title: 'Extraction · Quarry' };

export default async function ExtractionPage({ params }: { params: Promise<{ extraction_id: string }> }) {
  const { extraction_id } = await params;
  return <ExtractionView extractionId={extraction_id} />;
}
