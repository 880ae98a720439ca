import { Settings } from '@/components/pages/settings';

export const metadata = { title: 'Settings · Quarry' };

export default function SettingsPage() {
  return <Settings />;
}
