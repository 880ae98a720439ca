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

/** ValueInfoProto of a tensor whose dimensions are names (symbolic) or sizes. */
function valueInfo(name: string, elemType: number, shape: Array<string | number>): number[] {
  const dims = shape.flatMap((d) => bytes(1, typeof d === 'string' ? str(2, d) : int(1, d)));
  const tensorType = [...int(1, elemType), ...bytes(2, dims)];
  return [...str(1, name), ...bytes(2, bytes(1, tensorType))];
}

/** ModelProto bytes: last_hidden_state[b, s, :] = table[input_ids[b, s], :]. */
function onnxModel(table: Float32Array, vocabSize: number, dimensions: number): Uint8Array {
  const initializer = [
    ...int(1, vocabSize),
    ...int(1, dimensions),
    ...int(2, ONNX_FLOAT),
    ...str(8, 'embeddings'),
    ...bytes(9, new Uint8Array(table.buffer, table.byteOffset, table.byteLength)),
  ];
  const node = [...str(1, 'embeddings'), ...str(1, 'input_ids'), ...str(2, 'last_hidden_state'), ...str(3, 'lookup'), ...str(4, 'Gather')];
  const graph = [
    ...bytes(1, node),
    ...str(2, 'tiny-bert'),
    ...bytes(5, initializer),
    ...bytes(11, valueInfo('input_ids', ONNX_INT64, ['batch_size', 'sequence_length'])),
    ...bytes(12, valueInfo('last_hidden_state', ONNX_FLOAT, ['batch_size', 'sequence_length', dimensions])),
  ];
  const model = [...int(1, 8), ...str(2, 'quarry-tests'), ...bytes(7, graph), ...bytes(8, int(2, 13))];
  return Uint8Array.from(model);
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
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 512,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
  };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig));
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
