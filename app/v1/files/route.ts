import { otherMethods, route, validate } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { fingerprintOf } from '@/lib/api/idempotency';
import { uploadOptions } from '@/lib/api/schemas/files';
import { listFiles } from '@/lib/files/service';
import { receiveUpload } from '@/lib/files/upload';
import { ingestUpload } from '@/lib/ingestion/upload';

export const GET = route(endpoints.listFiles, ({ query, services }) => listFiles(services, query));

export const POST = route(endpoints.uploadFile, async ({ request, services, once, respond }) => {
  const upload = await receiveUpload(request.body, request.headers.get('content-type'), services.storage);
  // What was uploaded, not the multipart framing (whose boundary differs on every send), identifies the request.
  const extras = Object.keys(upload.extras).length > 0 ? [JSON.stringify(upload.extras)] : [];
  const fingerprint = fingerprintOf('POST /v1/files', upload.filename, upload.sha256, JSON.stringify(upload.metadata), upload.tags.join(','), ...extras);
  let handedOver = false;
  try {
    const parts = validate(uploadOptions, upload.extras, 'multipart part');
    return await once(fingerprint, async () => {
      handedOver = true;
      const result = await ingestUpload(services, upload, {
        extract: parts.extract,
        knowledgeBaseId: parts.knowledge_base_id,
        documentTitle: parts.document_title,
        documentMetadata: parts.document_metadata,
        dedupe: parts.dedupe,
      });
      return respond(result, result.deduplicated ? 200 : 201);
    });
  } finally {
    if (!handedOver) await upload.staged.discard();
  }
});

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
