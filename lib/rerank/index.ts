import { getRerankConfig } from './config';
import { RerankError } from './errors';
import { rerankOverHttp } from './http';
import { rerankLocally } from './local';

export { resetRerankConfig } from './config';
export { RerankError } from './errors';

/**
 * One relevance score per passage, in input order, from the configured reranker; passages are cut
 * to QUARRY_RERANK_MAX_CHARS first. Throws RerankError.
 */
export async function rerank(query: string, passages: string[]): Promise<number[]> {
  const config = getRerankConfig();
  if (config.kind === 'none') {
    throw new RerankError(
      'RERANK_NOT_CONFIGURED',
      'No reranker is configured on this server: set QUARRY_RERANK_URL (a Cohere, Jina or Text Embeddings Inference /rerank endpoint) or QUARRY_RERANK_MODEL_DIR and QUARRY_RERANK_MODEL (a local cross-encoder), or search without rerank',
    );
  }
  if (passages.length === 0) return [];
  const cut = passages.map((p) => (p.length > config.maxChars ? p.slice(0, config.maxChars) : p));
  return config.kind === 'http' ? rerankOverHttp(config, query, cut) : rerankLocally(config, query, cut);
}
