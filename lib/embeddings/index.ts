import path from 'node:path';
import { getConfig } from '@/lib/config';
import { EMBEDDING_PROVIDERS, type EmbeddingProviderName } from '@/lib/db/schema/enums';
import { BUILTIN_DIMENSIONS, BUILTIN_MODEL } from './builtin';
import { getEmbeddingConfig, resetEmbeddingConfig, type OpenAIConfig, type TransformersConfig } from './config';
import { EmbeddingError } from './errors';
import { probeDimensions, type OpenAIEmbedderOptions } from './openai';
import { createEmbedder, type EmbedderRecipe } from './recipe';
import { probeTransformersDimensions, resetTransformersModels, type TransformersEmbedderOptions } from './transformers';
import type { EmbeddingProvider } from './types';

export { EmbeddingError } from './errors';
export type { EmbedderRecipe } from './recipe';

/** The vector space of a knowledge base: recorded at creation, never mixed with another. */
export interface EmbeddingSpec {
  provider: EmbeddingProviderName;
  model: string;
  dimensions: number;
}

const providers = new Map<string, EmbeddingProvider>();
/** The configured provider's dimension, once learned from the endpoint or the model. */
let probed: { dimensions: Promise<number>; value?: number } | undefined;

function openaiOptions(config: OpenAIConfig): OpenAIEmbedderOptions {
  return {
    url: config.url,
    model: config.model,
    apiKey: config.apiKey,
    apiKeyHeader: config.apiKeyHeader,
    requestDimensions: config.dimensions,
    batchSize: config.batchSize,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
  };
}

/** Downloaded models are kept under the data directory, which is writable and survives restarts. */
function transformersOptions(config: TransformersConfig): TransformersEmbedderOptions {
  return {
    model: config.model,
    modelDir: config.modelDir,
    allowDownload: config.allowDownload,
    cacheDir: path.join(getConfig().dataDir, 'models'),
    batchSize: config.batchSize,
  };
}

/** The configured provider's dimension, asked once (one request or one model load) and remembered. */
function probeConfigured(config: OpenAIConfig | TransformersConfig): Promise<number> {
  if (!probed) {
    const dimensions =
      config.provider === 'openai' ? probeDimensions(openaiOptions(config)) : probeTransformersDimensions(transformersOptions(config));
    const current: { dimensions: Promise<number>; value?: number } = { dimensions };
    probed = current;
    dimensions.then(
      (value) => (current.value = value),
      () => {
        if (probed === current) probed = undefined;
      },
    );
  }
  return probed.dimensions;
}

/** What a new knowledge base records: the configured provider's spec (may probe the openai endpoint once for its dimension; cached). */
export async function configuredEmbeddingSpec(): Promise<EmbeddingSpec> {
  const config = getEmbeddingConfig();
  switch (config.provider) {
    case 'builtin':
      return { provider: 'builtin', model: BUILTIN_MODEL, dimensions: config.dimensions ?? BUILTIN_DIMENSIONS };
    case 'openai':
      return { provider: 'openai', model: config.model, dimensions: config.dimensions ?? (await probeConfigured(config)) };
    case 'transformers': {
      const dimensions = await probeConfigured(config);
      if (config.dimensions !== undefined && config.dimensions !== dimensions) {
        throw new EmbeddingError(
          'EMBEDDING_NOT_CONFIGURED',
          `Embedding model "${config.model}" produces ${dimensions}-dimensional vectors but QUARRY_EMBEDDING_DIMENSIONS=${config.dimensions}: unset QUARRY_EMBEDDING_DIMENSIONS (local models have a fixed dimension)`,
        );
      }
      return { provider: 'transformers', model: config.model, dimensions };
    }
  }
}

const describe = (spec: { provider: string; model: string; dimensions?: number }) => {
  const learned = spec.provider === 'openai' ? 'dimension learned from the endpoint' : 'dimension learned from the model';
  return `${spec.provider}/${spec.model} (${spec.dimensions === undefined ? learned : `${spec.dimensions} dimensions`})`;
};

function mismatch(spec: EmbeddingSpec, configured: string): EmbeddingError {
  const needs =
    spec.provider === 'builtin'
      ? `this server's built-in embedder only serves ${BUILTIN_MODEL}`
      : `serving it needs QUARRY_EMBEDDING_PROVIDER=${spec.provider} and QUARRY_EMBEDDING_MODEL=${spec.model} producing ${spec.dimensions}-dimensional vectors`;
  return new EmbeddingError(
    'EMBEDDING_PROVIDER_MISMATCH',
    `The knowledge base's embeddings are ${describe(spec)}, but this server is configured with ${configured}; ${needs}`,
  );
}

/** The configured provider as shown in mismatch messages. */
function describeConfigured(): string {
  const config = getEmbeddingConfig();
  if (config.provider === 'builtin') {
    return describe({ provider: 'builtin', model: BUILTIN_MODEL, dimensions: config.dimensions ?? BUILTIN_DIMENSIONS });
  }
  return describe({ provider: config.provider, model: config.model, dimensions: config.dimensions ?? probed?.value });
}

function isSpec(spec: EmbeddingSpec): boolean {
  return (
    (EMBEDDING_PROVIDERS as readonly string[]).includes(spec?.provider) &&
    typeof spec.model === 'string' &&
    spec.model.length > 0 &&
    Number.isInteger(spec.dimensions) &&
    spec.dimensions > 0
  );
}

/**
 * A provider producing vectors in exactly that space, or throws EmbeddingError code
 * 'EMBEDDING_PROVIDER_MISMATCH' naming both the recorded spec and what the server is configured
 * with (see embedderRecipeFor). Providers are cached per spec.
 */
export function embeddingProviderFor(spec: EmbeddingSpec): EmbeddingProvider {
  const key = `${spec?.provider}\u0000${spec?.model}\u0000${spec?.dimensions}`;
  const cached = providers.get(key);
  if (cached) return cached;
  const provider = createEmbedder(embedderRecipeFor(spec));
  providers.set(key, provider);
  return provider;
}

/**
 * How to build the provider of that space (for a worker thread), or throws EmbeddingError code
 * 'EMBEDDING_PROVIDER_MISMATCH'. builtin specs are always servable (any dimension) whatever the
 * env says; openai and transformers specs only when the env's provider, model and (when known)
 * dimension match.
 */
export function embedderRecipeFor(spec: EmbeddingSpec): EmbedderRecipe {
  if (!isSpec(spec)) {
    throw new EmbeddingError('EMBEDDING_PROVIDER_MISMATCH', `Not a valid embedding spec: ${JSON.stringify(spec)}`);
  }
  if (spec.provider === 'builtin') {
    if (spec.model !== BUILTIN_MODEL) throw mismatch(spec, describeConfigured());
    return { provider: 'builtin', dimensions: spec.dimensions };
  }
  const config = getEmbeddingConfig();
  const knownDimensions = config.provider === 'builtin' ? undefined : (config.dimensions ?? probed?.value);
  if (
    config.provider !== spec.provider ||
    config.model !== spec.model ||
    (knownDimensions !== undefined && knownDimensions !== spec.dimensions)
  ) {
    throw mismatch(spec, describeConfigured());
  }
  return config.provider === 'openai'
    ? { provider: 'openai', options: { ...openaiOptions(config), dimensions: spec.dimensions } }
    : { provider: 'transformers', options: { ...transformersOptions(config), dimensions: spec.dimensions } };
}

/** For tests: forgets providers, probed dimensions, loaded models and the cached configuration. */
export function resetEmbeddingProviders(): void {
  providers.clear();
  probed = undefined;
  resetTransformersModels();
  resetEmbeddingConfig();
}
