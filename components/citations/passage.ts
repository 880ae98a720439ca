/*
 * A cited passage of a page's Markdown, widened to whole blocks (paragraphs, headings, lists,
 * tables, code blocks), so the text before it, the passage and the text after it can each be
 * formatted on their own and read exactly as the page does: a cut inside a block would change how
 * it is formatted (half a table, a list item turned into code).
 */

const FENCE = /^(`{3,}|~{3,})/;
const HEADING = /^#{1,6}(\s|$)/;

/**
 * Offsets where a top-level block of the Markdown starts: a line after a blank one, a heading, the
 * line after a heading, or a code fence. Indented lines stay with the block above them (a list
 * item's next paragraph), and nothing inside a fenced code block starts a block.
 */
export function blockStarts(text: string): number[] {
  const starts = [0];
  let fence: string | null = null;
  let blankBefore = true;
  let afterHeading = false;
  let at = 0;
  for (const line of text.split('\n')) {
    const blank = line.trim() === '';
    if (fence !== null) {
      if (line.trim().startsWith(fence) && /^[`~]+$/.test(line.trim())) fence = null;
      afterHeading = false;
    } else if (!blank) {
      const indented = /^[ \t]/.test(line);
      const opens = FENCE.exec(line);
      if (at > 0 && ((blankBefore && !indented) || afterHeading || HEADING.test(line) || opens)) starts.push(at);
      if (opens) fence = opens[1]!;
      afterHeading = !opens && HEADING.test(line);
    } else {
      afterHeading = false;
    }
    blankBefore = blank;
    at += line.length + 1;
  }
  return [...new Set(starts)];
}

/** The page's Markdown cut around a passage [from, to) of it, widened to whole blocks; undefined when the span holds no text. */
export function cutPassage(text: string, span: { from: number; to: number } | undefined): { before: string; passage: string; after: string } | undefined {
  if (!span) return undefined;
  let from = Math.max(0, span.from);
  let to = Math.min(text.length, span.to);
  while (from < to && /\s/.test(text[from]!)) from++;
  while (to > from && /\s/.test(text[to - 1]!)) to--;
  if (to <= from) return undefined;
  const starts = blockStarts(text);
  const start = starts.filter((s) => s <= from).pop() ?? 0;
  const end = starts.find((s) => s >= to) ?? text.length;
  return { before: text.slice(0, start).trimEnd(), passage: text.slice(start, end).trim(), after: text.slice(end).trimStart() };
}
