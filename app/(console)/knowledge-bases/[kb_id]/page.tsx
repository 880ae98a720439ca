import { KnowledgeBaseDetail } from '@/components/pages/knowledge-base-detail';

export const metadata = { title: 'Knowledge base · Quarry' };

export default async function KnowledgeBaseDetailPage({ params }: { params: Promise<{ kb_id: string }> }) {
  const { kb_id } = await params;
  return <KnowledgeBaseDetail kbId={kb_id} />;
}
