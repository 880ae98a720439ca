import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage, parseS3Url, S3Storage, StorageNotFoundError, type Storage } from '@/lib/storage';
import { S3_TEST_CREDENTIALS, startRecordingProxy, startS3Server, type S3TestServer } from '@/test/support/s3-server';

/**
 * Both storage backends against the same expectations: the data directory, and a bucket on a
 * real S3-protocol server process on loopback.
 */
let s3: S3TestServer;
const dirs: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
});

afterAll(async () => {
  await s3?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function bucket(prefix: string, endpoint = s3.endpoint): S3Storage {
  return new S3Storage({
    bucket: s3.bucket,
    prefix,
    forcePathStyle: true,
    client: { endpoint, region: 'us-east-1', credentials: S3_TEST_CREDENTIALS, maxAttempts: 2 },
  });
}

const backends: [string, () => Storage][] = [
  [
    'local disk',
    () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-storage-'));
      dirs.push(dir);
      return new LocalStorage(dir);
    },
  ],
  ['S3 bucket', () => bucket(`case-${randomBytes(4).toString('hex')}/`)],
];

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A body that yields `before` bytes in 1 MB pieces, then fails. */
function failingBody(before: number, error: Error): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= before) {
        this.destroy(error);
        return;
      }
      const piece = Math.min(1024 * 1024, before - sent);
      sent += piece;
      this.push(randomBytes(piece));
    },
  });
}

describe.each(backends)('%s storage', (_name, make) => {
  it('keeps a staged upload invisible until commit, then reads it whole and by range', async () => {
    const storage = make();
    // Larger than one multipart part (8 MB), so a bucket receives a real multipart upload.
    const body = randomBytes(12 * 1024 * 1024 + 17);
    const staged = await storage.stage(Readable.from([body.subarray(0, 5_000_000), body.subarray(5_000_000)]));
    expect(staged.size).toBe(body.length);
    await expect(storage.read('file_01before')).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await storage.list('objects')).toEqual([]);
    expect(await storage.list('staging')).toHaveLength(1);

    await staged.commit('file_01before');
    expect(await storage.list('objects')).toEqual(['file_01before']);
    expect(await storage.list('staging')).toEqual([]);
    const whole = await storage.read('file_01before');
    expect(whole.size).toBe(body.length);
    expect((await bytesOf(whole.stream)).equals(body)).toBe(true);

    const part = await storage.read('file_01before', { start: 9_000_000, end: 9_000_099 });
    expect(part.size).toBe(body.length);
    expect((await bytesOf(part.stream)).equals(body.subarray(9_000_000, 9_000_100))).toBe(true);
    const tail = await storage.read('file_01before', { start: body.length - 3, end: body.length - 1 });
    expect((await bytesOf(tail.stream)).equals(body.subarray(-3))).toBe(true);
  });

  it('discards a staged upload without a trace, and deletes idempotently', async () => {
    const storage = make();
    const staged = await storage.stage(Readable.from([Buffer.from('temporary')]));
    await staged.discard();
    expect(await storage.list('staging')).toEqual([]);
    const kept = await storage.stage(Readable.from([Buffer.from('kept')]));
    await kept.commit('file_01kept');
    await storage.delete('file_01kept');
    await storage.delete('file_01kept');
    await storage.delete('file_01never');
    await expect(storage.read('file_01kept')).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await storage.list('objects')).toEqual([]);
  });

  it('rethrows a body that fails midway and keeps nothing of it', async () => {
    const storage = make();
    const reason = new Error('the client went away');
    await expect(storage.stage(failingBody(10 * 1024 * 1024, reason))).rejects.toBe(reason);
    expect(await storage.list('staging')).toEqual([]);
    expect(await storage.list('objects')).toEqual([]);
  });

  it('refuses keys that could leave its root or prefix', async () => {
    const storage = make();
    for (const key of ['../escape', 'a/b', '', 'x'.repeat(201)]) {
      await expect(storage.read(key)).rejects.toThrow(/Invalid storage key/);
    }
  });

  it('probes itself and sweeps only staged uploads older than the cut-off', async () => {
    const storage = make();
    await storage.probe();
    expect(await storage.list('staging')).toEqual([]);
    await storage.stage(Readable.from([Buffer.from('left by a crash')]));
    expect(await storage.sweepStaging(60_000)).toBe(0);
    await new Promise((r) => setTimeout(r, 1100)); // object timestamps have one-second resolution
    expect(await storage.sweepStaging(500)).toBe(1);
    expect(await storage.list('staging')).toEqual([]);
  });
});

describe('S3 bucket storage', () => {
  it('reads its address from s3://bucket/prefix', () => {
    expect(parseS3Url('s3://quarry-files')).toEqual({ bucket: 'quarry-files', prefix: '' });
    expect(parseS3Url('s3://quarry-files/prod//eu/')).toEqual({ bucket: 'quarry-files', prefix: 'prod/eu/' });
    expect(parseS3Url('https://quarry-files')).toBeNull();
    expect(parseS3Url('s3://Bad_Bucket')).toBeNull();
  });

  it('keeps objects of different prefixes apart', async () => {
    const a = bucket('tenant-a/');
    const b = bucket('tenant-b/');
    await (await a.stage(Readable.from([Buffer.from('a')]))).commit('file_01shared');
    expect(await b.list('objects')).toEqual([]);
    await expect(b.read('file_01shared')).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await text((await a.read('file_01shared')).stream)).toBe('a');
  });

  it('aborts a multipart upload whose part uploads fail, and leaves no object', async () => {
    // Every second part upload is answered 500 by a proxy in front of the server.
    const proxy = await startRecordingProxy(s3.endpoint, (req) => req.method === 'PUT' && /partNumber=2\b/.test(req.url));
    try {
      const storage = bucket('broken-upload/', proxy.endpoint);
      await expect(storage.stage(Readable.from([randomBytes(20 * 1024 * 1024)]))).rejects.toThrow();
      const created = proxy.requests.filter((r) => r.method === 'POST' && r.url.includes('uploads'));
      expect(created).toHaveLength(1);
      const uploadId = /uploadId=([^&]+)/.exec(proxy.requests.find((r) => r.url.includes('uploadId='))!.url)![1];
      expect(proxy.requests.some((r) => r.method === 'DELETE' && r.url.includes(`uploadId=${uploadId}`))).toBe(true);
      expect(proxy.requests.some((r) => r.method === 'POST' && r.url.includes(`uploadId=${uploadId}`))).toBe(false); // never completed
      expect(await storage.list('staging')).toEqual([]);
      expect(await storage.list('objects')).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('reports an unreachable bucket as a failed probe, not a hang', async () => {
    const gone = bucket('x/', 'http://127.0.0.1:9');
    await expect(gone.probe()).rejects.toThrow();
  });
});
