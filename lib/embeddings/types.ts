/**
 * Turns texts into vectors. A knowledge base records the provider, model and dimension it was
 * created with, and never mixes vectors from different ones.
 */
export interface EmbeddingProvider {
  /** "builtin", "openai" or "transformers". */
  readonly provider: string;
  readonly model: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in order. */
  embed(texts: string[]): Promise<number[][]>;
}
