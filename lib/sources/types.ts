import type { Readable } from 'node:stream';
import type { z } from 'zod';

/*
 * What a kind of source (a bucket, a website, one URL; later a drive or a wiki) must do for the
 * sync engine (engine.ts): list what it holds, tell cheaply whether an item changed, and fetch
 * one. The engine owns everything else: runs, resumption, versions, deletions, counts, events.
 * A new kind is one module implementing SourceType, registered in registry.ts.
 */

/**
 * What identifies one version of an item without its bytes, as far as the source tells it.
 * Two fingerprints name the same version when every field both have agrees (see sameVersion).
 */
export interface Fingerprint {
  etag?: string | null;
  last_modified?: string | null;
  size?: number | null;
  /** SHA-256 of the bytes, when they were read. */
  sha256?: string | null;
}

/** The fields of a fingerprint that say something (null and undefined dropped), to lay over a stored one. */
export function knownFields(fp: Fingerprint): Fingerprint {
  return Object.fromEntries(Object.entries(fp).filter(([, v]) => v !== undefined && v !== null));
}

/** An item a source holds, as listing (or a crawl) found it. */
export interface ItemRef {
  /** Its identity within the source, stable across syncs: an object key, a normalised URL. */
  key: string;
  /** Where a person or an agent can open it: the page's URL, s3://bucket/key. */
  url: string;
  /** What the listing already tells of its version (S3 gives ETag, size and time); absent when only a fetch can tell. */
  listed?: Fingerprint;
  /** Links followed from the start to reach it (crawls); 0 for a start page or a listed item. */
  depth?: number;
}

/** What the engine remembers of an item from the last sync that stored it. */
export interface StoredItem {
  fingerprint: Fingerprint;
  /** Items this one linked to (crawls), handed back when a conditional fetch says it is unchanged. */
  links: string[];
}

export type FetchResult =
  | {
      kind: 'content';
      body: Readable;
      /** The Content-Type the source gave, if any (the bytes decide the type; this helps name the file). */
      contentType: string | null;
      /** A file name for the item: its key's last segment, with an extension its type implies when it has none. */
      filename: string;
      fingerprint: Fingerprint;
      /** Items it links to, already within the source's reach (crawls). */
      links?: ItemRef[];
    }
  | {
      /** A conditional fetch answered "not modified": no bytes were read. */
      kind: 'unchanged';
      fingerprint: Fingerprint;
      links?: ItemRef[];
    }
  | {
      /** The item says it is a copy of another (a page's canonical link): that one is fetched instead. */
      kind: 'alias';
      canonical: ItemRef;
    }
  | {
      /** Not something to index (a crawled link to a stylesheet, an image): left out of the knowledge base, counted as skipped. */
      kind: 'skipped';
      reason: string;
    }
  | {
      /** The source no longer has it (404, 410, no such key). */
      kind: 'gone';
    };

/** A problem with one item (too large, refused, timed out): the item fails, the sync goes on. */
export class ItemError extends Error {
  constructor(
    message: string,
    readonly code = 'SOURCE_ITEM_FAILED',
  ) {
    super(message);
    this.name = 'ItemError';
  }
}

/**
 * A problem with the source as a whole (it cannot be reached, the credentials are refused, the
 * bucket does not exist): the sync fails and removes nothing.
 */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly code = 'SOURCE_UNREACHABLE',
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

/** What a source type's calls get besides its config: outbound rules and a per-sync scratch space. */
export interface SourceCallContext {
  /** Private, loopback and link-local addresses may be reached (configuration, for tests and private deployments). */
  allowPrivate: boolean;
  /** Kept for one sync in this process (a site's robots.txt); empty again after a restart. */
  session: Map<string, unknown>;
  signal?: AbortSignal;
}

export interface SourceType<C = Record<string, unknown>, S = Record<string, unknown> | null> {
  /** The `type` of the API's source: s3, web, url. */
  readonly type: string;
  readonly label: string;
  /** The config this type takes (validated on create and update; what is stored and returned). */
  readonly configSchema: z.ZodType<C>;
  /** Credentials kept encrypted and never returned, when the type takes any (`credentials` in the API). */
  readonly credentialsSchema?: z.ZodType<S>;
  /** Checks the config beyond its shape (addresses allowed, the bucket reachable is not asked here). */
  validate?(config: C, ctx: Pick<SourceCallContext, 'allowPrivate'>): Promise<void>;
  /** Everything the source holds (or, for a crawl, where it starts). Throws SourceError when it cannot be listed. */
  list(config: C, credentials: S, ctx: SourceCallContext): AsyncIterable<ItemRef>;
  /** Fetches an item, conditionally when `previous` says what was stored. */
  fetch(config: C, credentials: S, item: ItemRef, previous: StoredItem | null, ctx: SourceCallContext): Promise<FetchResult>;
  /** The item's current fingerprint without its bytes (HEAD, HeadObject), or null when it is gone. */
  fingerprint(config: C, credentials: S, item: ItemRef, ctx: SourceCallContext): Promise<Fingerprint | null>;
  /** At most this many items in one sync (a crawl's page limit); none when absent. */
  maxItems?(config: C): number;
}

/**
 * True when two fingerprints name the same version: they share a content hash, ETag or
 * modification time, and no field both have differs. Size alone says little (two versions often
 * have the same length), so it only ever tells a change.
 */
export function sameVersion(a: Fingerprint | null | undefined, b: Fingerprint | null | undefined): boolean {
  if (!a || !b) return false;
  let telling = 0;
  for (const field of ['sha256', 'etag', 'last_modified', 'size'] as const) {
    const x = a[field];
    const y = b[field];
    if (x === undefined || x === null || y === undefined || y === null) continue;
    if (x !== y) return false;
    if (field !== 'size') telling++;
  }
  return telling > 0;
}
