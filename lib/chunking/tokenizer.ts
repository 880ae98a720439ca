import cl100k from 'js-tiktoken/ranks/cl100k_base';

/*
 * Token counting with OpenAI's cl100k_base vocabulary, as shipped in the js-tiktoken package
 * (`js-tiktoken/ranks/cl100k_base`; nothing is downloaded).
 *
 * Why not `new Tiktoken(cl100k).encode(text)` directly: js-tiktoken's byte-pair merge is quadratic
 * in the length of a pre-tokenised piece and builds a string key per candidate pair, so a long run
 * of letters without spaces or punctuation (CJK text, a long identifier) takes seconds or minutes.
 * This module uses the same ranks and the same pre-tokenisation pattern, with
 *  - a memo of piece -> token lengths (Markdown repeats words all the time), and
 *  - a heap-based merge for long pieces (O(n log n)), the direct merge for short ones.
 * The result is the same token sequence as js-tiktoken's encoder (tests compare the two);
 * special-token strings such as "<|endoftext|>" are counted as ordinary text.
 */

type RankMap = Map<string, number>;

let ranks: RankMap | null = null;
let pieceRegex: RegExp | null = null;

function getRanks(): RankMap {
  if (ranks) return ranks;
  const map: RankMap = new Map();
  // Format (see js-tiktoken's Tiktoken constructor): one line per group,
  // "<prefix> <first rank> <base64 token> <base64 token> ..." with consecutive ranks.
  for (const line of cl100k.bpe_ranks.split('\n')) {
    if (!line) continue;
    const fields = line.split(' ');
    const offset = Number.parseInt(fields[1], 10);
    for (let i = 2; i < fields.length; i++) map.set(atob(fields[i]), offset + i - 2);
  }
  ranks = map;
  return map;
}

/** The pre-tokenisation pattern of cl100k_base, global + unicode like js-tiktoken uses it. */
function getPieceRegex(): RegExp {
  if (!pieceRegex) pieceRegex = new RegExp(cl100k.pat_str, 'gu');
  return pieceRegex;
}

/** Loads the vocabulary now (it is otherwise loaded on first use; takes a few hundred ms). */
export function warmUpTokenizer(): void {
  getRanks();
}

const utf8 = new TextEncoder();

/** UTF-8 bytes of a string as a "binary string" (one char per byte, as the rank keys are). */
function toByteString(text: string): string {
  // ASCII fast path.
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text;
  const bytes = utf8.encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return out;
}

const HEAP_MERGE_MIN_BYTES = 48;

/** Byte-pair merge, returning the byte length of each token of the piece. */
export function bytePairLengths(bytes: string): number[] {
  const map = getRanks();
  if (bytes.length <= 1 || map.has(bytes)) return [bytes.length];
  return bytes.length < HEAP_MERGE_MIN_BYTES ? directMerge(bytes, map) : heapMerge(bytes, map);
}

/** The reference algorithm: repeatedly merge the adjacent pair with the lowest rank (leftmost on ties). */
export function directMerge(bytes: string, map: RankMap = getRanks()): number[] {
  const starts: number[] = [];
  for (let i = 0; i <= bytes.length; i++) starts.push(i); // part k = [starts[k], starts[k+1])
  while (starts.length > 2) {
    let best = -1;
    let bestRank = Infinity;
    for (let k = 0; k + 2 < starts.length; k++) {
      const rank = map.get(bytes.slice(starts[k], starts[k + 2]));
      if (rank !== undefined && rank < bestRank) {
        bestRank = rank;
        best = k;
      }
    }
    if (best < 0) break;
    starts.splice(best + 1, 1);
  }
  const lengths: number[] = [];
  for (let k = 0; k + 1 < starts.length; k++) lengths.push(starts[k + 1] - starts[k]);
  return lengths;
}

/**
 * Same result as directMerge in O(n log n): parts form a linked list keyed by their start byte,
 * candidate merges sit in a min-heap ordered by (rank, start); stale entries are skipped.
 */
export function heapMerge(bytes: string, map: RankMap = getRanks()): number[] {
  const n = bytes.length;
  const next = new Int32Array(n); // start of the following part (n at the end)
  const prev = new Int32Array(n); // start of the preceding part (-1 at the beginning)
  const alive = new Uint8Array(n);
  const pairRank = new Int32Array(n).fill(-1); // rank of merging part i with its successor
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    alive[i] = 1;
  }
  const stride = n + 1;
  const heap: number[] = [];
  const push = (key: number) => {
    let i = heap.length;
    heap.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent] <= key) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = key;
  };
  const pop = (): number => {
    const top = heap[0];
    const last = heap.pop() as number;
    if (heap.length > 0) {
      let i = 0;
      const len = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= len) break;
        const r = l + 1;
        const c = r < len && heap[r] < heap[l] ? r : l;
        if (heap[c] >= last) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  };
  const setPair = (i: number) => {
    const j = next[i];
    if (j >= n) {
      pairRank[i] = -1;
      return;
    }
    const rank = map.get(bytes.slice(i, next[j]));
    if (rank === undefined) {
      pairRank[i] = -1;
      return;
    }
    pairRank[i] = rank;
    push(rank * stride + i);
  };
  for (let i = 0; i + 1 < n; i++) setPair(i);
  while (heap.length > 0) {
    const key = pop();
    const i = key % stride;
    const rank = (key - i) / stride;
    if (!alive[i] || pairRank[i] !== rank) continue; // stale
    const j = next[i];
    const k = next[j];
    alive[j] = 0;
    pairRank[j] = -1;
    next[i] = k;
    if (k < n) prev[k] = i;
    setPair(i);
    if (prev[i] >= 0) setPair(prev[i]);
  }
  const lengths: number[] = [];
  for (let i = 0; i < n; i = next[i]) lengths.push(next[i] - i);
  return lengths;
}

const MEMO_LIMIT = 200_000;
const memo = new Map<string, number[]>();

/** Token byte lengths of one pre-tokenised piece (memoised). */
function pieceTokenLengths(piece: string): number[] {
  let lengths = memo.get(piece);
  if (lengths === undefined) {
    lengths = bytePairLengths(toByteString(piece));
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(piece, lengths);
  }
  return lengths;
}

/** Number of cl100k_base tokens in the text. */
export function countTokens(text: string): number {
  if (!text) return 0;
  let total = 0;
  const re = getPieceRegex();
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) total += pieceTokenLengths(m[0]).length;
  return total;
}

/**
 * Places where the text may be cut between tokens: `ends[i]` is the char offset (exclusive) where
 * atom i ends and `tokens[i]` its token count. An atom is one token, except where a token ends
 * inside a character (multi-byte UTF-8) — then the tokens up to the next character boundary
 * form one atom.
 */
export interface TokenAtoms {
  ends: Int32Array;
  tokens: Uint16Array;
  length: number;
}

export function tokenAtoms(text: string): TokenAtoms {
  let ends = new Int32Array(Math.max(16, text.length >> 2));
  let tokens = new Uint16Array(ends.length);
  let n = 0;
  const add = (end: number, count: number) => {
    if (n === ends.length) {
      const e2 = new Int32Array(ends.length * 2);
      e2.set(ends);
      ends = e2;
      const t2 = new Uint16Array(tokens.length * 2);
      t2.set(tokens);
      tokens = t2;
    }
    ends[n] = end;
    tokens[n] = count;
    n++;
  };
  const re = getPieceRegex();
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const piece = m[0];
    const start = m.index;
    const lengths = pieceTokenLengths(piece);
    if (lengths.length === 1) {
      add(start + piece.length, 1);
      continue;
    }
    // Walk the piece's characters and the tokens' byte lengths together.
    let charPos = 0; // UTF-16 offset in piece
    let bytePos = 0; // byte offset of charPos
    let tokenEnd = 0; // byte offset where the current token ends
    let pending = 0;
    for (const len of lengths) {
      tokenEnd += len;
      pending++;
      while (bytePos < tokenEnd) {
        const cp = piece.codePointAt(charPos) as number;
        bytePos += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        charPos += cp >= 0x10000 ? 2 : 1;
      }
      if (bytePos === tokenEnd) {
        add(start + charPos, pending);
        pending = 0;
      }
    }
    if (pending > 0) add(start + piece.length, pending);
  }
  return { ends, tokens, length: n };
}
