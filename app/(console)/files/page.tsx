import { Files } from '@/components/pages/files';

export const metadata = { title: 'Files · Quarry' };

export default function FilesPage() {
  return <Files />;
}
