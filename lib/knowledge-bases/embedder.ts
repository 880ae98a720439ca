import { ApiError } from '@/lib/errors';
import type { KnowledgeBaseRow } from '@/lib/db/schema';
import { EmbeddingError, embedderRecipeFor, embeddingProviderFor, type EmbedderRecipe, type EmbeddingSpec } from '@/lib/embeddings';
import type { EmbeddingProvider } from '@/lib/embeddings/types';

export function embeddingSpecOf(kb: KnowledgeBaseRow): EmbeddingSpec {
  return {
    provider: kb.embeddingProvider as EmbeddingSpec['provider'],
    model: kb.embeddingModel,
    dimensions: kb.embeddingDimensions,
  };
}

/** The embedder of the knowledge base's vector space; throws EmbeddingError when this server cannot produce it. */
export function embedderFor(kb: KnowledgeBaseRow): EmbeddingProvider {
  return embeddingProviderFor(embeddingSpecOf(kb));
}

/** How an indexing thread builds that embedder; throws EmbeddingError when this server cannot produce it. */
export function embedderRecipeOf(kb: KnowledgeBaseRow): EmbedderRecipe {
  return embedderRecipeFor(embeddingSpecOf(kb));
}

/** Embedding problems as API errors (search and creation requests). */
export function embeddingApiError(err: unknown): unknown {
  if (!(err instanceof EmbeddingError)) return err;
  switch (err.code) {
    case 'EMBEDDING_PROVIDER_MISMATCH':
      return new ApiError('EMBEDDING_PROVIDER_MISMATCH', err.message);
    case 'EMBEDDING_NOT_CONFIGURED':
      return new ApiError('EMBEDDING_NOT_CONFIGURED', err.message);
    default:
      return new ApiError('EMBEDDING_FAILED', err.message);
  }
}
