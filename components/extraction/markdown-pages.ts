/* Extracted Markdown cut into the pages of the document it came from. */

/** A stretch of a page's text copied from the Markdown: text[at, at+length) is markdown[source, source+length). */
interface TextPiece {
  at: number;
  source: number;
  length: number;
}

export interface MarkdownPage {
  /** The page number from the document's marker, or null for text without page markers. */
  number: number | null;
  text: string;
  /** Where the text came from in the whole Markdown, so offsets into it can be found on the page. */
  pieces: TextPiece[];
}

const PAGE_MARKER = /^[ \t]*<!--\s*page\s+(\d+)\s*-->[ \t]*$/gim;

/** markdown[start, end) without the blank space around it, and where that begins. */
function trimmed(markdown: string, start: number, end: number): { text: string; source: number } {
  const raw = markdown.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  return { text: raw.trim(), source: start + lead };
}

/** Splits extracted Markdown on its `<!-- page N -->` lines; text before the first marker joins the first page. */
export function splitPages(markdown: string): MarkdownPage[] {
  const markers = [...markdown.matchAll(PAGE_MARKER)];
  if (markers.length === 0) {
    const { text, source } = trimmed(markdown, 0, markdown.length);
    return [{ number: null, text, pieces: [{ at: 0, source, length: text.length }] }];
  }
  const pages: MarkdownPage[] = markers.map((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = i + 1 < markers.length ? (markers[i + 1].index ?? markdown.length) : markdown.length;
    const { text, source } = trimmed(markdown, start, end);
    return { number: Number(m[1]), text, pieces: [{ at: 0, source, length: text.length }] };
  });
  const before = trimmed(markdown, 0, markers[0].index ?? 0);
  if (before.text) {
    const first = pages[0];
    const shift = before.text.length + 2;
    pages[0] = {
      ...first,
      text: `${before.text}\n\n${first.text}`,
      pieces: [{ at: 0, source: before.source, length: before.text.length }, ...first.pieces.map((p) => ({ ...p, at: p.at + shift }))],
    };
  }
  return pages;
}

/** The part of a span of the whole Markdown [from, to) that lies on a page, as offsets into the page's text. */
export function spanOnPage(page: MarkdownPage, span: { from: number; to: number } | undefined): { from: number; to: number } | undefined {
  if (!span) return undefined;
  let from = Infinity;
  let to = -Infinity;
  for (const piece of page.pieces) {
    const start = Math.max(span.from, piece.source);
    const end = Math.min(span.to, piece.source + piece.length);
    if (end <= start) continue;
    from = Math.min(from, piece.at + start - piece.source);
    to = Math.max(to, piece.at + end - piece.source);
  }
  return to > from ? { from, to } : undefined;
}
