// Storage per chunk: the chunk table with its indexes and TOAST, the keyword postings and statistics.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/lib/db/client';
import { fmt, int } from './common';

export async function reportStorage(db: Db, chunks: number): Promise<void> {
  const rows = await queryRows<{ name: string; table_bytes: string; index_bytes: string }>(
    db,
    sql`select c.relname as name, pg_table_size(c.oid) as table_bytes, pg_indexes_size(c.oid) as index_bytes
        from pg_class c where c.relname in ('kb_chunks', 'kb_postings', 'kb_index_stats') order by c.relname`,
  );
  console.log(`\nStorage (${int(chunks)} chunks)`);
  let total = 0;
  for (const r of rows) {
    const bytes = Number(r.table_bytes) + Number(r.index_bytes);
    total += bytes;
    console.log(`  ${r.name.padEnd(16)} table ${fmt(Number(r.table_bytes) / 1e6)} MB, indexes ${fmt(Number(r.index_bytes) / 1e6)} MB`);
  }
  console.log(`  per chunk: ${int(total / Math.max(1, chunks))} bytes`);
}
