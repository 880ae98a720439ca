import { getConfig } from '@/lib/config';
import type { PostingList } from './postings';

/*
 * Decoded postings of recent query terms, kept in this process's memory (least recently used out
 * first, up to QUARRY_POSTINGS_CACHE_MB). An entry belongs to one state of one index generation:
 * its key holds the generation's next ordinal and chunk count, read in the search's own snapshot.
 * Adding chunks always raises the next ordinal and deleting them always lowers the count, so a
 * knowledge base that changed is never answered from an entry of before, in this process or
 * another one writing to the same database. Words common to many queries, whose postings are the
 * longest to read, are the ones that stay.
 */

/** The state of a generation's postings: changes whenever a chunk is added or removed. */
export interface PostingsVersion {
  kbId: string;
  generation: number;
  nextOrdinal: number;
  chunkTotal: number;
}

/** Per record: an ordinal (4 bytes) and two 16-bit values. */
const BYTES_PER_RECORD = 8;
const ENTRY_OVERHEAD = 200;

const versionKey = (v: PostingsVersion) => `${v.kbId}\u0000${v.generation}\u0000${v.nextOrdinal}\u0000${v.chunkTotal}`;

export class PostingsCache {
  private entries = new Map<string, { list: PostingList; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(version: PostingsVersion, term: string): PostingList | undefined {
    const key = `${versionKey(version)}\u0000${term}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.list;
  }

  set(version: PostingsVersion, term: string, list: PostingList): void {
    const bytes = list.count * BYTES_PER_RECORD + term.length * 2 + ENTRY_OVERHEAD;
    if (bytes > this.maxBytes) return;
    const key = `${versionKey(version)}\u0000${term}`;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    this.entries.set(key, { list, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

let shared: PostingsCache | null = null;
let sharedBytes = -1;

/** The process's cache, sized by the configuration (null when it is 0). */
export function postingsCache(): PostingsCache | null {
  const bytes = getConfig().knowledgeBases.postingsCacheBytes;
  if (bytes !== sharedBytes) {
    shared = bytes > 0 ? new PostingsCache(bytes) : null;
    sharedBytes = bytes;
  }
  return shared;
}
