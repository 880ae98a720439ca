import { WebhookDetail } from '@/components/pages/webhook-detail';

export const metadata = { title: 'Webhook · Quarry' };

export default async function WebhookPage({ params }: { params: Promise<{ webhook_id: string }> }) {
  const { webhook_id } = await params;
  return <WebhookDetail webhookId={webhook_id} />;
}
