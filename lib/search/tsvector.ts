/*
 * The text form of tsvector values built from already-analysed terms, so PostgreSQL's own parser
 * (which would split "e.g" or "covid-19" again) never touches them.
 */

function quoteLexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** A tsvector of the distinct terms, without positions: `'index' 'search'`. */
export function lexemesLiteral(terms: Iterable<string>): string {
  const parts: string[] = [];
  for (const term of terms) parts.push(quoteLexeme(term));
  return parts.join(' ');
}
