import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkKey, STAGING_MAX_AGE_MS, StorageNotFoundError, type ByteRange, type StagedObject, type Storage, type StorageArea } from './types';

/** Bytes buffered per multipart part, and parts in flight: an upload holds at most 16 MB. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export interface S3Location {
  bucket: string;
  /** '' or a prefix ending in '/'. */
  prefix: string;
}

/** Parses `s3://bucket/optional/prefix`; null when `url` is not such an address. */
export function parseS3Url(url: string): S3Location | null {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/.*)?$/.exec(url);
  if (!match) return null;
  const prefix = (match[2] ?? '').split('/').filter(Boolean).join('/');
  return { bucket: match[1], prefix: prefix ? `${prefix}/` : '' };
}

export interface S3StorageOptions extends S3Location {
  /** Addresses the bucket as a path (`endpoint/bucket/key`) as MinIO-like servers need. */
  forcePathStyle?: boolean;
  /** Client settings for tests; credentials, region and endpoint otherwise come from the standard AWS variables and files. */
  client?: S3ClientConfig;
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** The total size in a `Content-Range: bytes a-b/total` answer. */
function totalOf(contentRange: string | undefined): number | undefined {
  const total = contentRange?.split('/')[1];
  return total && total !== '*' ? Number(total) : undefined;
}

/**
 * Keeps objects in an S3-compatible bucket under `<prefix>objects/`, staged uploads under
 * `<prefix>staging/`. Uploads stream as multipart uploads (at most 16 MB buffered); commit is a
 * server-side copy, so nothing is readable under a key before it.
 */
export class S3Storage implements Storage {
  readonly kind = 's3';
  readonly bucket: string;
  private readonly prefix: string;
  private client: Promise<S3Client> | undefined;

  constructor(private readonly options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
  }

  private s3(): Promise<S3Client> {
    this.client ??= (async () => {
      const env = process.env;
      const config: S3ClientConfig = { forcePathStyle: this.options.forcePathStyle, maxAttempts: 3, ...this.options.client };
      // Many S3-compatible services reject the SDK's default trailing checksums; ask for them only
      // where an operation requires one, unless the standard variables say otherwise.
      if (!env.AWS_REQUEST_CHECKSUM_CALCULATION) config.requestChecksumCalculation ??= 'WHEN_REQUIRED';
      if (!env.AWS_RESPONSE_CHECKSUM_VALIDATION) config.responseChecksumValidation ??= 'WHEN_REQUIRED';
      if (!config.region) {
        // The region from AWS_REGION or the profile; S3-compatible servers without one accept us-east-1.
        const probe = new S3Client({});
        config.region = await probe.config.region().catch(() => 'us-east-1');
        probe.destroy();
      }
      return new S3Client(config);
    })();
    return this.client;
  }

  private objectKey(key: string): string {
    return `${this.prefix}objects/${checkKey(key)}`;
  }

  private stagingKey(name: string): string {
    return `${this.prefix}staging/${name}`;
  }

  async stage(body: Readable): Promise<StagedObject> {
    const client = await this.s3();
    const name = randomUUID();
    const Key = this.stagingKey(name);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const feeding = pipeline(body, counter);
    const upload = new Upload({
      client,
      params: { Bucket: this.bucket, Key, Body: counter, ContentType: 'application/octet-stream' },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    const [fed, uploaded] = await Promise.allSettled([feeding, upload.done()]);
    if (fed.status === 'rejected' || uploaded.status === 'rejected') {
      if (uploaded.status === 'fulfilled') await this.deleteRaw(Key).catch(() => undefined);
      else await upload.abort().catch(() => undefined);
      counter.destroy();
      // The body's own error (a size limit, an interrupted request) explains the failure best.
      throw fed.status === 'rejected' ? fed.reason : (uploaded as PromiseRejectedResult).reason;
    }
    return {
      size,
      commit: async (key) => {
        await client.send(
          new CopyObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), CopySource: encodeURI(`${this.bucket}/${Key}`) }),
        );
        await this.deleteRaw(Key).catch(() => undefined);
      },
      discard: () => this.deleteRaw(Key),
    };
  }

  async read(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number }> {
    const client = await this.s3();
    try {
      const out = await client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      const stream = out.Body as Readable;
      const size = totalOf(out.ContentRange) ?? out.ContentLength ?? 0;
      return { stream, size };
    } catch (err) {
      if (isMissing(err)) throw new StorageNotFoundError(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.deleteRaw(this.objectKey(key));
  }

  private async deleteRaw(Key: string): Promise<void> {
    const client = await this.s3();
    try {
      await client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  async probe(): Promise<void> {
    const client = await this.s3();
    const Key = `${this.prefix}probe/${randomUUID()}`;
    const payload = `probe ${Date.now()}`;
    try {
      await client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: payload }));
      const out = await client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      const back = await out.Body!.transformToString();
      if (back !== payload) throw new Error('storage probe read back different bytes');
    } finally {
      await this.deleteRaw(Key).catch(() => undefined);
    }
  }

  /** Every object under `<prefix><area>/`, with its age. */
  private async *walk(area: StorageArea): AsyncGenerator<{ key: string; name: string; modified: Date | undefined }> {
    const client = await this.s3();
    const Prefix = `${this.prefix}${area}/`;
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken }));
      for (const item of page.Contents ?? []) {
        if (item.Key) yield { key: item.Key, name: item.Key.slice(Prefix.length), modified: item.LastModified };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async list(area: StorageArea): Promise<string[]> {
    const names: string[] = [];
    for await (const item of this.walk(area)) names.push(item.name);
    return names.sort();
  }

  async sweepStaging(olderThanMs = STAGING_MAX_AGE_MS): Promise<number> {
    const client = await this.s3();
    const cutoff = Date.now() - olderThanMs;
    const old: string[] = [];
    for await (const item of this.walk('staging')) {
      if (item.modified && item.modified.getTime() < cutoff) old.push(item.key);
    }
    // One request per object: not every S3-compatible server takes batch deletes, and sweeps are rare.
    for (const Key of old) await this.deleteRaw(Key);
    await this.abortStaleMultipart(client, cutoff);
    return old.length;
  }

  /** Multipart uploads a crash left open keep their parts (and their cost) until aborted. */
  private async abortStaleMultipart(client: S3Client, cutoff: number): Promise<void> {
    let listing;
    try {
      listing = await client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.stagingKey('') }));
    } catch {
      return; // not every S3-compatible server lists uploads; a bucket lifecycle rule covers them
    }
    for (const upload of listing.Uploads ?? []) {
      if (upload.Key && upload.UploadId && upload.Initiated && upload.Initiated.getTime() < cutoff) {
        await client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId })).catch(() => undefined);
      }
    }
  }

  /** Closes the client's connections (tests and shutdown). */
  async close(): Promise<void> {
    if (this.client) (await this.client).destroy();
    this.client = undefined;
  }
}
