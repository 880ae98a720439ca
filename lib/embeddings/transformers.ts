import { EmbeddingError } from './errors';
import type { EmbeddingProvider } from './types';

/**
 * Local sentence embeddings with Transformers.js (ONNX Runtime on the CPU): a Hugging Face
 * feature-extraction model, mean-pooled over the tokens and normalised. The package is imported
 * only when this provider is used, and each model is loaded once per process. Blank texts get a
 * zero vector, as with the other providers.
 */
export interface TransformersEmbedderOptions {
  /** A Hugging Face model id with ONNX weights, e.g. Xenova/all-MiniLM-L6-v2. */
  model: string;
  /** A directory holding models as <modelDir>/<model id>/{config.json,tokenizer.json,onnx/model.onnx,…}. */
  modelDir?: string;
  /** Whether files missing locally may be downloaded from the Hugging Face Hub. */
  allowDownload: boolean;
  /** Where downloaded models are kept; the library's own cache directory when unset. */
  cacheDir?: string;
  batchSize?: number;
}

interface PooledOutput {
  dims: number[];
  data: ArrayLike<number | bigint>;
}
interface Extractor {
  (texts: string[], options: { pooling: 'mean'; normalize: boolean }): Promise<PooledOutput>;
  dispose(): Promise<unknown>;
}

const DEFAULT_BATCH_SIZE = 64;

const extractors = new Map<string, Promise<Extractor>>();
let libraryDefaults: { localModelPath: string; cacheDir: string | null } | undefined;

/** Why the model could not be loaded, and which settings would fix it. */
function loadError(options: TransformersEmbedderOptions, err: unknown): EmbeddingError {
  const reason = (err instanceof Error ? err.message : String(err)).replace(/\.+$/, '');
  const where = options.modelDir
    ? `QUARRY_EMBEDDING_MODEL_DIR=${options.modelDir}`
    : options.allowDownload
      ? 'the Hugging Face Hub'
      : 'the local model cache';
  const fix = options.allowDownload
    ? `Downloads from the Hugging Face Hub are allowed but failed: without internet access, put the model files ` +
      `(config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx) in <QUARRY_EMBEDDING_MODEL_DIR>/${options.model}/ ` +
      `and set QUARRY_EMBEDDING_MODEL_DIR, or set QUARRY_EMBEDDING_PROVIDER=builtin.`
    : `Downloads are disabled (QUARRY_EMBEDDING_ALLOW_DOWNLOAD=false${options.modelDir ? ', the default when QUARRY_EMBEDDING_MODEL_DIR is set' : ''}): ` +
      `put the model files (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx) in ` +
      `<QUARRY_EMBEDDING_MODEL_DIR>/${options.model}/, check QUARRY_EMBEDDING_MODEL, ` +
      `or set QUARRY_EMBEDDING_ALLOW_DOWNLOAD=true on a machine with internet access.`;
  return new EmbeddingError(
    'EMBEDDING_NOT_CONFIGURED',
    `Could not load the embedding model "${options.model}" (QUARRY_EMBEDDING_MODEL) from ${where}: ${reason}. ${fix}`,
    false,
    { cause: err },
  );
}

/** Imports Transformers.js, points it at the configured model directory, and builds the pipeline. */
async function load(options: TransformersEmbedderOptions): Promise<Extractor> {
  const { env, pipeline } = await import('@huggingface/transformers');
  libraryDefaults ??= { localModelPath: env.localModelPath, cacheDir: env.cacheDir };
  env.allowLocalModels = true;
  env.localModelPath = options.modelDir ?? libraryDefaults.localModelPath;
  env.allowRemoteModels = options.allowDownload;
  env.cacheDir = options.cacheDir ?? libraryDefaults.cacheDir;
  try {
    return await pipeline('feature-extraction', options.model);
  } catch (err) {
    throw loadError(options, err);
  }
}

/** The model's pipeline, loaded on first use and shared; a failed load is tried again next time. */
function extractorFor(options: TransformersEmbedderOptions): Promise<Extractor> {
  const key = JSON.stringify([options.model, options.modelDir ?? null, options.allowDownload, options.cacheDir ?? null]);
  let loading = extractors.get(key);
  if (!loading) {
    loading = load(options);
    extractors.set(key, loading);
    const current = loading;
    current.catch(() => {
      if (extractors.get(key) === current) extractors.delete(key);
    });
  }
  return loading;
}

/** Unit vectors for non-blank texts, batch by batch. */
async function run(options: TransformersEmbedderOptions, texts: string[]): Promise<number[][]> {
  const extractor = await extractorFor(options);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const out: number[][] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = texts.slice(start, start + batchSize);
    let output: PooledOutput;
    try {
      output = await extractor(batch, { pooling: 'mean', normalize: true });
    } catch (err) {
      throw new EmbeddingError('EMBEDDING_FAILED', `Embedding model "${options.model}" failed: ${err instanceof Error ? err.message : String(err)}`, false, {
        cause: err,
      });
    }
    const [rows, width] = output.dims;
    for (let r = 0; r < rows; r++) out.push(Array.from({ length: width }, (_, c) => Number(output.data[r * width + c])));
  }
  return out;
}

/** The length of the model's pooled output (loads the model). */
export async function probeTransformersDimensions(options: TransformersEmbedderOptions): Promise<number> {
  const [vector] = await run(options, ['dimension probe']);
  return vector.length;
}

/** A provider whose vectors must have `dimensions` entries, or it fails with EMBEDDING_PROVIDER_MISMATCH. */
export function createTransformersEmbedder(options: TransformersEmbedderOptions & { dimensions: number }): EmbeddingProvider {
  const { dimensions, model } = options;
  return {
    provider: 'transformers',
    model,
    dimensions,
    async embed(texts) {
      const out: number[][] = texts.map(() => new Array<number>(dimensions).fill(0));
      const positions = texts.flatMap((text, i) => (text.trim() === '' ? [] : [i]));
      if (positions.length === 0) return out;
      const vectors = await run(options, positions.map((i) => texts[i]));
      if (vectors[0].length !== dimensions) {
        throw new EmbeddingError(
          'EMBEDDING_PROVIDER_MISMATCH',
          `Embedding model "${model}" produces ${vectors[0].length}-dimensional vectors, expected ${dimensions}`,
        );
      }
      positions.forEach((i, k) => (out[i] = vectors[k]));
      return out;
    },
  };
}

/** Unloads the models (tests switch model directories between cases). */
export function resetTransformersModels(): void {
  for (const loading of extractors.values()) {
    loading.then((extractor) => extractor.dispose()).catch(() => undefined);
  }
  extractors.clear();
}
