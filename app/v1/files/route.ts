import { json, otherMethods, route } from '@/lib/api/handler';
import { fingerprintOf } from '@/lib/api/idempotency';
import { fileListQuery } from '@/lib/api/schemas/files';
import { createFile, listFiles } from '@/lib/files/service';
import { receiveUpload } from '@/lib/files/upload';

export const GET = route({ auth: 'files:read', query: fileListQuery }, async ({ query, services }) => {
  const { items, total } = await listFiles(services, query);
  return json({ items, total, limit: query.limit, offset: query.offset });
});

export const POST = route({ auth: 'files:write', rawBody: true, idempotent: true }, async ({ request, services, once }) => {
  const upload = await receiveUpload(request.body, request.headers.get('content-type'), services.storage);
  // What was uploaded, not the multipart framing (whose boundary differs on every send), identifies the request.
  const fingerprint = fingerprintOf('POST /v1/files', upload.filename, upload.sha256, JSON.stringify(upload.metadata), upload.tags.join(','));
  let committed = false;
  try {
    return await once(fingerprint, async () => {
      committed = true;
      return json(await createFile(services, upload), 201);
    });
  } finally {
    if (!committed) await upload.staged.discard();
  }
});

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
