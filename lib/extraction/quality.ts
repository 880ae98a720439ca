import { distance } from 'fastest-levenshtein';

/**
 * Text of a Markdown document without its markup, for comparing extraction output with reference
 * Markdown: markers, table pipes and rules, emphasis, heading hashes, list bullets, links and
 * images are removed, Unicode is NFKC-normalised, case folded and whitespace collapsed.
 */
export function normalizeMarkdownText(markdown: string): string {
  return markdown
    .normalize('NFKC')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/gm, ' ') // GFM delimiter rows (one dash is enough)
    .replace(/[|*_`#>~]/g, ' ')
    .replace(/^\s*(?:[-+]|\d+[.)])\s+/gm, ' ')
    .replace(/<\/?[a-z][^>]*>/gi, ' ')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** 1 − normalised Levenshtein distance of the two documents' normalised text (1 = identical). */
export function textSimilarity(actual: string, expected: string): number {
  const a = normalizeMarkdownText(actual);
  const b = normalizeMarkdownText(expected);
  if (a.length === 0 && b.length === 0) return 1;
  return 1 - distance(a, b) / Math.max(a.length, b.length);
}
