import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as filesRoute from '@/app/v1/files/route';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as extractionsRoute from '@/app/v1/extractions/route';
import * as extractionRoute from '@/app/v1/extractions/[extraction_id]/route';
import { makeScratchDir, sweepScratchDirs } from '@/lib/extraction/scratch';
import { runExtractionTask, startExtraction } from '@/lib/extraction/task';
import { useTestApp } from '@/test/support/app';
import { fixture, formWith } from '@/test/support/fixtures';
import { startS3Server, type S3TestServer } from '@/test/support/s3-server';

/**
 * Extraction and deletion with the files in a bucket: the worker reads a scratch copy, and no
 * scratch copy outlives its task, whether it succeeds, fails, or its process is killed.
 */
let s3: S3TestServer;
const env: Record<string, string> = {};
let scratchRoot: string;
const savedTmp = process.env.TMPDIR;

beforeAll(async () => {
  s3 = await startS3Server();
  Object.assign(env, s3.env('extraction'));
  scratchRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-scratch-root-'));
  process.env.TMPDIR = scratchRoot;
});

const app = useTestApp(env);

afterAll(async () => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  fs.rmSync(scratchRoot, { recursive: true, force: true });
  await s3?.stop();
});

const scratchDirs = () => fs.readdirSync(scratchRoot).filter((name) => name.startsWith('quarry-extract-'));

async function uploadAndExtract(name: string, bytes: Buffer) {
  const up = await app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', body: formWith(name, bytes) });
  expect(up.status).toBe(201);
  const created = await app.call(extractionsRoute.POST, { method: 'POST', path: '/v1/extractions', body: { file_id: up.body.id } });
  expect(created.status).toBe(201);
  const ctx = { db: app.db, storage: app.storage, requestId: null, principal: null };
  expect(await startExtraction(ctx, created.body.id)).toBeTruthy();
  const outcome = await runExtractionTask(ctx, created.body.id);
  const task = await app.call(extractionRoute.GET, { path: `/v1/extractions/${created.body.id}`, params: { extraction_id: created.body.id } });
  return { fileId: up.body.id as string, outcome, task: task.body };
}

describe('extraction on a bucket', () => {
  it('extracts from a scratch copy of the object and removes the copy', async () => {
    expect(app.storage.kind).toBe('s3');
    const { fileId, outcome, task } = await uploadAndExtract('paper.pdf', fixture('pdf/code_and_formula.pdf'));
    expect(outcome.status, JSON.stringify(task.error)).toBe('completed');
    expect(task.status, JSON.stringify(task).slice(0, 500)).toBe('completed');
    expect(task.markdown.length).toBeGreaterThan(100);
    expect(scratchDirs()).toEqual([]);
    // The bytes live in the bucket, under the configured prefix, until the file is deleted.
    expect(await app.storage.list('objects')).toContain(fileId);
    const del = await app.call(fileRoute.DELETE, { method: 'DELETE', path: `/v1/files/${fileId}`, params: { file_id: fileId } });
    expect(del.status).toBe(204);
    expect(await app.storage.list('objects')).not.toContain(fileId);
  });

  it('removes the scratch copy when the document cannot be extracted', async () => {
    const { outcome, task } = await uploadAndExtract('broken.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x41)]));
    expect(outcome.status).toBe('failed');
    expect(task.status).toBe('failed');
    expect(scratchDirs()).toEqual([]);
  });
});

describe('scratch directories left by a killed process', () => {
  it('are removed at the next sweep when their process is gone or they outlived any task', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-sweep-'));
    try {
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
      const orphan = path.join(root, `quarry-extract-${dead}-abc123`);
      fs.mkdirSync(orphan);
      fs.writeFileSync(path.join(orphan, 'source.pdf'), 'left behind');
      const mine = await makeScratchDir(root);
      const stale = await makeScratchDir(root);
      const old = new Date(Date.now() - 3_600_000);
      fs.utimesSync(stale, old, old);
      fs.mkdirSync(path.join(root, 'unrelated-dir'));

      expect(await sweepScratchDirs(600_000, root)).toBe(2);
      expect(fs.readdirSync(root).sort()).toEqual([path.basename(mine), 'unrelated-dir'].sort());
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
