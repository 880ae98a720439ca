import fs from 'node:fs';
import path from 'node:path';

/**
 * A tiny but real feature-extraction model, written to disk in the layout Transformers.js loads
 * from a local model directory: config.json, tokenizer.json (a BERT WordPiece tokenizer over a
 * small vocabulary), tokenizer_config.json and onnx/model.onnx. The ONNX graph is one Gather: each
 * token's row of a fixed embedding table becomes its hidden state, so mean pooling over the tokens
 * (including [CLS] and [SEP]) is easy to compute by hand and compare with what the runtime returns.
 */
export interface TinyModel {
  /** The directory to use as QUARRY_EMBEDDING_MODEL_DIR. */
  root: string;
  /** The model id, a folder under root. */
  modelId: string;
  dimensions: number;
  /** The mean-pooled, normalised embedding of a text made of vocabulary words. */
  expected(text: string): number[];
}

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = [
  'the', 'a', 'invoice', 'invoices', 'finance', 'team', 'approves', 'payment', 'vector', 'search',
  'database', 'weather', 'forecast', 'rain', 'sunny', 'cell', 'energy', 'document', 'index', 'query',
];

/** Protobuf base-128 varint. */
function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

const key = (field: number, wireType: number) => varint(field * 8 + wireType);
/** A varint field. */
const int = (field: number, value: number) => [...key(field, 0), ...varint(value)];
/** A length-delimited field (bytes, string or embedded message). */
const bytes = (field: number, payload: ArrayLike<number>) => [...key(field, 2), ...varint(payload.length), ...Array.from(payload)];
const str = (field: number, text: string) => bytes(field, Buffer.from(text, 'utf8'));

const ONNX_FLOAT = 1;
const ONNX_INT64 = 7;

/** TensorProto of a float32 tensor. */
function floatTensor(name: string, dims: number[], values: Float32Array): number[] {
  return [...dims.flatMap((d) => int(1, d)), ...int(2, ONNX_FLOAT), ...str(8, name), ...bytes(9, new Uint8Array(values.buffer, values.byteOffset, values.byteLength))];
}

/** TensorProto of an int64 tensor. */
function int64Tensor(name: string, dims: number[], values: number[]): number[] {
  const raw = new BigInt64Array(values.map(BigInt));
  return [...dims.flatMap((d) => int(1, d)), ...int(2, ONNX_INT64), ...str(8, name), ...bytes(9, new Uint8Array(raw.buffer))];
}

/** NodeProto: op over inputs to outputs. */
function onnxNode(op: string, inputs: string[], outputs: string[], name: string, attributes: number[][] = []): number[] {
  return [...inputs.flatMap((i) => str(1, i)), ...outputs.flatMap((o) => str(2, o)), ...str(3, name), ...str(4, op), ...attributes.flatMap((a) => bytes(5, a))];
}

/** ModelProto (IR 8, opset 13) of one graph. */
function onnxGraphModel(nodes: number[][], initializers: number[][], inputs: number[][], outputs: number[][]): Uint8Array {
  const graph = [
    ...nodes.flatMap((n) => bytes(1, n)),
    ...str(2, 'tiny'),
    ...initializers.flatMap((t) => bytes(5, t)),
    ...inputs.flatMap((v) => bytes(11, v)),
    ...outputs.flatMap((v) => bytes(12, v)),
  ];
  return Uint8Array.from([...int(1, 8), ...str(2, 'quarry-tests'), ...bytes(7, graph), ...bytes(8, int(2, 13))]);
}

/** ValueInfoProto of a tensor whose dimensions are names (symbolic) or sizes. */
function valueInfo(name: string, elemType: number, shape: Array<string | number>): number[] {
  const dims = shape.flatMap((d) => bytes(1, typeof d === 'string' ? str(2, d) : int(1, d)));
  const tensorType = [...int(1, elemType), ...bytes(2, dims)];
  return [...str(1, name), ...bytes(2, bytes(1, tensorType))];
}

/** ModelProto bytes: last_hidden_state[b, s, :] = table[input_ids[b, s], :]. */
function onnxModel(table: Float32Array, vocabSize: number, dimensions: number): Uint8Array {
  return onnxGraphModel(
    [onnxNode('Gather', ['embeddings', 'input_ids'], ['last_hidden_state'], 'lookup')],
    [floatTensor('embeddings', [vocabSize, dimensions], table)],
    [valueInfo('input_ids', ONNX_INT64, ['batch_size', 'sequence_length'])],
    [valueInfo('last_hidden_state', ONNX_FLOAT, ['batch_size', 'sequence_length', dimensions])],
  );
}

/** tokenizer.json of a lower-casing BERT WordPiece tokenizer that wraps texts in [CLS] … [SEP]. */
function tokenizerJson(vocab: string[]) {
  const id = (token: string) => vocab.indexOf(token);
  const special = (token: string) => ({ SpecialToken: { id: token, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content) => ({
      id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]'), { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

/** A deterministic embedding table with values in [-1, 1], rounded to float32. */
function embeddingTable(vocabSize: number, dimensions: number): Float32Array {
  const table = new Float32Array(vocabSize * dimensions);
  for (let i = 0; i < table.length; i++) table[i] = Math.sin(i * 12.9898 + 78.233);
  return table;
}

/** Writes the model under root/modelId and returns how to use it and what it should output. */
export function writeTinyModel(root: string, modelId = 'quarry-test/tiny-bert', dimensions = 8): TinyModel {
  const vocab = [...SPECIAL, ...WORDS];
  const table = embeddingTable(vocab.length, dimensions);
  const dir = path.join(root, modelId);
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  const config = {
    model_type: 'bert',
    architectures: ['BertModel'],
    vocab_size: vocab.length,
    hidden_size: dimensions,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    max_position_embeddings: 512,
    pad_token_id: 0,
  };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify(TOKENIZER_CONFIG));
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), onnxModel(table, vocab.length, dimensions));

  const expected = (text: string) => {
    const tokens = ['[CLS]', ...text.toLowerCase().split(/\s+/).filter(Boolean), '[SEP]'];
    const sum = new Array<number>(dimensions).fill(0);
    for (const token of tokens) {
      const index = vocab.includes(token) ? vocab.indexOf(token) : vocab.indexOf('[UNK]');
      for (let d = 0; d < dimensions; d++) sum[d] += table[index * dimensions + d];
    }
    const norm = Math.hypot(...sum);
    return sum.map((v) => v / norm);
  };
  return { root, modelId, dimensions, expected };
}

const TOKENIZER_CONFIG = {
  tokenizer_class: 'BertTokenizer',
  do_lower_case: true,
  model_max_length: 512,
  pad_token: '[PAD]',
  unk_token: '[UNK]',
  cls_token: '[CLS]',
  sep_token: '[SEP]',
  mask_token: '[MASK]',
};

export interface TinyCrossEncoder {
  /** The directory to use as QUARRY_RERANK_MODEL_DIR. */
  root: string;
  modelId: string;
  /** The score the model gives a (query, passage) pair: sigmoid of the summed word weights. */
  expected(query: string, passage: string): number;
}

/**
 * A tiny but real cross-encoder (text classification with one label): each token of the pair has a
 * weight (`weights`, 0 for any other word and for the special tokens), the logit is their sum
 * (Gather, then ReduceSum over the sequence), and the score the sigmoid of it.
 */
export function writeTinyCrossEncoder(root: string, weights: Record<string, number>, modelId = 'quarry-test/tiny-cross-encoder'): TinyCrossEncoder {
  const vocab = [...SPECIAL, ...WORDS];
  const table = new Float32Array(vocab.map((w) => weights[w] ?? 0));
  const dir = path.join(root, modelId);
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  const config = {
    model_type: 'bert',
    architectures: ['BertForSequenceClassification'],
    vocab_size: vocab.length,
    hidden_size: 1,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    max_position_embeddings: 512,
    pad_token_id: 0,
    id2label: { 0: 'LABEL_0' },
    label2id: { LABEL_0: 0 },
  };
  const model = onnxGraphModel(
    [
      onnxNode('Gather', ['weights', 'input_ids'], ['per_token'], 'lookup'),
      onnxNode('ReduceSum', ['per_token', 'sequence_axis'], ['logits'], 'sum', [[...str(1, 'keepdims'), ...int(3, 0), ...int(20, 2)]]),
    ],
    [floatTensor('weights', [vocab.length, 1], table), int64Tensor('sequence_axis', [1], [1])],
    [valueInfo('input_ids', ONNX_INT64, ['batch_size', 'sequence_length'])],
    [valueInfo('logits', ONNX_FLOAT, ['batch_size', 1])],
  );
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify(TOKENIZER_CONFIG));
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), model);
  const expected = (query: string, passage: string) => {
    const words = `${query} ${passage}`.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const logit = words.reduce((sum, w) => sum + (weights[w] ?? 0), 0);
    return 1 / (1 + Math.exp(-logit));
  };
  return { root, modelId, expected };
}
