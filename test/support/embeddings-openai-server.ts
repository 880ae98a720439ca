import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that answers like the OpenAI embeddings API (POST …/embeddings), for tests.
 * Every request is recorded. By default each input gets a deterministic vector that depends on
 * its text and is not unit length, and the items come back in reverse order with their `index`
 * (as a server is allowed to). Scripted answers (`failNext`) are used first, one per request.
 */
export interface RecordedRequest {
  method: string;
  /** Path and query string. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: { model?: string; input?: string[]; dimensions?: number; [key: string]: unknown };
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Sent as is when a string, as JSON otherwise. */
  body?: unknown;
  /** Never answer this request (the client has to time out). */
  hang?: boolean;
}

export interface FakeEmbeddingServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: RecordedRequest[];
  /** The vector length when a request has no `dimensions`. */
  nativeDimensions: number;
  /** Answers for the next requests, in order; afterwards the server answers normally again. */
  failNext(...answers: ScriptedAnswer[]): void;
  /** Forgets recorded requests and unused scripted answers. */
  reset(): void;
  close(): Promise<void>;
}

/** The raw (not normalised) vector the server returns for a text. */
export function fakeVector(text: string, dimensions: number): number[] {
  let seed = 7;
  for (const ch of text) seed = (seed * 31 + ch.codePointAt(0)!) % 1_000_003;
  return Array.from({ length: dimensions }, (_, i) => 3 * (((seed * (i + 1)) % 17) - 8) + 0.5);
}

export async function startFakeEmbeddingServer(nativeDimensions = 12): Promise<FakeEmbeddingServer> {
  const requests: RecordedRequest[] = [];
  const script: ScriptedAnswer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: RecordedRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // Recorded as an empty body; the default answer below rejects it.
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const scripted = script.shift();
      if (scripted?.hang) return;
      if (scripted) {
        const payload = typeof scripted.body === 'string' ? scripted.body : JSON.stringify(scripted.body ?? {});
        res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
        res.end(payload);
        return;
      }
      if (req.method !== 'POST' || !Array.isArray(body.input)) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: "'input' must be an array of strings" } }));
        return;
      }
      const dimensions = typeof body.dimensions === 'number' ? body.dimensions : fake.nativeDimensions;
      const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, dimensions) }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: data.reverse(), model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeEmbeddingServer = {
    origin: `http://127.0.0.1:${port}`,
    requests,
    nativeDimensions,
    failNext: (...answers) => void script.push(...answers),
    reset: () => {
      requests.length = 0;
      script.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
