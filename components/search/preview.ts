/*
 * The start of a long passage, cut where Markdown allows it: after whole blocks, else between the
 * lines of a table or code block, else between words, so the preview still renders as it should.
 */

/** The passage itself when it has at most `limit` characters, else its start ending at a clean cut. */
export function previewMarkdown(markdown: string, limit: number): { text: string; cut: boolean } {
  if (markdown.length <= limit) return { text: markdown, cut: false };
  const blocks = markdown.split(/\n{2,}/);
  let text = '';
  for (const block of blocks) {
    const next = text ? `${text}\n\n${block}` : block;
    if (next.length > limit) break;
    text = next;
  }
  if (text) return { text, cut: true };
  const first = blocks[0].slice(0, limit);
  const lineEnd = first.lastIndexOf('\n');
  if (lineEnd > limit / 2) return { text: first.slice(0, lineEnd), cut: true };
  const space = first.search(/\s\S*$/);
  return { text: `${(space > limit / 2 ? first.slice(0, space) : first).trimEnd()}…`, cut: true };
}
