/**
 * A real S3-protocol server in its own process on loopback (s3rver, keeping objects in a
 * temporary directory), for tests of the bucket storage backend and of whole suites run on it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BIN = path.join(import.meta.dirname, '..', '..', 'node_modules', 's3rver', 'bin', 's3rver.js');

/** s3rver's fixed credentials: it checks request signatures against these. */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  dir: string;
  process: ChildProcess;
  /** The variables a Quarry process needs to use this server (QUARRY_STORAGE_URL given a prefix). */
  env(prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3Server(options: { bucket?: string; port?: number } = {}): Promise<S3TestServer> {
  const bucket = options.bucket ?? 'quarry-test';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-s3-'));
  const child = spawn(process.execPath, [BIN, '-d', dir, '-p', String(options.port ?? 0), '-a', '127.0.0.1', '--configure-bucket', bucket], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${out}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on ([\d.]+):(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(`http://${match[1]}:${match[2]}`);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with ${code}: ${out}`));
    });
  });
  // Request logs are not needed once it listens; keep the pipes drained.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    endpoint,
    bucket,
    dir,
    process: child,
    env: (prefix = '') => ({
      QUARRY_STORAGE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
      QUARRY_S3_FORCE_PATH_STYLE: 'true',
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      AWS_REGION: 'us-east-1',
    }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
}

/**
 * An HTTP proxy on loopback in front of the S3 server that records every request and answers
 * 500 itself to those `fail` picks: to see what the client sends and to break an upload midway.
 */
export async function startRecordingProxy(target: string, fail: (req: RecordedRequest) => boolean = () => false) {
  const http = await import('node:http');
  const requests: RecordedRequest[] = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const seen = { method: req.method ?? 'GET', url: req.url ?? '/' };
    requests.push(seen);
    if (fail(seen)) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>injected failure</Message></Error>');
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
