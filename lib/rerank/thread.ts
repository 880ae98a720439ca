/**
 * The rerank thread: scores (query, passage) pairs with a local cross-encoder. Bundled into
 * .quarry/rerank-thread.mjs (lib/workers/bundle.ts) and run by lib/rerank/local.ts.
 */
import { serveRequests } from '@/lib/workers/thread-serve';
import { crossEncode } from './cross-encoder';

export interface RerankThreadMessage {
  modelDir: string;
  model: string;
  query: string;
  passages: string[];
}

serveRequests((message: RerankThreadMessage) => crossEncode(message.modelDir, message.model, message.query, message.passages));
