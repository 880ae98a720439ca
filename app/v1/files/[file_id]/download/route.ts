import { Readable } from 'node:stream';
import { create as contentDisposition } from 'content-disposition';
import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { openFileDownload } from '@/lib/files/service';
import { cleanLabel } from '@/lib/text/clean';

export const GET = route(endpoints.downloadFile, async ({ params, services, request }) => {
  const { file, stream, size, range, etag } = await openFileDownload(services, params.file_id, {
    range: request.headers.get('range'),
    ifRange: request.headers.get('if-range'),
  });
  const headers: Record<string, string> = {
    'Content-Type': file.content_type,
    'Content-Length': String(range ? range.end - range.start + 1 : size),
    // Names stored before control characters were replaced are cleaned here too.
    'Content-Disposition': contentDisposition(cleanLabel(file.filename) || file.id, { type: 'attachment' }),
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  };
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: range ? 206 : 200, headers });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
