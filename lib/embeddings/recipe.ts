import { createBuiltinEmbedder } from './builtin';
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from './openai';
import { createTransformersEmbedder, type TransformersEmbedderOptions } from './transformers';
import type { EmbeddingProvider } from './types';

/**
 * Everything needed to build a provider, as plain data: the server resolves a knowledge base's
 * vector space against its configuration once (lib/embeddings/index.ts), and a worker thread
 * builds the same provider from the recipe without reading the environment itself.
 */
export type EmbedderRecipe =
  | { provider: 'builtin'; dimensions: number }
  | { provider: 'openai'; options: OpenAIEmbedderOptions & { dimensions: number } }
  | { provider: 'transformers'; options: TransformersEmbedderOptions & { dimensions: number } };

export function createEmbedder(recipe: EmbedderRecipe): EmbeddingProvider {
  switch (recipe.provider) {
    case 'builtin':
      return createBuiltinEmbedder(recipe.dimensions);
    case 'openai':
      return createOpenAIEmbedder(recipe.options);
    case 'transformers':
      return createTransformersEmbedder(recipe.options);
  }
}
