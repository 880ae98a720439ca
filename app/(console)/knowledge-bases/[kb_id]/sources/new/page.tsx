import { NewSourcePage } from '@/components/pages/source-new';

export const metadata = { title: 'Add a source · Quarry' };

export default async function AddSourcePage({ params }: { params: Promise<{ kb_id: string }> }) {
  const { kb_id } = await params;
  return <NewSourcePage kbId={kb_id} />;
}
