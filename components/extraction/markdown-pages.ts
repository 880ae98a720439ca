/* Extracted Markdown cut into the pages of the document it came from. */

export interface MarkdownPage {
  /** The page number from the document's marker, or null for text without page markers. */
  number: number | null;
  text: string;
}

const PAGE_MARKER = /^[ \t]*<!--\s*page\s+(\d+)\s*-->[ \t]*$/gim;

/** Splits extracted Markdown on its `<!-- page N -->` lines; text before the first marker joins the first page. */
export function splitPages(markdown: string): MarkdownPage[] {
  const markers = [...markdown.matchAll(PAGE_MARKER)];
  if (markers.length === 0) return [{ number: null, text: markdown.trim() }];
  const pages: MarkdownPage[] = markers.map((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = i + 1 < markers.length ? (markers[i + 1].index ?? markdown.length) : markdown.length;
    return { number: Number(m[1]), text: markdown.slice(start, end).trim() };
  });
  const before = markdown.slice(0, markers[0].index ?? 0).trim();
  if (before) pages[0] = { ...pages[0], text: `${before}\n\n${pages[0].text}` };
  return pages;
}
