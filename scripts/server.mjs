// The Quarry HTTP server: Next.js behind a plain Node server that records each connection's
// peer address in a header handlers can trust (used by API-key IP allow-lists).
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import next from 'next';
import { clientErrorResponse, earlyReply, errorReply } from './lib/early-errors.mjs';

const CLIENT_IP_HEADER = 'x-quarry-client-ip';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

export async function startServer({ dev = false, port = Number(process.env.PORT || 3000), hostname = process.env.HOST || '0.0.0.0' } = {}) {
  // Console sign-in builds its URLs from the request's Host unless NEXTAUTH_URL fixes them.
  if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= 'true';
  const app = next({ dev, dir: root, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();

  const reply = (res, { status, headers, body }) => {
    res.writeHead(status, headers);
    res.end(body);
  };
  const server = http.createServer((req, res) => {
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? '';
    const early = earlyReply(req.method, req.url);
    if (early) {
      // The body is not read: close the connection rather than parse what follows as a request.
      res.shouldKeepAlive = false;
      return reply(res, early);
    }
    handle(req, res).catch((err) => {
      const failure = errorReply(500, 'INTERNAL_ERROR', 'An internal error occurred');
      console.error(`[${failure.headers['x-request-id']}] request failed`, err);
      if (!res.headersSent) reply(res, failure);
      else res.destroy();
    });
  });
  // Malformed request lines and headers, answered in the API's error body instead of Node's empty one.
  server.on('clientError', (err, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    socket.end(clientErrorResponse(err));
  });
  // Large uploads on slow links need more than Node's default 5 minutes.
  server.requestTimeout = 30 * 60 * 1000;
  server.headersTimeout = 60 * 1000;
  server.keepAliveTimeout = 65 * 1000;

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, resolve);
  });

  const shown = hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname;
  // The first request runs start-up (database lock, migrations, first admin key): do it now,
  // so problems show before the banner and the first real request is not slowed down.
  const warmUp = await fetch(`http://127.0.0.1:${port}/health`).catch((err) => err);
  if (warmUp instanceof Error || !warmUp.ok) {
    console.error(`Quarry started but does not answer /health: ${warmUp instanceof Error ? warmUp.message : warmUp.status}`);
  }
  console.log(
    [
      '',
      `Quarry ${version} is running${dev ? ' (development mode)' : ''}.`,
      `  API:        http://${shown}:${port}/v1   (send "Authorization: Bearer <API key>")`,
      `  API schema: http://${shown}:${port}/v1/openapi.json`,
      `  Health:     http://${shown}:${port}/health`,
      '',
    ].join('\n'),
  );

  let closing = false;
  const shutdown = (signal) => {
    if (closing) return;
    closing = true;
    console.log(`${signal} received: finishing open requests, then stopping.`);
    server.close(async () => {
      try {
        await globalThis.__quarryShutdown?.();
      } finally {
        process.exit(0);
      }
    });
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return server;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  startServer({ dev: process.argv.includes('--dev') }).catch((err) => {
    console.error(`Quarry could not start: ${err?.message ?? err}`);
    process.exit(1);
  });
}
