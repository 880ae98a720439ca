import { countTokens, tokenAtoms } from './tokenizer';

/*
 * Text-level helpers: where a text may be cut (and how good a cut is), sentence splitting, and
 * token windows — the primitive behind the `fixed` strategy and behind splitting any oversized
 * piece of prose.
 */

/** Scripts written without spaces between words: any character boundary is a word boundary. */
const NO_SPACE_SCRIPT = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]/;
const SENTENCE_END = /[.!?\u2026\u203c\u2047-\u2049]/;
const CJK_SENTENCE_END = /[\u3002\uff01\uff1f\uff61]/; // 。！？｡
const CJK_CLAUSE = /[\u3001\uff0c\uff1b\uff1a]/; // 、，；：
const CLOSER = /["'\u2019\u201d)\]}\u300d\u300f\uff09\u300b\u3009\u3011]/;
const WS = /\s/;

export function isWhitespace(ch: string | undefined): boolean {
  return ch !== undefined && WS.test(ch);
}

/** How good a cut at `p` is, 0 (inside a word) to 5 (before a heading). */
export type StructuralRank = (firstCharAfterWhitespace: number) => number;

export function boundaryRank(text: string, p: number, structural?: StructuralRank): number {
  if (p <= 0 || p >= text.length) return 6;
  let q = p;
  while (q > 0 && isWhitespace(text[q - 1])) q--;
  let r = p;
  while (r < text.length && isWhitespace(text[r])) r++;
  if (structural) {
    const s = structural(r);
    if (s > 0) return s;
  }
  let newlines = 0;
  for (let i = q; i < r; i++) if (text[i] === '\n') newlines++;
  if (newlines >= 2) return 4;
  if (newlines === 1) return 3;
  let k = q - 1;
  while (k > 0 && CLOSER.test(text[k])) k--;
  const last = text[k] ?? '';
  if (CJK_SENTENCE_END.test(last)) return 3;
  if (r > q) return SENTENCE_END.test(last) ? 3 : 2;
  if (CJK_CLAUSE.test(last)) return 2;
  if (NO_SPACE_SCRIPT.test(text[p - 1]) || NO_SPACE_SCRIPT.test(text[p])) return 1;
  return 0;
}

export interface Span {
  start: number;
  end: number;
}

/**
 * Sentence spans covering `text` (each includes its trailing whitespace). A sentence ends after
 * . ! ? … followed by whitespace, after 。！？ (no space needed), at a blank line, and at a line
 * break when the next line starts a list item, a table row or a quote, or the line ends with
 * terminal punctuation or ":". Fragments without enough letters ("1. ", "Dr. ", "e.g. ") are
 * joined to the following sentence. Linear time, no locale data (Intl.Segmenter slows down
 * quadratically on long strings in V8).
 */
export function sentenceSpans(text: string): Span[] {
  const cuts: number[] = [];
  const re = /[.!?\u2026\u203c]+["'\u2019\u201d)\]]*[ \t]+|[\u3002\uff01\uff1f\uff61]+["'\u2019\u201d)\]\u300d\u300f\uff09\u300b\u3009\u3011]*[ \t]*|[ \t]*\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    let end = m.index + m[0].length;
    if (m[0].endsWith('\n')) {
      // Swallow following blank lines; decide whether this line break ends a sentence.
      while (end < text.length && /[ \t\n]/.test(text[end])) end++;
      let k = m.index;
      while (k > 0 && isWhitespace(text[k - 1])) k--;
      const lastCh = k > 0 ? text[k - 1] : '';
      const lineEnd = text.indexOf('\n', end);
      const nextLine = text.slice(end, lineEnd < 0 ? text.length : lineEnd);
      const blank = text.slice(m.index, end).split('\n').length > 2;
      const breaks =
        blank ||
        /^\s*([-*+]|\d{1,9}[.)])(\s|$)|^\s*[|>]/.test(nextLine) ||
        SENTENCE_END.test(lastCh) ||
        CJK_SENTENCE_END.test(lastCh) ||
        lastCh === ':' ||
        lastCh === '|' ||
        CLOSER.test(lastCh);
      if (!breaks) continue;
    } else {
      while (end < text.length && /[ \t\n]/.test(text[end])) end++;
    }
    // Leave the indentation of the next line (nested list items) to the next sentence.
    for (let k = end - 1; k >= m.index; k--) {
      if (text[k] === '\n') {
        end = k + 1;
        break;
      }
    }
    if (end < text.length && (cuts.length === 0 || cuts[cuts.length - 1] < end)) cuts.push(end);
    re.lastIndex = end;
  }
  const spans: Span[] = [];
  let start = 0;
  for (const cut of cuts) {
    spans.push({ start, end: cut });
    start = cut;
  }
  if (start < text.length) spans.push({ start, end: text.length });
  // Join fragments with fewer than 4 letters or digits to the next sentence.
  const merged: Span[] = [];
  let pending: Span | null = null;
  for (const s of spans) {
    const cur: Span = pending ? { start: pending.start, end: s.end } : s;
    pending = null;
    const letters = text.slice(s.start, s.end).replace(/^\s*([-*+]|\d{1,9}[.)])\s+/, '').match(/[\p{L}\p{N}]/gu);
    if ((letters?.length ?? 0) < 4 && !isCjkSentence(text.slice(s.start, s.end))) pending = cur;
    else merged.push(cur);
  }
  if (pending) {
    if (merged.length > 0) merged[merged.length - 1].end = pending.end;
    else merged.push(pending);
  }
  return merged;
}

function isCjkSentence(s: string): boolean {
  return NO_SPACE_SCRIPT.test(s) && /[\p{L}\p{N}]/u.test(s);
}

export interface WindowOptions {
  /** Token budget of window i. */
  budget: (index: number) => number;
  /** Tokens shared by consecutive windows. */
  overlap: number;
  /** Extra cut preferences from the document structure (heading / block starts). */
  structural?: StructuralRank;
}

export interface TokenWindow {
  /** Trimmed content bounds in the text. */
  start: number;
  end: number;
  content: string;
  tokens: number;
  /** Tokens this window shares with the previous one, counted in the whole text's tokenisation. */
  overlapTokens: number;
}

/**
 * Splits text into windows of at most budget(i) tokens, consecutive windows sharing `overlap`
 * tokens. The text is tokenised once; a window's end is moved back to the best cut point in the
 * second half of its stride (heading > blank line > sentence end or line break > whitespace or
 * CJK clause > character boundary in a script without spaces > anywhere between tokens), latest
 * first among equals. The next window starts exactly `overlap` tokens before that end (tokens
 * that end inside a multi-byte character are kept together, the only case the overlap can be a
 * token larger). Content is trimmed; its token count is re-checked exactly so no window exceeds
 * its budget. Whitespace-only windows are dropped.
 */
export function tokenWindows(text: string, options: WindowOptions): TokenWindow[] {
  const { budget, overlap, structural } = options;
  const atoms = tokenAtoms(text);
  const n = atoms.length;
  const cum = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) cum[i + 1] = cum[i] + atoms.tokens[i];
  const atomStart = (i: number) => (i === 0 ? 0 : atoms.ends[i - 1]);
  const atomIsBlank = (i: number) => text.slice(atomStart(i), atoms.ends[i]).trim() === '';
  /** Largest e with cum[e] <= limit. */
  const lastWithin = (limit: number) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (cum[mid] <= limit) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const out: TokenWindow[] = [];
  let s = 0;
  while (s < n && atomIsBlank(s)) s++;
  let overlapTokens = 0;
  while (s < n) {
    const size = budget(out.length);
    let e = Math.max(s + 1, lastWithin(cum[s] + size));
    if (e < n) {
      const stride = size - overlap;
      const low = cum[s] + overlap + Math.max(1, Math.ceil(stride / 2));
      let best = e;
      let bestRank = -1;
      for (let c = e; c > s && cum[c] >= low; c--) {
        const rank = boundaryRank(text, atoms.ends[c - 1], structural);
        if (rank > bestRank) {
          bestRank = rank;
          best = c;
          if (rank >= 5) break;
        }
      }
      e = best;
    }
    // Exact check of the trimmed content; move the end back a token if trimming changed the count.
    let content = '';
    let tokens = 0;
    let startChar = atomStart(s);
    let endChar = atoms.ends[e - 1];
    for (;;) {
      const raw = text.slice(startChar, endChar);
      content = raw.trim();
      tokens = countTokens(content);
      if (tokens <= size || e - 1 <= s) break;
      e--;
      endChar = atoms.ends[e - 1];
    }
    if (content) {
      const lead = text.slice(startChar, endChar).search(/\S/);
      const start = startChar + Math.max(0, lead);
      out.push({ start, end: start + content.length, content, tokens, overlapTokens: out.length > 0 ? overlapTokens : 0 });
    }
    if (e >= n) break;
    if (overlap > 0) {
      // Latest start that keeps at least `overlap` tokens of this window.
      let next = lastWithin(cum[e] - overlap);
      if (next <= s) next = s + 1;
      overlapTokens = cum[e] - cum[next];
      s = next;
    } else {
      s = e;
      while (s < n && atomIsBlank(s)) s++;
      overlapTokens = 0;
    }
  }
  return out;
}
