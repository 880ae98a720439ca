import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { BlockedAddressError, pinnedLookup, resolveTarget } from '@/lib/webhooks/ssrf';
import { checkSourceAddress, sourceLookup } from './http';
import { ItemError, SourceError, type Fingerprint, type ItemRef, type SourceCallContext, type SourceType } from './types';

/*
 * A bucket and prefix on any S3-compatible server. Listing gives every object's ETag, size and
 * time, so an unchanged object costs no request of its own; a changed one is read with
 * If-None-Match. The endpoint is held to the private-address guard like every outbound request:
 * checked when the source is saved and at every connection (the agents' lookup checks each
 * address the name resolves to).
 */

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export const s3Config = z.object({
  bucket: z
    .string({ error: 'bucket is required and must be a string' })
    .regex(BUCKET, 'bucket must be a valid bucket name (3–63 lower-case letters, digits, dots and hyphens)')
    .meta({ description: 'The bucket', example: 'company-docs' }),
  prefix: z
    .string({ error: 'prefix must be a string' })
    .max(1024, 'prefix must be at most 1024 characters')
    .default('')
    .meta({ description: 'Only objects whose keys start with this (e.g. "handbook/"); all objects when empty' }),
  endpoint: z
    .url({ protocol: /^https?$/, error: 'endpoint must be an http or https URL' })
    .max(2048)
    .optional()
    .meta({ description: 'An S3-compatible server (MinIO, R2, …); Amazon S3 when omitted', example: 'https://s3.eu-west-1.amazonaws.com' }),
  region: z.string().min(1).max(64).optional().meta({ description: 'The region; from AWS_REGION (or us-east-1) when omitted' }),
  force_path_style: z.boolean({ error: 'force_path_style must be a boolean' }).default(false).meta({ description: 'Address the bucket as endpoint/bucket (MinIO-like servers)' }),
});
export type S3Config = z.infer<typeof s3Config>;

export const s3Credentials = z
  .object({
    access_key_id: z.string({ error: 'access_key_id is required' }).min(1).max(256),
    secret_access_key: z.string({ error: 'secret_access_key is required' }).min(1).max(512),
    session_token: z.string().min(1).max(4096).optional(),
  })
  .meta({ description: 'Kept encrypted, never returned. Without them, the standard AWS variables (as for storage) are used' });
export type S3Credentials = z.infer<typeof s3Credentials>;

/** Refuses an endpoint on a private, loopback or link-local address unless allowed. */
async function checkEndpoint(config: S3Config, allowPrivate: boolean): Promise<void> {
  if (config.endpoint) await checkSourceAddress(config.endpoint, 'endpoint', allowPrivate);
}

/** A lookup for the client's agents that answers only addresses the guard allows. */
function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: { all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolveTarget(hostname, { allowPrivate, lookup: sourceLookup(), subject: 'sources' }).then(
      (target) => pinnedLookup(target)(hostname, options, callback),
      (err: Error) => callback(Object.assign(err, { code: 'EADDRNOTAVAIL' }) as NodeJS.ErrnoException, ''),
    );
  };
}

function clientFor(config: S3Config, credentials: S3Credentials | null, ctx: Pick<SourceCallContext, 'allowPrivate'>): S3Client {
  const lookup = guardedLookup(ctx.allowPrivate) as never;
  const options: S3ClientConfig = {
    region: config.region ?? process.env.AWS_REGION ?? 'us-east-1',
    endpoint: config.endpoint,
    forcePathStyle: config.force_path_style,
    // The server's own storage settings (AWS_ENDPOINT_URL_S3) must not redirect a source elsewhere.
    ignoreConfiguredEndpointUrls: true,
    maxAttempts: 3,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      httpAgent: new http.Agent({ keepAlive: true, maxSockets: 8, lookup }),
      httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 8, lookup }),
      connectionTimeout: 10_000,
      requestTimeout: 60_000,
    },
    ...(credentials
      ? { credentials: { accessKeyId: credentials.access_key_id, secretAccessKey: credentials.secret_access_key, sessionToken: credentials.session_token } }
      : {}),
  };
  return new S3Client(options);
}

/**
 * One client per sync (its agents keep connections open between objects), made once the endpoint
 * passed the guard: a literal address never goes through the agents' lookup.
 */
async function sessionClient(config: S3Config, credentials: S3Credentials | null, ctx: SourceCallContext): Promise<S3Client> {
  const existing = ctx.session.get('s3:client') as S3Client | undefined;
  if (existing) return existing;
  await checkEndpoint(config, ctx.allowPrivate);
  const client = clientFor(config, credentials, ctx);
  ctx.session.set('s3:client', client);
  return client;
}

interface AwsError {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

function statusOf(err: unknown): number | undefined {
  return (err as AwsError)?.$metadata?.httpStatusCode;
}

/** Plain words for what went wrong talking to the bucket. */
function describe(err: unknown, config: S3Config): string {
  const e = err as AwsError;
  const where = `bucket ${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ''}`;
  if (e?.name === 'NoSuchBucket') return `The ${where} does not exist`;
  if (e?.name === 'AccessDenied' || statusOf(err) === 403) return `Access to the ${where} was refused: check the credentials and their permissions`;
  if (e?.name === 'InvalidAccessKeyId' || e?.name === 'SignatureDoesNotMatch') return `The ${where} refused the credentials (${e.name})`;
  if (e?.name === 'CredentialsProviderError') return `No credentials for the ${where}: give credentials in the source or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`;
  if (e instanceof BlockedAddressError || /not a public address|local host name/.test(e?.message ?? '')) {
    return `The ${where} is not allowed: ${e?.message}`;
  }
  return `The ${where} could not be reached: ${(e?.code ? `${e.code}: ` : '') + (e?.message ?? String(err))}`.slice(0, 500);
}

const unquote = (etag: string | undefined): string | null => (etag ? etag.replace(/^W\//, '').replace(/^"|"$/g, '') : null);

function fingerprintOf(meta: { ETag?: string; ContentLength?: number; Size?: number; LastModified?: Date }): Fingerprint {
  return {
    etag: unquote(meta.ETag),
    size: meta.ContentLength ?? meta.Size ?? null,
    last_modified: meta.LastModified ? meta.LastModified.toISOString() : null,
  };
}

function refOf(config: S3Config, key: string, listed?: Fingerprint): ItemRef {
  return { key, url: `s3://${config.bucket}/${key}`, listed };
}

export const s3Source: SourceType<S3Config, S3Credentials | null> = {
  type: 's3',
  label: 'S3-compatible bucket',
  configSchema: s3Config,
  credentialsSchema: s3Credentials,
  async validate(config, ctx) {
    await checkEndpoint(config, ctx.allowPrivate);
  },
  async *list(config, credentials, ctx) {
    let client: S3Client;
    try {
      client = await sessionClient(config, credentials, ctx);
    } catch (err) {
      throw err instanceof SourceError ? err : new SourceError(describe(err, config));
    }
    let token: string | undefined;
    do {
      let page;
      try {
        page = await client.send(
          new ListObjectsV2Command({ Bucket: config.bucket, Prefix: config.prefix || undefined, ContinuationToken: token, MaxKeys: 1000 }),
          { abortSignal: ctx.signal },
        );
      } catch (err) {
        throw new SourceError(describe(err, config), statusOf(err) === 403 ? 'SOURCE_ACCESS_DENIED' : 'SOURCE_UNREACHABLE');
      }
      for (const object of page.Contents ?? []) {
        // "Folders" made by consoles are empty keys ending in '/'.
        if (!object.Key || object.Key.endsWith('/')) continue;
        yield refOf(config, object.Key, fingerprintOf(object));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  },
  async fetch(config, credentials, item, previous, ctx) {
    const client = await sessionClient(config, credentials, ctx);
    const etag = previous?.fingerprint.etag;
    try {
      const out = await client.send(
        new GetObjectCommand({ Bucket: config.bucket, Key: item.key, IfNoneMatch: etag ? `"${etag}"` : undefined }),
        { abortSignal: ctx.signal },
      );
      return {
        kind: 'content',
        body: out.Body as Readable,
        contentType: out.ContentType ?? null,
        filename: item.key.split('/').pop() || item.key,
        fingerprint: fingerprintOf(out),
      };
    } catch (err) {
      const status = statusOf(err);
      if (status === 304) return { kind: 'unchanged', fingerprint: { ...previous!.fingerprint, ...(item.listed ?? {}) } };
      if ((err as AwsError)?.name === 'NoSuchKey' || status === 404) return { kind: 'gone' };
      throw new ItemError(describe(err, config));
    }
  },
  async fingerprint(config, credentials, item, ctx) {
    const client = await sessionClient(config, credentials, ctx);
    try {
      return fingerprintOf(await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: item.key }), { abortSignal: ctx.signal }));
    } catch (err) {
      if ((err as AwsError)?.name === 'NotFound' || statusOf(err) === 404) return null;
      throw new SourceError(describe(err, config));
    }
  },
};
