import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server standing in for Inngest (Cloud or `inngest start`) in tests: the event API
 * (POST /e/<event key>) and app registration (POST /fn/register). Every request is recorded.
 */
export interface InngestRequest {
  method: string;
  /** Path and query string. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface SentEvent {
  id?: string;
  name: string;
  data: Record<string, unknown>;
}

export interface FakeInngest {
  /** http://127.0.0.1:<port>, for INNGEST_BASE_URL. */
  origin: string;
  requests: InngestRequest[];
  /** Events received at /e/<key>, in order (a resend appears again). */
  events(key?: string): SentEvent[];
  /** Answer the event API with this status until called again (200: normal). */
  failSends(status: number): void;
  close(): Promise<void>;
}

export async function startFakeInngest(): Promise<FakeInngest> {
  const requests: InngestRequest[] = [];
  let sendStatus = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // Kept as text.
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && path.startsWith('/e/')) {
        const events = Array.isArray(body) ? (body as SentEvent[]) : [body as SentEvent];
        if (sendStatus !== 200) {
          res.writeHead(sendStatus);
          res.end(JSON.stringify({ error: 'unavailable', status: sendStatus }));
          return;
        }
        res.writeHead(200);
        res.end(JSON.stringify({ ids: events.map((e, i) => e.id ?? `evt_${requests.length}_${i}`), status: 200 }));
        return;
      }
      if (req.method === 'POST' && path === '/fn/register') {
        res.writeHead(200);
        res.end(JSON.stringify({ ok: true, modified: true }));
        return;
      }
      res.writeHead(404);
      res.end(JSON.stringify({ error: 'not found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    events(key) {
      return requests
        .filter((r) => r.method === 'POST' && (key ? r.url === `/e/${key}` : r.url.startsWith('/e/')) && Array.isArray(r.body))
        .flatMap((r) => r.body as SentEvent[]);
    },
    failSends(status) {
      sendStatus = status;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
