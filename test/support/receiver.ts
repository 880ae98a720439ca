import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body bytes as received. */
  body: Buffer;
}

export type Reply = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

/**
 * A real HTTP server on loopback that records every request and answers from a script: each
 * request takes the next reply (the last one repeats).
 */
export async function startReceiver(replies: Reply[] = [{ status: 200, body: 'ok' }]) {
  const received: ReceivedRequest[] = [];
  let script = [...replies];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const reply = script.length > 1 ? script.shift()! : script[0];
      const send = () => {
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body ?? '');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    reply(next: Reply[]) {
      script = [...next];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
