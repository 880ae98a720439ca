export const EMBEDDING_ERROR_CODES = [
  /** A knowledge base's recorded provider/model/dimension is not what this server produces. */
  'EMBEDDING_PROVIDER_MISMATCH',
  /** The provider was reached (or tried) and did not return usable vectors. */
  'EMBEDDING_FAILED',
  /** The embedding settings are missing or invalid, or the model cannot be loaded. */
  'EMBEDDING_NOT_CONFIGURED',
] as const;
export type EmbeddingErrorCode = (typeof EMBEDDING_ERROR_CODES)[number];

/**
 * A failure to produce embeddings, with a message for people. `retryable` is true only for
 * transient failures (network errors, timeouts, 408/429/5xx) that outlasted the provider's own
 * retries, so a background job may try again later; configuration problems, mismatched vector
 * spaces and other 4xx answers are not retryable.
 */
export class EmbeddingError extends Error {
  constructor(
    readonly code: EmbeddingErrorCode,
    message: string,
    readonly retryable = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EmbeddingError';
  }
}

export function isEmbeddingError(err: unknown): err is EmbeddingError {
  return err instanceof EmbeddingError;
}
