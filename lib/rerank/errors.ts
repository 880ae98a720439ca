export type RerankErrorCode = 'RERANK_NOT_CONFIGURED' | 'RERANK_FAILED';

/** A reranking failure: not configured (or misconfigured), or the reranker failed to answer. */
export class RerankError extends Error {
  constructor(
    readonly code: RerankErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RerankError';
  }
}
