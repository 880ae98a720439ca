import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { checkKey, STAGING_MAX_AGE_MS, StorageNotFoundError, type ByteRange, type StagedObject, type Storage, type StorageArea } from './types';

/** Keeps objects as files under `root`, fanned out by a two-character prefix of the key. */
export class LocalStorage implements Storage {
  readonly kind = 'local';
  private readonly objects: string;
  private readonly staging: string;

  constructor(root: string) {
    this.objects = path.join(root, 'objects');
    this.staging = path.join(root, 'staging');
  }

  private pathOf(key: string): string {
    checkKey(key);
    const shard = key.slice(-2);
    return path.join(this.objects, shard, key);
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async stage(body: Readable): Promise<StagedObject> {
    await fsp.mkdir(this.staging, { recursive: true });
    const tmp = path.join(this.staging, randomUUID());
    try {
      await pipeline(body, fs.createWriteStream(tmp, { flags: 'wx' }));
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    const { size } = await fsp.stat(tmp);
    return {
      size,
      commit: async (key) => {
        const target = this.pathOf(key);
        await fsp.mkdir(path.dirname(target), { recursive: true });
        await fsp.rename(tmp, target);
      },
      discard: () => fsp.rm(tmp, { force: true }),
    };
  }

  async read(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number }> {
    const file = this.pathOf(key);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageNotFoundError(key);
      throw err;
    }
    const { size } = await handle.stat();
    return { stream: handle.createReadStream(range ? { start: range.start, end: range.end } : {}), size };
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async probe(): Promise<void> {
    await fsp.mkdir(this.staging, { recursive: true });
    const file = path.join(this.staging, `probe-${randomUUID()}`);
    const payload = `probe ${Date.now()}`;
    try {
      await fsp.writeFile(file, payload);
      const back = await fsp.readFile(file, 'utf8');
      if (back !== payload) throw new Error('storage probe read back different bytes');
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  async list(area: StorageArea): Promise<string[]> {
    if (area === 'staging') return fsp.readdir(this.staging).catch(() => []);
    const shards = await fsp.readdir(this.objects).catch(() => [] as string[]);
    const names = await Promise.all(shards.map((shard) => fsp.readdir(path.join(this.objects, shard)).catch(() => [] as string[])));
    return names.flat().sort();
  }

  async sweepStaging(olderThanMs = STAGING_MAX_AGE_MS): Promise<number> {
    let removed = 0;
    let names: string[];
    try {
      names = await fsp.readdir(this.staging);
    } catch {
      return 0;
    }
    const cutoff = Date.now() - olderThanMs;
    for (const name of names) {
      const file = path.join(this.staging, name);
      const stat = await fsp.stat(file).catch(() => null);
      if (stat && stat.mtimeMs < cutoff) {
        await fsp.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
