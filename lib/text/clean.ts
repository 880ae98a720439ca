/*
 * Names, titles, filenames and tags end up in response headers, logs and terminals. Control
 * characters there can split a header or a log line, so they are replaced when a value is stored:
 * every run of C0 controls (except tab), DEL and C1 controls becomes one space.
 */

const CONTROL_RUN = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F]+/g;

/** The value with each run of control characters (C0 except tab, DEL, C1) replaced by one space. */
export function replaceControlCharacters(value: string): string {
  return value.replace(CONTROL_RUN, ' ');
}

/** A stored name, title, filename or tag: control characters replaced, then trimmed. */
export function cleanLabel(value: string): string {
  return replaceControlCharacters(value).trim();
}

/** Why a string cannot be stored as text in PostgreSQL, or null when it can. */
export function unstorableTextReason(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters (U+0000)';
  if (!value.isWellFormed()) return 'must be valid Unicode (it holds an unpaired UTF-16 surrogate)';
  return null;
}

/*
 * Checks every request value before validation and before anything reaches the database:
 * PostgreSQL refuses NUL characters in text and jsonb and unpaired surrogates in jsonb, and very
 * deep JSON overflows the stack of JSON.stringify and of the database's jsonb parser. Such input
 * is refused with a 400 naming the field, never a 500.
 */

/** Deepest nesting accepted in a JSON body or a JSON-valued field (metadata). */
export const MAX_JSON_DEPTH = 32;

export interface UnsafeValue {
  field: string;
  reason: string;
}

/**
 * The first string (value or object key) that cannot be stored, or the first place nested deeper
 * than MAX_JSON_DEPTH; null when the value is safe. Walks without recursion, so any depth is fine.
 */
export function findUnsafeValue(value: unknown, root: string): UnsafeValue | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const reason = unstorableTextReason(item.value);
      if (reason) return { field: item.path, reason };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_JSON_DEPTH) {
      return { field: item.path, reason: `is nested too deeply (at most ${MAX_JSON_DEPTH} levels of objects and arrays)` };
    }
    const entries = Array.isArray(item.value) ? item.value.entries() : Object.entries(item.value);
    for (const [key, child] of entries) {
      const path = item.path === '' ? String(key) : `${item.path}.${String(key)}`;
      if (typeof key === 'string') {
        const reason = unstorableTextReason(key);
        if (reason) return { field: path, reason: `key ${reason}` };
      }
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return null;
}

/**
 * Text from a document, made storable: NUL characters removed and unpaired surrogates replaced
 * by U+FFFD. Documents can hold both (a DOCX `&#0;`, a spreadsheet cell), and one such character
 * must not fail a whole extraction.
 */
export function storableText(value: string): string {
  const withoutNul = value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
  return withoutNul.isWellFormed() ? withoutNul : withoutNul.toWellFormed();
}

/** A JSON value with every string and key made storable (see storableText). */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableJson) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v)])) as T;
  }
  return value;
}
