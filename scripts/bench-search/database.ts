// The benchmark database: created afresh, and seeded with a knowledge base whose documents have
// files and completed extractions, as uploads leave them before indexing.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import type { ServiceContext } from '@/lib/context';
import type { Db } from '@/lib/db/client';
import { extractionDocuments, extractions, files, kbDocuments, knowledgeBases, type KnowledgeBaseRow } from '@/lib/db/schema';
import { documentFromMarkdown } from '@/lib/document/from-markdown';
import { documentText } from '@/lib/knowledge-bases/indexing';
import { newId } from '@/lib/ids';
import { createKnowledgeBase } from '@/lib/knowledge-bases/service';
import type { Storage } from '@/lib/storage';
import type { CorpusWriter } from './corpus';

/** The database named by the URL, dropped and created again through the server's `postgres` database. */
export async function recreateDatabase(url: string, drop: boolean): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/bench/i.test(name)) throw new Error(`Refusing to drop database "${name}": its name must contain "bench"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
    if (!drop) await client.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end({ timeout: 5 });
  }
}

export function serviceContext(db: Db): ServiceContext {
  return { db, storage: null as unknown as Storage, requestId: null, principal: null };
}

export interface Seeded {
  kb: KnowledgeBaseRow;
  documents: { id: string; sections: number; metadata: Record<string, unknown> }[];
}

/**
 * A knowledge base created by the service, and one file, completed extraction (with its document
 * model, as a Markdown upload's extraction keeps it) and document per corpus document.
 */
export async function seed(db: Db, writer: CorpusWriter, plan: number[]): Promise<Seeded & { chars: number }> {
  const view = await createKnowledgeBase(serviceContext(db), { name: 'bench-search', description: 'bench:search corpus' });
  const [kb] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, view.id));
  const documents: Seeded['documents'] = [];
  let chars = 0;
  const BATCH = 50;
  for (let start = 0; start < plan.length; start += BATCH) {
    const fileRows: (typeof files.$inferInsert)[] = [];
    const extractionRows: (typeof extractions.$inferInsert)[] = [];
    const documentRows: (typeof kbDocuments.$inferInsert)[] = [];
    const modelRows: (typeof extractionDocuments.$inferInsert)[] = [];
    for (let i = start; i < Math.min(plan.length, start + BATCH); i++) {
      const doc = writer.document(i, plan[i]);
      const bytes = Buffer.from(doc.markdown);
      chars += doc.markdown.length;
      const now = new Date();
      const fileId = newId('file');
      const extractionId = newId('extraction');
      const documentId = newId('document');
      const metadata = { corpus: 'bench', ordinal: i };
      fileRows.push({
        id: fileId,
        filename: `bench-${String(i).padStart(5, '0')}.md`,
        contentType: 'text/markdown',
        extension: '.md',
        size: bytes.length,
        sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
        storageKey: `bench/${fileId}`,
      });
      extractionRows.push({
        id: extractionId,
        fileId,
        status: 'completed',
        mode: 'simple',
        progress: 100,
        markdown: doc.markdown,
        metadata: { title: doc.title },
        startedAt: now,
        completedAt: now,
      });
      modelRows.push({ extractionId, document: documentFromMarkdown(doc.markdown, { title: doc.title }, { spans: true }) as unknown as Record<string, unknown> });
      documentRows.push({ id: documentId, kbId: kb.id, fileId, extractionId, title: doc.title, status: 'indexing', metadata });
      documents.push({ id: documentId, sections: doc.sections, metadata });
    }
    await db.insert(files).values(fileRows);
    await db.insert(extractions).values(extractionRows);
    await db.insert(extractionDocuments).values(modelRows);
    await db.insert(kbDocuments).values(documentRows);
  }
  return { kb, documents, chars };
}

/** A document's Markdown and document model (JSON text), read as the indexing pipeline reads them. */
export async function markdownOf(db: Db, documentId: string): Promise<{ markdown: string; document: string | null }> {
  const [row] = await db
    .select({ markdown: extractions.markdown, document: documentText })
    .from(kbDocuments)
    .innerJoin(extractions, eq(extractions.id, kbDocuments.extractionId))
    .leftJoin(extractionDocuments, eq(extractionDocuments.extractionId, extractions.id))
    .where(eq(kbDocuments.id, documentId));
  return { markdown: row?.markdown ?? '', document: row?.document ?? null };
}
