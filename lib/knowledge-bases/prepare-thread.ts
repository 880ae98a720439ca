/**
 * The indexing thread: prepares a document's chunks (prepare.ts) for one session at a time and
 * keeps them until the server has fetched their rows or starts the next document. Bundled into
 * .quarry/indexing-thread.mjs (lib/workers/bundle.ts) and run by lib/knowledge-bases/preparer.ts.
 */
import type { ChunkingStrategy, ExtractionLayout } from '@/lib/chunking';
import { storedDocument } from '@/lib/document/stored';
import type { QuarryDocument } from '@/lib/document/types';
import { createEmbedder, type EmbedderRecipe } from '@/lib/embeddings/recipe';
import { serveRequests } from '@/lib/workers/thread-serve';
import { chunkRows, prepareChunks, summaryOf, vectorTextAhead, type PreparedChunks, type PrepareLimits } from './prepare';

export type PrepareThreadMessage =
  | {
      type: 'prepare';
      markdown: string;
      layout?: ExtractionLayout | null;
      /** The extraction's document model as JSON text, which chunking reads the Markdown by. */
      document?: string | null;
      /** One set of chunks per strategy (the active generation's, and a re-index's). */
      strategies: ChunkingStrategy[];
      embedder: EmbedderRecipe;
      metadata: Record<string, unknown>;
      limits: PrepareLimits;
    }
  | { type: 'rows'; set: number; start: number; count: number }
  | { type: 'release' };

let prepared: PreparedChunks[] = [];

/** The stored model from its JSON text; null when there is none or it does not read as one (the Markdown is parsed then). */
function parsedDocument(json: string | null | undefined): QuarryDocument | null {
  if (!json) return null;
  try {
    return storedDocument(JSON.parse(json));
  } catch {
    return null;
  }
}

serveRequests(async (message: PrepareThreadMessage) => {
  switch (message.type) {
    case 'prepare': {
      prepared = [];
      const provider = createEmbedder(message.embedder);
      const document = parsedDocument(message.document);
      const sets: PreparedChunks[] = [];
      for (const strategy of message.strategies) {
        sets.push(await prepareChunks(message.markdown, strategy, provider, message.metadata, message.limits, message.layout, document));
      }
      prepared = sets;
      vectorTextAhead(sets, () => prepared === sets);
      return sets.map(summaryOf);
    }
    case 'rows': {
      const set = prepared[message.set];
      if (!set) throw new Error(`No prepared chunks numbered ${message.set}`);
      return chunkRows(set, message.start, message.count);
    }
    case 'release':
      prepared = [];
      return null;
  }
});
