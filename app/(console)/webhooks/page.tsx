import { Webhooks } from '@/components/pages/webhooks';

export const metadata = { title: 'Webhooks · Quarry' };

export default function WebhooksPage() {
  return <Webhooks />;
}
