import type { Readable } from 'node:stream';

/**
 * Where file bytes live. Services only see this interface, so another backend
 * (an S3-compatible bucket, say) can be added without touching them.
 */
export interface Storage {
  readonly kind: string;
  /**
   * Streams `body` into a staging area. Nothing is visible under a key until `commit`.
   * If the stream fails the partial bytes are removed and the error is rethrown.
   */
  stage(body: Readable): Promise<StagedObject>;
  /** Opens an object for reading; throws StorageNotFoundError when it does not exist. */
  read(key: string): Promise<{ stream: Readable; size: number }>;
  /** Removes an object; succeeds when it is already gone. */
  delete(key: string): Promise<void>;
  /** A path on this machine holding the object's bytes, when the backend keeps them on local disk. */
  localPath?(key: string): string;
  /** Writes, reads back and deletes a small object to prove the backend works. */
  probe(): Promise<void>;
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
