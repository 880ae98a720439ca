import { Readable } from 'node:stream';
import { create as contentDisposition } from 'content-disposition';
import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { openFileDownload } from '@/lib/files/service';
import { cleanLabel } from '@/lib/text/clean';

export const GET = route(endpoints.downloadFile, async ({ params, services }) => {
  const { file, stream, size } = await openFileDownload(services, params.file_id);
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    status: 200,
    headers: {
      'Content-Type': file.content_type,
      'Content-Length': String(size),
      // Names stored before control characters were replaced are cleaned here too.
      'Content-Disposition': contentDisposition(cleanLabel(file.filename) || file.id, { type: 'attachment' }),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
