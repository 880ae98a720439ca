import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '@/lib/db/client';
import { StatementPacer, type StatementPipeline } from '@/lib/db/pacing';
import { driverBytes, placeRecords, POSTING_BYTES, withoutOrdinals, type PostingRecord } from '@/lib/search/postings';
import type { ChunkRow } from './prepare';

/** Records buffered before they are written: a document of a few hundred chunks is written at once. */
const FLUSH_RECORDS = 50_000;
const FIRST_UPSERT_ROWS = 200;
const MAX_UPSERT_ROWS = 5000;

/**
 * Writes blocks' bytes by upsert, appended to the block or replacing it: an upsert needs no join
 * with kb_postings (and no statistics to plan one).
 */
async function upsertBlocks(
  tx: DbOrTx,
  kbId: string,
  generation: number,
  blocks: Array<{ term: string; block: number; data: Uint8Array }>,
  how: 'append' | 'replace',
): Promise<void> {
  const rows = blocks.map((b) => ({ t: b.term, b: b.block, d: Buffer.from(b.data).toString('hex') }));
  const data = how === 'append' ? sql`kb_postings.data || excluded.data` : sql`excluded.data`;
  await tx.execute(
    sql`insert into kb_postings (kb_id, generation, term, block, data)
        select ${kbId}, ${generation}, v.t, v.b, decode(v.d, 'hex') from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(t text, b int, d text)
        on conflict (kb_id, generation, term, block) do update set data = ${data}`,
  );
}

/** A term's last block: its key and how many records it holds. */
export interface Tail {
  block: number;
  count: number;
}

/*
 * The last block of each term a knowledge base's generation was last written with by this
 * process, so that appending the next document's postings does not look them up again (the
 * lookup was 40% of the database's time in writing them). An entry is valid only while the
 * generation's statistics row (kb_index_stats, which every change of the postings updates in the
 * same transaction) is still the version that write left: its xmin, the id of the transaction
 * that wrote it, must be the writing transaction's. A write by another process, a deletion, a
 * transaction rolled back or a row frozen by VACUUM all change or hide it, and the entry is not
 * used. Deletions in this process drop the entry too (a deletion after an insert in one
 * transaction leaves xmin unchanged). Entries expire, and the whole holds a bounded number of
 * terms.
 */
const TAIL_CACHE_TERMS = 200_000;
const TAIL_CACHE_MS = 10 * 60_000;

interface TailEntry {
  xmin: string;
  storedAt: number;
  tails: Map<string, Tail>;
}

const globalForTails = globalThis as unknown as { __quarryPostingsTails?: Map<string, TailEntry> };
const tailEntries = (globalForTails.__quarryPostingsTails ??= new Map<string, TailEntry>());
const tailKey = (kbId: string, generation: number) => `${kbId}:${generation}`;

/** The tails cached for a generation whose statistics row was last written by transaction `xmin`; an empty map otherwise. Takes them out of the cache. */
export function takeTails(kbId: string, generation: number, xmin: string | null): Map<string, Tail> {
  const key = tailKey(kbId, generation);
  const entry = tailEntries.get(key);
  tailEntries.delete(key);
  if (!entry || xmin === null || entry.xmin !== xmin || Date.now() - entry.storedAt > TAIL_CACHE_MS) return new Map();
  return entry.tails;
}

/** Keeps the tails a write left, for the transaction `xmin` that wrote the statistics row. */
export function keepTails(kbId: string, generation: number, xmin: string, tails: Map<string, Tail>): void {
  const key = tailKey(kbId, generation);
  tailEntries.delete(key);
  if (tails.size > TAIL_CACHE_TERMS) return;
  tailEntries.set(key, { xmin, storedAt: Date.now(), tails });
  let total = 0;
  for (const e of tailEntries.values()) total += e.tails.size;
  // Oldest first (a Map iterates in insertion order) until the terms fit.
  for (const [k, e] of tailEntries) {
    if (total <= TAIL_CACHE_TERMS) break;
    tailEntries.delete(k);
    total -= e.tails.size;
  }
}

/** Forgets a generation's tails (its postings are being deleted). */
export function forgetTails(kbId: string, generation: number): void {
  tailEntries.delete(tailKey(kbId, generation));
}

/**
 * Writes a document's postings (lib/search/postings.ts) as its chunks are inserted: records are
 * gathered per term, then placed in each term's last block (or new ones) and appended by upserts
 * of paced size. Gathering a whole document first means each of its terms' blocks is rewritten
 * once, not once per statement of chunks: appending rewrites the block's row. Terms' last blocks
 * come from `tails` (what this process wrote last, see above) or are looked up; `tails` is kept
 * up to date with what is written. When statements are pipelined (PostgreSQL) a batch's new terms
 * are looked up as the batch is added, ahead of its chunks' INSERT: the answer is back while the
 * database still runs the INSERT, instead of waiting behind it at the flush.
 */
export class PostingsWriter {
  private byTerm = new Map<string, PostingRecord[]>();
  private records = 0;
  private readonly pacer = new StatementPacer(FIRST_UPSERT_ROWS, MAX_UPSERT_ROWS);
  /** Terms looked up ahead (found or not), and the lookups under way. */
  private readonly asked = new Set<string>();
  private ahead: Promise<void>[] = [];

  constructor(
    private readonly tx: DbOrTx,
    private readonly kbId: string,
    private readonly generation: number,
    readonly tails: Map<string, Tail> = new Map(),
    /** PostgreSQL: upserts are sent without waiting (lookups still wait: placing needs their answer). */
    private readonly pipeline: StatementPipeline | null = null,
  ) {}

  /** Adds the records of a batch of chunks whose ordinals start at `first` (after every ordinal added before). */
  add(batch: ChunkRow[], first: number): void {
    const fresh: string[] = [];
    batch.forEach((c, i) => {
      if (c.terms === '') return;
      const terms = c.terms.split('\n');
      for (let k = 0; k < terms.length; k++) {
        const term = terms[k];
        const records = this.byTerm.get(term);
        const record = { ordinal: first + i, tf: c.termCounts[k], length: c.termCount };
        if (records) {
          records.push(record);
        } else {
          this.byTerm.set(term, [record]);
          if (this.pipeline && !this.tails.has(term) && !this.asked.has(term)) {
            this.asked.add(term);
            fresh.push(term);
          }
        }
        this.records++;
      }
    });
    if (fresh.length > 0) {
      const lookup = this.lookUp(fresh);
      // Awaited by the next write; a failure meanwhile (the transaction fails) is reported there.
      lookup.catch(() => undefined);
      this.ahead.push(lookup);
    }
  }

  get full(): boolean {
    return this.records >= FLUSH_RECORDS;
  }

  async flush(): Promise<void> {
    const terms = [...this.byTerm.keys()];
    for (let start = 0; start < terms.length; ) {
      const slice = terms.slice(start, start + (this.pipeline ? MAX_UPSERT_ROWS : this.pacer.rows));
      if (this.pipeline) await this.write(slice);
      else await this.pacer.run(slice.length, () => this.write(slice));
      start += slice.length;
    }
    this.byTerm.clear();
    this.records = 0;
  }

  /** The last block of each term: a lateral lookup per term through the primary key. */
  private async lookUp(terms: string[]): Promise<void> {
    const { tx, kbId, generation, tails } = this;
    const lastRows = await queryRows<{ term: string; block: number; bytes: number }>(
      tx,
      sql`select t.term, p.block, length(p.data) as bytes from jsonb_array_elements_text(${JSON.stringify(terms)}::jsonb) as t(term)
          cross join lateral (select p.block, p.data from kb_postings p
            where p.kb_id = ${kbId} and p.generation = ${generation} and p.term = t.term order by p.block desc limit 1) p`,
    );
    for (const r of lastRows) tails.set(r.term, { block: Number(r.block), count: Number(r.bytes) / POSTING_BYTES });
  }

  private async write(terms: string[]): Promise<void> {
    const { tx, kbId, generation, tails } = this;
    if (this.ahead.length > 0) {
      const pending = this.ahead;
      this.ahead = [];
      await Promise.all(pending);
    }
    const unknown = terms.filter((term) => !tails.has(term) && !this.asked.has(term));
    if (unknown.length > 0) await this.lookUp(unknown);
    const blocks = terms.flatMap((term) => {
      const last = tails.get(term) ?? null;
      const placed = placeRecords(last, this.byTerm.get(term)!);
      const end = placed[placed.length - 1];
      const added = end.data.byteLength / POSTING_BYTES;
      tails.set(term, last && end.block === last.block ? { block: last.block, count: last.count + added } : { block: end.block, count: added });
      return placed.map((b) => ({ term, ...b }));
    });
    if (this.pipeline) await this.pipeline.send(() => upsertBlocks(tx, kbId, generation, blocks, 'append'));
    else await upsertBlocks(tx, kbId, generation, blocks, 'append');
  }
}

/*
 * Taking a document's chunks out of the keyword postings (lib/search/postings.ts) before the
 * chunks themselves are deleted: only the blocks of the document's terms that its ordinals fall
 * in are read (a document's chunks get consecutive ordinals, so usually one or two per term),
 * rewritten without its records, and deleted when nothing is left. Rows are read through a
 * cursor and written in paced statements (lib/db/pacing.ts), as chunks are deleted.
 */

const FIRST_ROWS = 50;
const MAX_ROWS = 2000;
let cursors = 0;

/** Takes the document's chunks out of the postings; returns how many chunks it has (0: nothing was done). */
export async function removePostings(tx: DbOrTx, target: { kbId: string; documentId: string; generation: number }): Promise<number> {
  const [span] = await queryRows<{ lo: number | null; hi: number | null; n: string | number }>(
    tx,
    sql`select min(ordinal) as lo, max(ordinal) as hi, count(*) as n from kb_chunks
        where document_id = ${target.documentId} and generation = ${target.generation}`,
  );
  const n = Number(span?.n ?? 0);
  // No chunks, no postings to take out: the tails this process remembers stay right.
  if (n === 0 || span.lo === null || span.hi === null) return 0;
  forgetTails(target.kbId, target.generation);
  const lo = Number(span.lo);
  const hi = Number(span.hi);
  let drop = (ordinal: number) => ordinal >= lo && ordinal <= hi;
  if (hi - lo + 1 !== n) {
    // Not one run of ordinals (chunks written by an older version): the exact set.
    const rows = await queryRows<{ ordinal: number }>(
      tx,
      sql`select ordinal from kb_chunks where document_id = ${target.documentId} and generation = ${target.generation}`,
    );
    const mine = new Set(rows.map((r) => Number(r.ordinal)));
    drop = (ordinal) => mine.has(ordinal);
  }
  const where = sql`p.kb_id = ${target.kbId} and p.generation = ${target.generation}`;
  const cursor = sql.raw(`quarry_postings_${++cursors}`);
  // From the document's terms to the blocks that can hold its ordinals: those keyed from the last
  // one starting at or before its first ordinal up to its last (a lateral lookup per term,
  // planned well without statistics).
  await tx.execute(
    sql`declare ${cursor} no scroll cursor for
        select p.term, p.block, p.data from
          (select distinct u.lexeme as term from kb_chunks c, unnest(c.terms) u
           where c.document_id = ${target.documentId} and c.generation = ${target.generation}) t
        cross join lateral (
          select p.term, p.block, p.data from kb_postings p
          where ${where} and p.term = t.term and p.block <= ${hi}
            and p.block >= coalesce((select max(q.block) from kb_postings q
                                     where q.kb_id = ${target.kbId} and q.generation = ${target.generation} and q.term = t.term and q.block <= ${lo}), ${lo})
        ) p`,
  );
  const pacer = new StatementPacer(FIRST_ROWS, MAX_ROWS);
  for (;;) {
    const limit = pacer.rows;
    const found = await pacer.run(limit, async () => {
      const rows = await queryRows<{ term: string; block: number; data: Uint8Array | string }>(
        tx,
        sql`fetch forward ${sql.raw(String(limit))} from ${cursor}`,
      );
      const changed: Array<{ term: string; block: number; data: Uint8Array }> = [];
      for (const r of rows) {
        const bytes = driverBytes(r.data);
        const kept = withoutOrdinals(bytes, Number(r.block), drop);
        if (kept !== bytes) changed.push({ term: r.term, block: Number(r.block), data: kept });
      }
      if (changed.length > 0) {
        await upsertBlocks(tx, target.kbId, target.generation, changed, 'replace');
        const emptied = changed.filter((c) => c.data.byteLength === 0).map((c) => c.term);
        if (emptied.length > 0) {
          await tx.execute(
            sql`delete from kb_postings p where ${where} and p.data = ''::bytea
                and p.term = any(array(select jsonb_array_elements_text(${JSON.stringify(emptied)}::jsonb)))`,
          );
        }
      }
      return rows.length;
    });
    if (found < limit) break;
  }
  await tx.execute(sql`close ${cursor}`);
  return n;
}
