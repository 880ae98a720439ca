import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuarryClient } from '@/clients/typescript/src/index';
import { freePort } from '@/scripts/lib/run-server.mjs';
import { startTestServer } from '@/test/support/test-server';
import { FIXTURES_DIR } from '@/test/support/fixtures';

/**
 * The `quarry` command (clients/typescript/bin/quarry.mjs, the root package's bin) run as a child
 * process against the production server: what it prints and the exit code of each outcome.
 */
const ADMIN = 'sk_test_quarrycliadministratorkey0000001';
const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'clients', 'typescript', 'bin', 'quarry.mjs');
const PDF = path.join(FIXTURES_DIR, 'pdf', 'code_and_formula.pdf');

let server: Awaited<ReturnType<typeof startTestServer>>;
let quarry: QuarryClient;
let scratch: string;

beforeAll(async () => {
  server = await startTestServer('client-cli', ADMIN);
  quarry = new QuarryClient({ baseUrl: server.baseUrl, apiKey: ADMIN });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-cli-'));
}, 600_000);

afterAll(async () => {
  await server?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: ROOT, env: { ...process.env, QUARRY_URL: server.baseUrl, QUARRY_API_KEY: ADMIN, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const quarryCli = (args: string[], env?: Record<string, string | undefined>) => run(process.execPath, [BIN, ...args], env);
const jsonLines = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line));

describe('quarry CLI', () => {
  it('runs as `npx quarry` from the repository and explains its usage', async () => {
    const version = await run('npx', ['--no-install', 'quarry', '--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe('0.1.0');
    const help = await quarryCli(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('quarry upload <files…>');
    expect((await quarryCli([])).code).toBe(2);
    const noKey = await quarryCli(['kb', 'ls'], { QUARRY_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('set QUARRY_API_KEY');
    const badOption = await quarryCli(['search', 'kb_x', 'q', '--top-k', 'many']);
    expect(badOption).toMatchObject({ code: 2, stderr: expect.stringContaining('--top-k must be an integer') });
    expect((await quarryCli(['frobnicate'])).code).toBe(2);
  });

  it('uploads files with --extract, then extract --wait writes the Markdown', async () => {
    const notes = path.join(scratch, 'notes.md');
    fs.writeFileSync(notes, '# CLI notes\n\nUploaded by the quarry command.\n');
    const up = await quarryCli(['upload', PDF, notes, '--extract', 'simple', '--tags', 'cli,test', '--json']);
    expect(up.code, up.stderr).toBe(0);
    const [pdf, md] = jsonLines(up.stdout);
    expect(pdf).toMatchObject({ filename: 'code_and_formula.pdf', tags: ['cli', 'test'], extraction: { mode: 'simple' } });
    expect(md).toMatchObject({ filename: 'notes.md', extraction: { mode: 'simple' } });

    const output = path.join(scratch, 'notes-out.md');
    const extract = await quarryCli(['extract', md.id, '--wait', '--output', output]);
    expect(extract.code, extract.stderr).toBe(0);
    expect(extract.stdout).toMatch(/^ext_\w+ {2}completed {2}\d+ pages {2}written to /);
    expect(extract.stderr).toContain('completed');
    expect(fs.readFileSync(output, 'utf8')).toContain('Uploaded by the quarry command.');

    const again = await quarryCli(['extract', pdf.id, '--mode', 'normal', '--wait', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(jsonLines(again.stdout)[0]).toMatchObject({ file_id: pdf.id, status: 'completed', mode: 'normal' });
  }, 120_000);

  it('uploads into a knowledge base and waits, searches it, and lists knowledge bases', async () => {
    const kb = await quarry.unwrap(quarry.api.POST('/v1/knowledge-bases', { body: { name: 'CLI knowledge' } }));
    const up = await quarryCli(['upload', PDF, '--kb', kb.id, '--extract', '--wait']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toMatch(/document doc_\w+ in kb_/);
    expect(up.stdout).toMatch(/^doc_\w+ {2}code_and_formula\.pdf {2}indexed, \d+ chunks$/m);

    const search = await quarryCli(['search', kb.id, 'JavaScript code example', '--top-k', '2']);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toMatch(/^1\. \d\.\d{3} {2}code_and_formula\.pdf · p\. \d/m);
    const hybrid = await quarryCli(['search', kb.id, 'formula', '--hybrid', '-k', '1', '--json']);
    expect(hybrid.code, hybrid.stderr).toBe(0);
    const result = jsonLines(hybrid.stdout)[0];
    expect(result.chunks).toHaveLength(1);
    expect(result.chunks[0]).toHaveProperty('keyword_score');

    const ls = await quarryCli(['kb', 'ls']);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout.split('\n')[0]).toMatch(/^ID +NAME +DOCUMENTS +CHUNKS$/);
    expect(ls.stdout).toMatch(new RegExp(`^${kb.id} +CLI knowledge +1 +[1-9]\\d*$`, 'm'));
    const lsJson = await quarryCli(['kb', 'ls', '--json']);
    expect(jsonLines(lsJson.stdout).map((k) => k.id)).toContain(kb.id);
  }, 120_000);

  it('creates, lists, reads and syncs sources, and verifies citations', async () => {
    const kb = await quarry.unwrap(quarry.api.POST('/v1/knowledge-bases', { body: { name: 'CLI sources' } }));
    // A literal public address is accepted without DNS; --no-sync means it is never fetched.
    const url = 'https://93.184.216.34/cli.pdf';
    const created = await quarryCli(['sources', 'create', 'url', '--kb', kb.id, '--url', url, '--schedule', '6h', '--name', 'CLI handbook', '--no-sync', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const source = jsonLines(created.stdout)[0];
    expect(source).toMatchObject({ type: 'url', knowledge_base_id: kb.id, name: 'CLI handbook', config: { url }, schedule_description: 'Every 6 hours', last_run: null });

    const body = path.join(scratch, 'source.json');
    fs.writeFileSync(body, JSON.stringify({ type: 'url', knowledge_base_id: kb.id, config: { url: 'https://93.184.216.34/other.pdf' }, sync: false }));
    const fromFile = await quarryCli(['sources', 'create', '--from', body, '--mode', 'simple']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toMatch(/^src_\w+ {2}url {2}93\.184\.216\.34\/other\.pdf {2}in kb_\w+\n {2}schedule: only when asked/);

    const ls = await quarryCli(['sources', 'ls', '--kb', kb.id]);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout.split('\n')[0]).toMatch(/^ID +TYPE +KNOWLEDGE BASE +ITEMS +LAST RUN +NAME$/);
    expect(ls.stdout).toMatch(new RegExp(`^${source.id} +url +${kb.id} +0 +- +CLI handbook$`, 'm'));
    const get = await quarryCli(['sources', 'get', source.id]);
    expect(get.stdout).toContain('schedule: Every 6 hours');
    const runs = await quarryCli(['sources', 'runs', source.id]);
    expect(runs).toMatchObject({ code: 0, stderr: expect.stringContaining('no syncs yet') });

    expect(await quarryCli(['sources', 'create', 'url', '--url', url])).toMatchObject({ code: 2, stderr: expect.stringContaining('--kb') });
    expect(await quarryCli(['sources', 'create', 'ftp', '--kb', kb.id])).toMatchObject({ code: 2 });
    expect(await quarryCli(['sources', 'create', 'url', '--kb', kb.id, '--url', url, '--no-sync', '--wait'])).toMatchObject({ code: 2 });
    const missing = await quarryCli(['sources', 'sync', 'src_01jd0000000000000000000000', '--wait']);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/SOURCE_NOT_FOUND \(HTTP 404\)/) });

    const up = await quarryCli(['upload', PDF, '--kb', kb.id, '--extract', 'simple', '--wait', '--json']);
    expect(up.code, up.stderr).toBe(0);
    const search = await quarryCli(['search', kb.id, 'JavaScript code example', '--top-k', '1']);
    const [, documentId, version, chunkId] = /\((doc_\w+) v(\d+), (chunk_\w+)\)/.exec(search.stdout) ?? [];
    expect(chunkId, search.stdout).toBeDefined();
    const verified = await quarryCli(['citations', 'verify', `${chunkId}:${documentId}@${version}`, 'chunk_01jd0000000000000000000000']);
    expect(verified.code, verified.stderr).toBe(0);
    const [current, gone] = verified.stdout.trim().split('\n');
    expect(current).toMatch(new RegExp(`^current +${chunkId} +${documentId} +v1 → v1 +`));
    expect(gone).toMatch(/^gone +chunk_01jd0000000000000000000000 +- +No such passage/);
    const searchJson = path.join(scratch, 'search.json');
    fs.writeFileSync(searchJson, (await quarryCli(['search', kb.id, 'formula', '--top-k', '2', '--json'])).stdout);
    const fromSearch = await quarryCli(['citations', 'verify', '--file', searchJson, '--no-source-check', '--json']);
    expect(fromSearch.code, fromSearch.stderr).toBe(0);
    const statuses = jsonLines(fromSearch.stdout).map((r) => r.status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 'current')).toBe(true);
    expect(await quarryCli(['citations', 'verify'])).toMatchObject({ code: 2 });
  }, 120_000);

  it('exits 1 for an API error, 3 for a failed extraction, 4 for an unreachable server and 5 for a wait timeout', async () => {
    const missing = await quarryCli(['extract', 'file_01jd0000000000000000000000', '--wait']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/FILE_NOT_FOUND \(HTTP 404\): .+ \[req_\w+\]/);

    const junk = path.join(scratch, 'junk.bin');
    fs.writeFileSync(junk, Buffer.alloc(64, 7));
    const mixed = await quarryCli(['upload', PDF, junk]);
    expect(mixed.code).toBe(1);
    expect(mixed.stdout.trim().split('\n')).toHaveLength(1);
    expect(mixed.stderr).toMatch(/junk\.bin: upload failed\n.*UNSUPPORTED_FORMAT \(HTTP 415\)/);

    const encrypted = await quarryCli(['upload', path.join(FIXTURES_DIR, 'bad', 'aes-256-r6.pdf'), '--extract', '--wait']);
    expect(encrypted.code).toBe(3);
    expect(encrypted.stderr).toMatch(/extraction ext_\w+ failed: ENCRYPTED_DOCUMENT/);

    const unreachable = await quarryCli(['kb', 'ls'], { QUARRY_URL: `http://127.0.0.1:${await freePort()}` });
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);

    const large = await quarry.uploadFile(path.join(FIXTURES_DIR, 'large', 'pdf2image-memory-error-test-400p.pdf'));
    const slow = await quarryCli(['extract', large.id, '--mode', 'advanced', '--wait', '--timeout', '0']);
    const extractionId = /^(ext_\w+):/m.exec(slow.stderr)?.[1];
    if (extractionId) await quarry.unwrap(quarry.api.POST('/v1/extractions/{extraction_id}/cancel', { params: { path: { extraction_id: extractionId } } }));
    expect(slow.code, slow.stderr).toBe(5);
    expect(slow.stderr).toMatch(/did not finish within 0 s/);
  }, 120_000);
});
