import { Overview } from '@/components/pages/overview';

export const metadata = { title: 'Overview · Quarry' };

export default function OverviewPage() {
  return <Overview />;
}
