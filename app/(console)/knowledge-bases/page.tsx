import { KnowledgeBases } from '@/components/pages/knowledge-bases';

export const metadata = { title: 'Knowledge bases · Quarry' };

export default function KnowledgeBasesPage() {
  return <KnowledgeBases />;
}
