import { ApiKeys } from '@/components/pages/api-keys';

export const metadata = { title: 'API keys · Quarry' };

export default function ApiKeysPage() {
  return <ApiKeys />;
}
