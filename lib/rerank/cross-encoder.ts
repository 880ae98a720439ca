/*
 * A cross-encoder (a Hugging Face text-classification model, e.g. ms-marco-MiniLM) with
 * Transformers.js: each (query, passage) pair is read together and the model's logit becomes the
 * score, through a sigmoid for one-label models and as the last label's probability otherwise.
 * Runs inside the rerank thread (lib/rerank/thread.ts), never on the server's main thread.
 */

interface Tokenizer {
  (texts: string[], options: { text_pair: string[]; padding: boolean; truncation: boolean; max_length?: number }): Record<string, unknown>;
}
interface Classifier {
  (inputs: Record<string, unknown>): Promise<{ logits: { dims: number[]; data: ArrayLike<number> } }>;
}

const BATCH = 16;
const loaded = new Map<string, Promise<{ tokenizer: Tokenizer; model: Classifier }>>();

async function load(modelDir: string, model: string) {
  const { env, AutoTokenizer, AutoModelForSequenceClassification } = await import('@huggingface/transformers');
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = modelDir;
  try {
    const tokenizer = (await AutoTokenizer.from_pretrained(model)) as unknown as Tokenizer;
    const classifier = (await AutoModelForSequenceClassification.from_pretrained(model)) as unknown as Classifier;
    return { tokenizer, model: classifier };
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).replace(/\.+$/, '');
    throw Object.assign(
      new Error(
        `Could not load the reranking model "${model}" from QUARRY_RERANK_MODEL_DIR=${modelDir}: ${reason}. ` +
          `Put config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx in ${modelDir}/${model}/.`,
      ),
      { code: 'RERANK_NOT_CONFIGURED' },
    );
  }
}

function modelFor(modelDir: string, model: string) {
  const key = `${modelDir}\u0000${model}`;
  let loading = loaded.get(key);
  if (!loading) {
    loading = load(modelDir, model);
    loaded.set(key, loading);
    loading.catch(() => loaded.delete(key));
  }
  return loading;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** One score in [0, 1] per passage, in input order. */
export async function crossEncode(modelDir: string, model: string, query: string, passages: string[]): Promise<number[]> {
  const { tokenizer, model: classify } = await modelFor(modelDir, model);
  const scores: number[] = [];
  for (let start = 0; start < passages.length; start += BATCH) {
    const batch = passages.slice(start, start + BATCH);
    const inputs = tokenizer(
      batch.map(() => query),
      { text_pair: batch, padding: true, truncation: true },
    );
    const { logits } = await classify(inputs);
    const labels = logits.dims[logits.dims.length - 1] ?? 1;
    for (let i = 0; i < batch.length; i++) {
      if (labels === 1) {
        scores.push(sigmoid(Number(logits.data[i])));
      } else {
        const row = Array.from({ length: labels }, (_, j) => Number(logits.data[i * labels + j]));
        const max = Math.max(...row);
        const exps = row.map((x) => Math.exp(x - max));
        scores.push(exps[labels - 1] / exps.reduce((a, b) => a + b, 0));
      }
    }
  }
  return scores;
}
