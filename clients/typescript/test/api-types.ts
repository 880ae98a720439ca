// Compile-only checks (`npm run typecheck -w @quarry/client`): the README's examples and the typing
// of the helpers against the generated document. Nothing here runs.
import http from 'node:http';
import { QuarryClient, verifyWebhook, WebhookVerificationError, type Extraction, type WaitProgress } from '../src/index.js';

const quarry = new QuarryClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.QUARRY_API_KEY });

export async function readmeExamples(kbId: string) {
  const kb = await quarry.unwrap(quarry.api.POST('/v1/knowledge-bases', { body: { name: 'Contracts' } }));
  kb.embedding.provider satisfies 'builtin' | 'openai' | 'transformers';
  const { data, error } = await quarry.api.GET('/v1/files/{file_id}', { params: { path: { file_id: 'file_…' } } });
  data?.sha256 satisfies string | undefined;
  error?.error.request_id satisfies string | undefined;

  const file = await quarry.uploadFile('report.pdf', {
    tags: ['finance', '2024'],
    metadata: { department: 'sales' },
    extract: 'normal',
    knowledgeBaseId: 'kb_…',
    documentTitle: 'Q4 report',
    dedupe: true,
    idempotencyKey: 'upload-report-q4',
    onProgress: (sent: number, total: number | undefined) => console.log(sent, total),
  });
  const done: Extraction = await quarry.waitForExtraction(file.extraction!.id, {
    onProgress: (p: WaitProgress) => console.log(p.stage, p.percent),
    intervalMs: 1000,
    timeoutMs: 10 * 60_000,
  });
  done.markdown satisfies string | undefined;
  const model = await quarry.getExtractionDocument(done.id);
  for (const block of model.blocks) if (block.type === 'table') block.rows[0]?.[0]?.col_span satisfies number | undefined;
  const doc = await quarry.waitForDocument(kbId, file.document!.id, { onProgress: (p) => console.log(p.chunksWritten, p.chunkTotal) });
  doc.indexing_progress?.chunk_total satisfies number | undefined;

  for await (const f of quarry.paginate('/v1/files', { query: { tags: 'finance', sort_by: 'size' } })) f.latest_extraction satisfies unknown;
  const docs = await quarry.listAll('/v1/knowledge-bases/{kb_id}/documents', { path: { kb_id: kbId }, query: { status: 'failed' } });
  docs[0].status satisfies 'pending' | 'indexing' | 'indexed' | 'failed';
  // @ts-expect-error this list needs its path parameter
  quarry.paginate('/v1/knowledge-bases/{kb_id}/documents');
  // @ts-expect-error not a list
  quarry.paginate('/v1/files/{file_id}');
  // @ts-expect-error not a sort field of files
  quarry.paginate('/v1/files', { query: { sort_by: 'colour' } });
  // @ts-expect-error search needs a query
  await quarry.search(kbId, { top_k: 3 });
}

export async function sourceExamples(kbId: string) {
  const source = await quarry.createSource({ type: 's3', knowledge_base_id: kbId, config: { bucket: 'company-docs', prefix: 'handbook/' }, schedule: { cron: '0 3 * * *', timezone: 'Europe/Paris' } });
  source.last_run?.status satisfies 'queued' | 'running' | 'indexing' | 'completed' | 'failed' | undefined;
  const page = await quarry.listSources({ knowledge_base_id: kbId });
  page.items[0]?.item_count satisfies number | undefined;
  await quarry.updateSource(source.id, { schedule: { interval: '6h' }, enabled: true });
  const run = await quarry.syncSource(source.id);
  const done = await quarry.waitForSourceRun(source.id, run.id, { onProgress: (p) => console.log(p.stage, p.percent), timeoutMs: 30 * 60_000 });
  for (const f of done.failures) console.log(f.url, f.reason);
  done.counts.added satisfies number;
  (await quarry.listSourceRuns(source.id, { limit: 10 })).items[0]?.trigger satisfies 'created' | 'manual' | 'schedule' | 'retry' | undefined;
  (await quarry.testSource({ type: 'web', config: { start_url: 'https://docs.example.com/' } })).items[0]?.url satisfies string | undefined;
  await quarry.deleteSource(source.id, { keepDocuments: true });

  const hit = (await quarry.hybridSearch(kbId, { query: 'leave policy' })).chunks[0];
  const { results } = await quarry.verifyCitations([{ chunk_id: hit.id, document_id: hit.document_id, file_version: hit.file_version ?? undefined }]);
  results[0].status satisfies 'current' | 'stale' | 'gone';
  // @ts-expect-error a source needs its knowledge base
  await quarry.createSource({ type: 'url', config: { url: 'https://example.com/a.pdf' } });
  // @ts-expect-error not a source type
  await quarry.testSource({ type: 'ftp', config: {} });
}

export function receiver() {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      try {
        const event = verifyWebhook({ secret: process.env.QUARRY_WEBHOOK_SECRET!, body: Buffer.concat(chunks), headers: req.headers });
        console.log(event.type, event.data);
        res.writeHead(204).end();
      } catch (err) {
        res.writeHead(err instanceof WebhookVerificationError ? 401 : 500).end();
      }
    });
  });
}
