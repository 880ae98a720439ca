import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();

export const ID_PREFIXES = {
  file: 'file',
  extraction: 'ext',
  knowledgeBase: 'kb',
  document: 'doc',
  chunk: 'chunk',
  webhook: 'wh',
  apiKey: 'key',
  event: 'evt',
  delivery: 'del',
  request: 'req',
  run: 'run',
  user: 'usr',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/**
 * A prefixed ULID in lower case: 48 bits of millisecond time then 80 random bits,
 * so ids sort by creation time and cannot be guessed.
 */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid().toLowerCase()}`;
}

const ID_BODY = /^[0-9a-hjkmnp-tv-z]{26}$/;

/** True when `value` has the shape of an id of the given kind. */
export function isId(kind: IdKind, value: string): boolean {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return value.startsWith(prefix) && ID_BODY.test(value.slice(prefix.length));
}
