/**
 * Uploads of every supported format through POST /v1/files: typed by content while streaming,
 * zip and OLE containers decided by their entries even when those come last (the 872-page DOCX
 * keeps [Content_Types].xml at its end), TIFFs of either byte order whose directory lies past the
 * first 64 KB, and the legacy types LibreOffice reads refused at extraction with what to install.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as filesRoute from '@/app/v1/files/route';
import * as extractionsRoute from '@/app/v1/extractions/route';
import { FIXTURES_DIR, fixture, formWith } from '@/test/support/fixtures';
import { useTestApp } from '@/test/support/app';

const app = useTestApp();

async function upload(name: string, bytes: Buffer | Uint8Array) {
  return app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith(name, bytes) });
}

const OOXML = 'application/vnd.openxmlformats-officedocument';
const EXPECTED: Record<string, string> = {
  '.org': 'text/x-org',
  '.rst': 'text/x-rst',
  '.docx': `${OOXML}.wordprocessingml.document`,
  '.xlsx': `${OOXML}.spreadsheetml.sheet`,
  '.pptx': `${OOXML}.presentationml.presentation`,
  '.eml': 'message/rfc822',
  '.xml': 'application/xml',
  '.rtf': 'application/rtf',
  '.msg': 'application/vnd.ms-outlook',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.doc': 'application/msword',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.tsv': 'text/tab-separated-values',
  '.xls': 'application/vnd.ms-excel',
  '.epub': 'application/epub+zip',
  '.html': 'text/html',
  '.md': 'text/markdown',
};
// Named .doc / .ppt, but their content is OOXML (the fixtures' notes say so).
const BY_CONTENT: Record<string, string> = { 'eng_spa_mult.doc': '.docx', 'eng_spa_mult.ppt': '.pptx' };

function filesIn(dir: string): string[] {
  return fs.readdirSync(path.join(FIXTURES_DIR, dir)).filter((n) => fs.statSync(path.join(FIXTURES_DIR, dir, n)).isFile()).map((n) => `${dir}/${n}`);
}

describe('POST /v1/files for every format', () => {
  const files = [...filesIn('formats'), ...filesIn('formats/same-content'), 'large/handbook-872p.docx'];

  it.each(files)('accepts %s (201) as its content type', async (file) => {
    const name = path.basename(file);
    const res = await upload(name, fixture(file));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.content_type).toBe(EXPECTED[BY_CONTENT[name] ?? path.extname(name)]);
  });

  it('decides a DOCX whose [Content_Types].xml is its last entry, far past the first bytes', async () => {
    const bytes = fixture('large/handbook-872p.docx');
    expect(bytes.lastIndexOf('[Content_Types].xml')).toBeGreaterThan(64 * 1024);
    expect((await upload('handbook', bytes)).body.content_type).toBe(`${OOXML}.wordprocessingml.document`);
  });

  it('decides an OLE file by its directory even at the end (a .ppt) and breaks ties by name', async () => {
    const ppt = fixture('formats/fake-power-point.ppt');
    expect((await upload('slides.bin', ppt)).body.content_type).toBe('application/vnd.ms-powerpoint');
    expect((await upload('letter.xls', fixture('formats/fake.doc'))).body.content_type).toBe('application/msword');
  });

  it('refuses a .eml that is not a message, and accepts one saved as UTF-16', async () => {
    expect((await upload('mail.eml', Buffer.from('\u0000\u0001binary'))).status).toBe(415);
    expect((await upload('mail.eml', fixture('formats/fake-email-utf-16-le.eml'))).status).toBe(201);
  });

  it('accepts a big-endian CCITT G4 TIFF whose directory lies past the first 64 KB', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-g4-'));
    try {
      // Noise compresses badly, so the G4 data is long and tiffcp writes the directory after it.
      const width = 1600;
      const height = 1200;
      let seed = 7;
      const pixels = Buffer.alloc((width / 8) * height, 0).map(() => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
      fs.writeFileSync(path.join(dir, 'noise.pbm'), Buffer.concat([Buffer.from(`P4\n${width} ${height}\n`), pixels]));
      for (const [cmd, args] of [
        ['ppm2tiff', ['noise.pbm', 'noise.tif']],
        ['tiffcp', ['-c', 'g4', '-B', 'noise.tif', 'g4be.tif']],
      ] as const) {
        const run = spawnSync(cmd, [...args], { cwd: dir });
        expect(run.status, `${cmd} (libtiff-tools): ${run.stderr}`).toBe(0);
      }
      const tiff = fs.readFileSync(path.join(dir, 'g4be.tif'));
      expect(tiff.subarray(0, 4)).toEqual(Buffer.from([0x4d, 0x4d, 0, 42]));
      expect(tiff.readUInt32BE(4)).toBeGreaterThan(64 * 1024);
      const res = await upload('scan.tif', tiff);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ content_type: 'image/tiff', size: tiff.length });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('accepts HEIC photos', async () => {
    const res = await upload('photo.heic', fixture('ocr-more/DA-1p.heic'));
    expect(res.status).toBe(201);
    expect(res.body.content_type).toBe('image/heic');
  });

  it('refuses to extract an .xls without LibreOffice with 415 naming what to install', async () => {
    const file = await upload('tests.xls', fixture('formats/tests-example.xls'));
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const res = await app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body: { file_id: file.body.id } });
      expect(res.status).toBe(415);
      expect(res.body.error.code).toBe('UNSUPPORTED_FORMAT');
      expect(res.body.error.message).toContain('apt-get install --no-install-recommends libreoffice-core libreoffice-calc');
    } finally {
      process.env.PATH = saved;
    }
  });
});
