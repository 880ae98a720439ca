/**
 * The one escaping of text written into Markdown (render.ts). Text is escaped where a Markdown
 * reader would otherwise take it as markup, and only there, so the written text stays close to
 * the source: "snake_case" and "[1]" stay as they are, "*", "`", "<b>", "&amp;", "](" do not.
 *
 * Safety rule: no text from a document becomes raw HTML ("<" before a letter, "!", "/" or "?"
 * is escaped), an entity ("&" before "name;"), a link, or an image.
 */

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && ch !== '' && /[\p{L}\p{N}]/u.test(ch);
}

function isSpaceOrEdge(ch: string): boolean {
  return ch === '' || /\s/.test(ch);
}

/**
 * Escapes text inside a line. `prev` and `next` are the characters written right before and
 * after it (the neighbouring runs'), which decide whether a "*" could emphasise or a "]" close a
 * link.
 */
export function escapeInline(text: string, next = '', prev = ''): string {
  let out = '';
  const pairedDollars = text.indexOf('$') !== text.lastIndexOf('$');
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const after = i + 1 < text.length ? text[i + 1] : next;
    const before = i > 0 ? text[i - 1] : prev;
    switch (ch) {
      case '\\':
        out += after === '\n' || (after !== '' && ASCII_PUNCTUATION.test(after)) ? '\\\\' : '\\';
        break;
      case '`':
        out += '\\`';
        break;
      case '*':
        // Between spaces ("5 * 3", "* * *") a star can neither open nor close emphasis.
        out += isSpaceOrEdge(before) && isSpaceOrEdge(after) ? '*' : '\\*';
        break;
      case '_':
        // Inside a word an underscore never emphasises (GFM); between spaces neither.
        out += (isWordChar(before) && isWordChar(after)) || (isSpaceOrEdge(before) && isSpaceOrEdge(after)) ? '_' : '\\_';
        break;
      case '~':
        // GFM strikes through with one tilde too ("~b~"); between spaces one cannot.
        out += isSpaceOrEdge(before) && isSpaceOrEdge(after) ? '~' : '\\~';
        break;
      case '$':
        // Inline math ("$x$") needs a pair, opening before and closing after a character other than
        // a space or a digit ("$5 and $10", "MIL$" and "($US bn)" stay as they are).
        out += pairedDollars && ((after !== '' && !/[\s\d]/.test(after)) || (before !== '' && !/[\s\d]/.test(before) && !/\d/.test(after))) ? '\\$' : '$';
        break;
      case ']':
        // "](", "][" and "]:" are what links, references and definitions need.
        out += after === '(' || after === '[' || after === ':' ? '\\]' : ']';
        break;
      case '<':
        out += after !== '' && /[A-Za-z!/?]/.test(after) ? '\\<' : '<';
        break;
      case '&':
        out += /^&#?[a-z0-9]+;/i.test(text.slice(i, i + 34)) ? '\\&' : '&';
        break;
      default:
        out += ch;
    }
  }
  return out;
}

/** Starts of a line that a Markdown reader takes as a block (heading, quote, list, fence, table, rule). */
const BLOCK_START = /^(#{1,6}(\s|$)|>|[-+*](\s|$)|\d{1,9}[.)](\s|$)|```|~~~|\||={3,}\s*$|-{3,}\s*$|\[\^|[\s:|-]*-[\s:-]*\|[\s:|-]*$)/;

/** Keeps an already-escaped line from starting a block: its first character is escaped. */
export function escapeLineStart(line: string): string {
  if (!BLOCK_START.test(line)) return line;
  const ordered = /^(\d{1,9})([.)])/.exec(line);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1].length)}`;
  return `\\${line}`;
}

/** Text for a table cell: one line, pipes escaped. */
export function escapeCellText(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** A code span: backticks around `code`, more of them than any run inside. */
export function codeSpan(code: string): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = code.startsWith('`') || code.endsWith('`') || (code.startsWith(' ') && code.endsWith(' ') && code.trim()) ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}

/** A fence for a code block: three backticks, or more than the longest run of them inside. */
export function codeFence(code: string): string {
  let longest = 0;
  for (const run of code.match(/^ {0,3}`{3,}/gm) ?? []) longest = Math.max(longest, run.trim().length);
  return '`'.repeat(Math.max(3, longest + 1));
}
