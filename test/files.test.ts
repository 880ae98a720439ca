import crypto from 'node:crypto';
import path from 'node:path';
import { parse as parseDisposition } from 'content-disposition';
import { describe, expect, it } from 'vitest';
import * as filesRoute from '@/app/v1/files/route';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as downloadRoute from '@/app/v1/files/[file_id]/download/route';
import * as typesRoute from '@/app/v1/files/types/route';
import * as fileExtractionsRoute from '@/app/v1/files/[file_id]/extractions/route';
import * as eventsRoute from '@/app/v1/events/route';
import { strToU8, zipSync } from 'fflate';
import { useTestApp } from '@/test/support/app';
import { fixture, formWith } from '@/test/support/fixtures';

const app = useTestApp();

async function upload(name: string, bytes: Buffer | Uint8Array, fields: Record<string, string> = {}, key?: string) {
  return app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith(name, bytes, fields), key });
}

describe('POST /v1/files', () => {
  it('stores a PDF with metadata and de-duplicated tags, typed by its content', async () => {
    const bytes = fixture('pdf/code_and_formula.pdf');
    const res = await upload('code_and_formula.pdf', bytes, { metadata: '{"project":"alpha","n":1}', tags: ' a, b ,a,, c ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      filename: 'code_and_formula.pdf',
      content_type: 'application/pdf',
      size: bytes.length,
      metadata: { project: 'alpha', n: 1 },
      tags: ['a', 'b', 'c'],
    });
    expect(res.body.id).toMatch(/^file_[0-9a-z]{26}$/);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it.each([
    ['docx/word_sample.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['office/xlsx_01.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['office/powerpoint_sample.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['ocr/chinese_traditional.png', 'image/png'],
    ['ocr/manga_09.jpg', 'image/jpeg'],
    ['ocr/phototest.tif', 'image/tiff'],
    ['ocr/webp-test.webp', 'image/webp'],
    ['office/html_rich_table_cells.html', 'text/html'],
    ['docx/word_sample.md', 'text/markdown'],
  ])('accepts %s as %s', async (file, mime) => {
    const res = await upload(path.basename(file), fixture(file));
    expect(res.status).toBe(201);
    expect(res.body.content_type).toBe(mime);
  });

  it('accepts UTF-8 text and CSV by extension', async () => {
    expect((await upload('notes.txt', Buffer.from('héllo wörld\n'))).body.content_type).toBe('text/plain');
    expect((await upload('table.csv', Buffer.from('a,b\n1,2\n'))).body.content_type).toBe('text/csv');
  });

  it('stores a file by its content when that is another supported format than its name says', async () => {
    const png = await upload('report.pdf', fixture('ocr/chinese_traditional.png'));
    expect(png.status).toBe(201);
    expect(png.body).toMatchObject({ filename: 'report.pdf', content_type: 'image/png' });
    const docx = await upload('eng_spa_mult.doc', fixture('formats/same-content/eng_spa_mult.doc'));
    expect(docx.body.content_type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const pptx = await upload('eng_spa_mult.ppt', fixture('formats/same-content/eng_spa_mult.ppt'));
    expect(pptx.body.content_type).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
  });

  it('refuses content of no supported format with 415, whatever its name', async () => {
    const zip = zipSync({ 'notes/a.txt': strToU8('hello') });
    const res = await upload('report.docx', zip);
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_FORMAT');
    expect(res.body.error.details.detected_type).toBe('application/zip');
    const gif = await upload('photo.jpg', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'));
    expect(gif.body.content_type).toBe('image/gif');
  });

  it('rejects unknown binary content and non-UTF-8 text with 415', async () => {
    const gzip = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]);
    expect((await upload('archive.gz', gzip)).body.error.code).toBe('UNSUPPORTED_FORMAT');
    expect((await upload('blob.bin', Buffer.from('just some text'))).status).toBe(415);
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const res = await upload('latin1.txt', latin1);
    expect(res.status).toBe(415);
    expect(res.body.error.message).toContain('UTF-8');
  });

  it('rejects a missing, empty or second file part with 400 INVALID_FILE', async () => {
    const noFile = new FormData();
    noFile.set('tags', 'x');
    const missing = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: noFile });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('INVALID_FILE');

    const empty = await upload('empty.pdf', Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('INVALID_FILE');

    const two = formWith('a.txt', Buffer.from('a'));
    two.append('file', new Blob([new Uint8Array(Buffer.from('b'))]), 'b.txt');
    const twice = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: two });
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe('INVALID_FILE');

    const json = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.error.code).toBe('INVALID_FILE');
  });

  it('rejects metadata that is not a JSON object with 400 INVALID_REQUEST', async () => {
    for (const metadata of ['[1,2]', 'not json', '"text"', 'null']) {
      const res = await upload('a.txt', Buffer.from('a'), { metadata });
      expect(res.status, metadata).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details.field).toBe('metadata');
    }
  });

  it('answers 413 above the type limit while streaming and keeps nothing', async () => {
    const png = Buffer.alloc(20 * 1024 * 1024 + 1, 0);
    fixture('ocr/chinese_traditional.png').copy(png, 0);
    const before = (await app.storage.list('objects')).length;
    const res = await upload('huge.png', png);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('FILE_TOO_LARGE');
    expect(res.body.error.details.max_size_mb).toBe(20);
    expect(await app.storage.list('objects')).toHaveLength(before);
    expect(await app.storage.list('staging')).toEqual([]);
  });

  it('keeps a non-ASCII filename for display and download', async () => {
    const name = 'résumé 履歴書 "q".txt';
    const res = await upload(name, Buffer.from('x'));
    expect(res.status).toBe(201);
    expect(res.body.filename).toBe(name);
    const dl = await app.call(downloadRoute.GET, { path: `/v1/files/${res.body.id}/download`, params: { file_id: res.body.id } });
    const disposition = dl.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; filename="r\?sum\? \?\?\? \\"q\\".txt"; filename\*=UTF-8''/);
    expect(parseDisposition(disposition).parameters.filename).toBe(name);
  });
});

describe('GET /v1/files', () => {
  it('filters by all tags and content type, sorts, paginates and omits metadata', async () => {
    const marker = `m${Date.now()}`;
    const a = await upload('b-small.txt', Buffer.from('1'), { tags: `${marker},red` });
    const b = await upload('a-large.txt', Buffer.from('1234567890'), { tags: `${marker},red,blue` });
    const c = await upload('c-mid.md', Buffer.from('12345'), { tags: `${marker},blue` });

    const both = await app.call(filesRoute.GET, { path: `/v1/files?tags=${marker},red,blue` });
    expect(both.body.items.map((f: { id: string }) => f.id)).toEqual([b.body.id]);

    const red = await app.call(filesRoute.GET, { path: `/v1/files?tags=${marker},red` });
    expect(red.body.total).toBe(2);
    expect(red.body.items.map((f: { id: string }) => f.id)).toEqual([b.body.id, a.body.id]);
    expect(red.body.items[0]).not.toHaveProperty('metadata');
    expect(red.body.items[0]).not.toHaveProperty('updated_at');
    expect(red.body).toMatchObject({ limit: 50, offset: 0 });

    const md = await app.call(filesRoute.GET, { path: `/v1/files?tags=${marker}&content_type=text/markdown` });
    expect(md.body.items.map((f: { id: string }) => f.id)).toEqual([c.body.id]);

    const byName = await app.call(filesRoute.GET, { path: `/v1/files?tags=${marker}&sort_by=filename&order=asc` });
    expect(byName.body.items.map((f: { filename: string }) => f.filename)).toEqual(['a-large.txt', 'b-small.txt', 'c-mid.md']);

    const bySize = await app.call(filesRoute.GET, { path: `/v1/files?tags=${marker}&sort_by=size&order=desc&limit=2&offset=1` });
    expect(bySize.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(bySize.body.items.map((f: { size: number }) => f.size)).toEqual([5, 1]);
  });

  it('rejects bad pagination and sort parameters with 400', async () => {
    for (const q of ['limit=101', 'limit=0', 'limit=abc', 'offset=-1', 'sort_by=sha256', 'order=up']) {
      const res = await app.call(filesRoute.GET, { path: `/v1/files?${q}` });
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details.field).toBeTruthy();
    }
    expect((await app.call(filesRoute.GET, { path: '/v1/files?limit=100' })).status).toBe(200);
  });
});

describe('file detail, download, delete and types', () => {
  it('returns detail with updated_at and downloads the exact bytes', async () => {
    const bytes = fixture('docx/word_sample.docx');
    const created = await upload('word_sample.docx', bytes, { metadata: '{"k":"v"}' });
    const id = created.body.id;
    const detail = await app.call(fileRoute.GET, { path: `/v1/files/${id}`, params: { file_id: id } });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id, metadata: { k: 'v' }, size: bytes.length });
    expect(detail.body.updated_at).toBeTruthy();

    const dl = await app.call(downloadRoute.GET, { path: `/v1/files/${id}/download`, params: { file_id: id } });
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-type')).toBe(created.body.content_type);
    expect(parseDisposition(dl.headers.get('content-disposition')!)).toEqual({
      type: 'attachment',
      parameters: { filename: 'word_sample.docx' },
    });
    expect(Buffer.from(dl.text, 'latin1').length).toBeGreaterThan(0);
  });

  it('downloads binary content unchanged', async () => {
    const bytes = fixture('ocr/manga_09.jpg');
    const created = await upload('manga.jpg', bytes);
    const request = new Request(`http://localhost/v1/files/${created.body.id}/download`, {
      headers: { authorization: `Bearer ${app.adminKey}` },
    });
    const res = await downloadRoute.GET(request, { params: Promise.resolve({ file_id: created.body.id }) });
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(bytes.length);
    expect(body.equals(bytes)).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toBe(`"${crypto.createHash('sha256').update(bytes).digest('hex')}"`);
  });

  it('answers Range requests with 206 and the part, and 416 past the end', async () => {
    const bytes = fixture('ocr/manga_09.jpg');
    const { body: file } = await upload('ranged.jpg', bytes);
    const get = (headers: Record<string, string>) =>
      app.call(downloadRoute.GET, { path: `/v1/files/${file.id}/download`, params: { file_id: file.id }, headers });
    const size = bytes.length;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-', 1000, size - 1],
      ['bytes=-10', size - 10, size - 1],
      [`bytes=${size - 5}-${size + 500}`, size - 5, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get({ range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get('content-length'), range).toBe(String(end - start + 1));
      const request = new Request(`http://localhost/v1/files/${file.id}/download`, { headers: { authorization: `Bearer ${app.adminKey}`, range } });
      const raw = Buffer.from(await (await downloadRoute.GET(request, { params: Promise.resolve({ file_id: file.id }) })).arrayBuffer());
      expect(raw.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
    const beyond = await get({ range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.body.error.code).toBe('RANGE_NOT_SATISFIABLE');
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
    // Several ranges, another unit, or an If-Range naming another version: the whole file.
    const etag = (await get({})).headers.get('etag')!;
    const wholeFile: Record<string, string>[] = [{ range: 'bytes=0-1,5-9' }, { range: 'items=0-1' }, { range: 'bytes=0-9', 'if-range': '"other"' }];
    for (const headers of wholeFile) {
      const res = await get(headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(size));
    }
    expect((await get({ range: 'bytes=0-9', 'if-range': etag })).status).toBe(206);
  });

  it('deletes a file with its bytes and extractions (204), then 404s', async () => {
    const created = await upload('gone.txt', Buffer.from('bye'));
    const id = created.body.id;
    expect(await app.storage.list('objects')).toContain(id);
    const del = await app.call(fileRoute.DELETE, { method: 'DELETE', path: `/v1/files/${id}`, params: { file_id: id } });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    for (const handler of [fileRoute.GET, downloadRoute.GET, fileExtractionsRoute.GET]) {
      const res = await app.call(handler, { path: `/v1/files/${id}`, params: { file_id: id } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('FILE_NOT_FOUND');
    }
    const again = await app.call(fileRoute.DELETE, { method: 'DELETE', path: `/v1/files/${id}`, params: { file_id: id } });
    expect(again.status).toBe(404);
    expect(await app.storage.list('objects')).not.toContain(id);
  });

  it('records file.uploaded and file.deleted events', async () => {
    const created = await upload('evented.txt', Buffer.from('e'));
    await app.call(fileRoute.DELETE, { method: 'DELETE', path: '/v1/files/x', params: { file_id: created.body.id } });
    const uploaded = await app.call(eventsRoute.GET, { path: '/v1/events?type=file.uploaded&limit=100' });
    const deleted = await app.call(eventsRoute.GET, { path: '/v1/events?type=file.deleted' });
    expect(uploaded.body.items.some((e: { data: { file_id: string } }) => e.data.file_id === created.body.id)).toBe(true);
    const evt = deleted.body.items.find((e: { data: { file_id: string } }) => e.data.file_id === created.body.id);
    expect(evt).toMatchObject({ type: 'file.deleted', data: { file_id: created.body.id, filename: 'evented.txt' } });
    expect(evt.id).toMatch(/^evt_/);
  });

  it('lists an empty extraction history for a new file', async () => {
    const created = await upload('fresh.txt', Buffer.from('f'));
    const res = await app.call(fileExtractionsRoute.GET, { path: '/v1/files/x/extractions', params: { file_id: created.body.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ items: [], total: 0, limit: 50, offset: 0 });
  });

  it('lists supported types with their limits', async () => {
    const res = await app.call(typesRoute.GET, { path: '/v1/files/types' });
    expect(res.status).toBe(200);
    const byExt = Object.fromEntries(res.body.types.map((t: { extension: string }) => [t.extension, t]));
    expect(byExt['.pdf']).toMatchObject({ mime_type: 'application/pdf', max_size_mb: 100 });
    expect(byExt['.docx'].max_size_mb).toBe(100);
    expect(byExt['.png']).toMatchObject({ mime_type: 'image/png', max_size_mb: 20 });
    expect(byExt['.heic']).toMatchObject({ mime_type: 'image/heic', max_size_mb: 20 });
    expect(byExt['.eml']).toMatchObject({ mime_type: 'message/rfc822', max_size_mb: 50 });
    expect(byExt['.odt'].max_size_mb).toBe(100);
    expect(Object.keys(res.body.types[0]).sort()).toEqual(['description', 'extension', 'max_size_mb', 'mime_type']);
    const newer = ['.odt', '.ods', '.odp', '.epub', '.rtf', '.eml', '.msg', '.doc', '.xls', '.ppt', '.heic', '.heif', '.gif', '.rst', '.org', '.xml', '.json', '.tsv'];
    for (const ext of ['.jpg', '.jpeg', '.tiff', '.webp', '.bmp', '.txt', '.md', '.html', '.csv', '.xlsx', '.pptx', ...newer]) {
      expect(byExt[ext], ext).toBeDefined();
      expect(typeof byExt[ext].description).toBe('string');
    }
  });
});
