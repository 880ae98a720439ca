import type { FileRow } from '@/lib/db/schema';

/**
 * File rows kept in memory, for a process that is its database's sole user (the embedded
 * database): a file row is written when the upload is committed, and after that only deleted or
 * moved to a new version by a source sync, each of which forgets it, so a kept row is the row
 * until then. Reading a file by id is the
 * API's most frequent read (GET /v1/files/{id}, and the check that a file exists before an
 * extraction or a knowledge-base document is created).
 *
 * A read that began before a deletion must not put the deleted row back: every deletion moves the
 * generation on, and a row read under an older generation is not kept.
 */
const LIMIT = 10_000;

interface RowCache {
  rows: Map<string, FileRow>;
  generation: number;
}

// On globalThis so module reloads (dev server, tests) share it, like the database handle.
const holder = globalThis as unknown as { __quarryFileRows?: RowCache };

function cache(): RowCache {
  return (holder.__quarryFileRows ??= { rows: new Map(), generation: 0 });
}

export function cachedFileRow(id: string): FileRow | undefined {
  return holder.__quarryFileRows?.rows.get(id);
}

/** The generation to hand back to rememberFileRow with a row read now. */
export function fileRowGeneration(): number {
  return cache().generation;
}

/** Keeps `row`, read when the generation was `generation`, unless a file was deleted since. */
export function rememberFileRow(row: FileRow, generation: number): void {
  const c = cache();
  if (c.generation !== generation) return;
  if (c.rows.size >= LIMIT) c.rows.delete(c.rows.keys().next().value!);
  // Shared by every reader: frozen, so that no caller can change what the next one reads.
  deepFreeze(row);
  c.rows.set(row.id, row);
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}

/** Forgets a file's row: called when its deletion starts and again once it is committed. */
export function forgetFileRow(id: string): void {
  const c = cache();
  c.generation++;
  c.rows.delete(id);
}

/** Forgets every kept row (after changing the files table outside deleteFile). */
export function forgetFileRows(): void {
  const c = cache();
  c.generation++;
  c.rows.clear();
}
