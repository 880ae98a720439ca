import type { Readable } from 'node:stream';

/** An inclusive byte range of a stored object, as in an HTTP `Range: bytes=start-end` request. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Which part of the store `list` reads: committed objects or uncommitted staged uploads. */
export type StorageArea = 'objects' | 'staging';

/**
 * Where file bytes live: the local disk (one process) or an S3-compatible bucket (any number of
 * replicas). Services only see this interface.
 */
export interface Storage {
  readonly kind: string;
  /**
   * Streams `body` into a staging area. Nothing is visible under a key until `commit`.
   * If the stream fails the partial bytes are removed and the error is rethrown.
   */
  stage(body: Readable): Promise<StagedObject>;
  /**
   * Opens an object (or `range` of it) for reading; `size` is the whole object's size.
   * Throws StorageNotFoundError when it does not exist.
   */
  read(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number }>;
  /** Removes an object; succeeds when it is already gone. */
  delete(key: string): Promise<void>;
  /** A path on this machine holding the object's bytes, when the backend keeps them on local disk. */
  localPath?(key: string): string;
  /** Writes, reads back and deletes a small object to prove the backend works. */
  probe(): Promise<void>;
  /** Names in an area: object keys, or staged uploads not yet committed or discarded. */
  list(area: StorageArea): Promise<string[]>;
  /** Removes staged uploads older than `olderThanMs` (left by a crash); returns how many. */
  sweepStaging(olderThanMs?: number): Promise<number>;
}

export interface StagedObject {
  size: number;
  /** Makes the staged bytes readable under `key`. */
  commit(key: string): Promise<void>;
  /** Drops the staged bytes. */
  discard(): Promise<void>;
}

export class StorageNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored object ${key}`);
    this.name = 'StorageNotFoundError';
  }
}

/** Keys are generated ids; anything else is refused so a key can never escape its root or prefix. */
const SAFE_KEY = /^[A-Za-z0-9_-]{1,200}$/;

export function checkKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

/** Staged uploads older than this are a crash's leftovers (no upload takes an hour to stream). */
export const STAGING_MAX_AGE_MS = 3_600_000;
