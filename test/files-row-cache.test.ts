import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as filesRoute from '@/app/v1/files/route';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as extractionsRoute from '@/app/v1/extractions/route';
import { soleUser } from '@/lib/db/client';
import { files, type FileRow } from '@/lib/db/schema';
import { cachedFileRow, fileRowGeneration, forgetFileRow, forgetFileRows, rememberFileRow } from '@/lib/files/row-cache';
import { useTestApp } from '@/test/support/app';
import { formWith } from '@/test/support/fixtures';

const app = useTestApp();
const embedded = !process.env.TEST_DATABASE_URL;

async function uploadText(text: string): Promise<string> {
  const res = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith('notes.txt', Buffer.from(text), { metadata: '{"a":{"b":[1]}}', tags: 'x,y' }) });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const getFile = (id: string) => app.call(fileRoute.GET, { path: `/v1/files/${id}`, params: { file_id: id } });

function row(id: string): FileRow {
  const at = new Date();
  return { id, filename: 'a.txt', contentType: 'text/plain', extension: '.txt', size: 1, sha256: 'f'.repeat(64), storageKey: id, metadata: { a: { b: [1] } }, tags: ['x'], version: 1, source: null, createdByKey: null, createdAt: at, updatedAt: at };
}

describe('file rows kept in memory by the process that holds the embedded database', () => {
  it('answer GET /v1/files/{id} from memory after the first read, and forget the row when the file is deleted', async () => {
    const id = await uploadText('kept in memory\n');
    const first = await getFile(id);
    expect(first.status).toBe(200);
    // Gone from the database behind the service's back: the process that is the database's sole
    // user still answers from the row it read (PostgreSQL, which other servers share, reads again).
    await app.db.delete(files).where(eq(files.id, id));
    const second = await getFile(id);
    if (embedded) {
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
    } else {
      expect(second.status).toBe(404);
    }
    // A deletion through the service forgets it, whether or not the row was still there.
    const deleted = await app.call(fileRoute.DELETE, { method: 'DELETE', path: `/v1/files/${id}`, params: { file_id: id } });
    expect(deleted.status).toBe(404);
    expect((await getFile(id)).status).toBe(404);
    expect(cachedFileRow(id)).toBeUndefined();
  });

  it('answer 404 for a file deleted through the API, also to an extraction asking for it', async () => {
    const id = await uploadText('deleted soon\n');
    expect((await getFile(id)).status).toBe(200);
    const created = await app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body: { file_id: id } });
    expect(created.status).toBe(201);
    const deleted = await app.call(fileRoute.DELETE, { method: 'DELETE', path: `/v1/files/${id}`, params: { file_id: id } });
    expect(deleted.status).toBe(204);
    expect((await getFile(id)).status).toBe(404);
    const again = await app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body: { file_id: id } });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('FILE_NOT_FOUND');
  });

  it('keep a row only for the embedded database itself, never for a transaction or PostgreSQL', async () => {
    expect(soleUser(app.db)).toBe(embedded);
    await app.db.transaction(async (tx) => {
      expect(soleUser(tx)).toBe(false);
    });
  });

  it('do not keep a row read before a deletion began', () => {
    forgetFileRows();
    const before = fileRowGeneration();
    forgetFileRow('file_a');
    rememberFileRow(row('file_a'), before);
    expect(cachedFileRow('file_a')).toBeUndefined();
    rememberFileRow(row('file_a'), fileRowGeneration());
    expect(cachedFileRow('file_a')?.id).toBe('file_a');
    forgetFileRows();
    expect(cachedFileRow('file_a')).toBeUndefined();
  });

  it('share a frozen row: no reader can change what the next one reads', () => {
    forgetFileRows();
    rememberFileRow(row('file_b'), fileRowGeneration());
    const kept = cachedFileRow('file_b')!;
    expect(() => {
      (kept as { filename: string }).filename = 'changed';
    }).toThrow(TypeError);
    expect(() => kept.tags.push('z')).toThrow(TypeError);
    expect(() => {
      ((kept.metadata.a as { b: number[] }).b as number[]).push(2);
    }).toThrow(TypeError);
    forgetFileRows();
  });
});
