import { FileDetail } from '@/components/pages/file-detail';

export const metadata = { title: 'File · Quarry' };

export default async function FilePage({ params }: { params: Promise<{ file_id: string }> }) {
  const { file_id } = await params;
  return <FileDetail fileId={file_id} />;
}
