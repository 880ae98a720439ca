'use client';

import type { ResponseOf } from '@/lib/api/endpoint';
import type { endpoints } from '@/lib/api/endpoints';
import { ApiClientError, api, errorMessage } from '../api';
import type { ExtractionMode } from '../api-types';
import { withoutCodes } from '../files-common';

/*
 * Actions on many files at once, and their outcome in plain words. The batch endpoints take at
 * most 100 files per call and answer each file's outcome on its own, so a bigger selection is
 * sent in groups and one file's problem never hides the others' success.
 */

/** The most files one batch call accepts. */
export const BATCH_LIMIT = 100;
/** Deletions sent at the same time (there is no batch delete). */
const PARALLEL_DELETES = 4;

type AddDocumentsResult = ResponseOf<(typeof endpoints)['addDocumentsBatch']>;
type ExtractionsResult = ResponseOf<(typeof endpoints)['createExtractionsBatch']>;
type ItemResults = AddDocumentsResult['results'] | ExtractionsResult['results'];

export interface ItemFailure {
  fileId: string;
  code: string;
  reason: string;
}

/** Which files the action succeeded for, and why it failed for the others. */
export interface BatchOutcome {
  done: string[];
  failures: ItemFailure[];
}

/** A reason a person can act on, for the codes a file commonly gets. */
function plainReason(code: string, message: string): string {
  if (code === 'FILE_NOT_FOUND') return 'It no longer exists.';
  if (code === 'UNSUPPORTED_FORMAT') return 'Quarry cannot turn this kind of file into text.';
  if (code === 'DOCUMENT_EXISTS') return 'It is already in this knowledge base.';
  return withoutCodes(message) || 'Something went wrong.';
}

function failureOf(fileId: string, err: unknown): ItemFailure {
  const code = err instanceof ApiClientError ? err.code : 'ERROR';
  return { fileId, code, reason: plainReason(code, errorMessage(err)) };
}

function groupsOf<T>(items: T[], size = BATCH_LIMIT): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
  return groups;
}

/** Sends the files group by group; a group the server refuses as a whole fails each of its files. */
async function inGroups(fileIds: string[], send: (group: string[]) => Promise<{ results: ItemResults }>): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { done: [], failures: [] };
  for (const group of groupsOf(fileIds)) {
    try {
      const { results } = await send(group);
      for (const r of results) {
        if (r.error) outcome.failures.push({ fileId: r.file_id, code: r.error.code, reason: plainReason(r.error.code, r.error.message) });
        else outcome.done.push(r.file_id);
      }
    } catch (err) {
      outcome.failures.push(...group.map((id) => failureOf(id, err)));
    }
  }
  return outcome;
}

/** Starts turning each file into text, in the reading mode chosen. */
export function extractFiles(fileIds: string[], mode: ExtractionMode): Promise<BatchOutcome> {
  return inGroups(fileIds, (group) => api<ExtractionsResult>(`/v1/extractions/batch`, { method: 'POST', json: { file_ids: group, mode } }));
}

/** Adds the files to a knowledge base; files without text are turned into text first, in `mode`. */
export function addToKnowledgeBase(kbId: string, fileIds: string[], mode: ExtractionMode): Promise<BatchOutcome> {
  return inGroups(fileIds, (group) =>
    api<AddDocumentsResult>(`/v1/knowledge-bases/${encodeURIComponent(kbId)}/documents/batch`, {
      method: 'POST',
      json: { items: group.map((file_id) => ({ file_id })), extract: mode },
    }),
  );
}

/** Deletes each file; one that is already gone counts as deleted. */
export async function deleteFiles(fileIds: string[]): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { done: [], failures: [] };
  const queue = [...fileIds];
  const worker = async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        await api(`/v1/files/${encodeURIComponent(id)}`, { method: 'DELETE' });
        outcome.done.push(id);
      } catch (err) {
        if (err instanceof ApiClientError && err.code === 'FILE_NOT_FOUND') outcome.done.push(id);
        else outcome.failures.push(failureOf(id, err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_DELETES, queue.length) }, worker));
  return outcome;
}

/** "1 file", "5 files". */
export function fileCount(n: number): string {
  return n === 1 ? '1 file' : `${n} files`;
}

/** "1 was", "3 were": the rest of a sentence about a count already named. */
function was(n: number): string {
  return n === 1 ? '1 was' : `${n} were`;
}

/** The outcome of turning files into text, as one sentence. */
export function extractSummary({ done, failures }: BatchOutcome): string {
  const parts: string[] = [];
  if (done.length > 0) parts.push(`${fileCount(done.length)} ${done.length === 1 ? 'is' : 'are'} being turned into text`);
  if (failures.length > 0) parts.push(done.length > 0 ? `${failures.length} could not be started` : `${fileCount(failures.length)} could not be started`);
  return `${parts.join('; ')}.`;
}

/** The outcome of adding files to a knowledge base: "5 files added to “Notes”; 1 was already in it." */
export function addSummary({ done, failures }: BatchOutcome, kbName: string): string {
  const present = failures.filter((f) => f.code === 'DOCUMENT_EXISTS').length;
  const failed = failures.length - present;
  const parts: string[] = [];
  if (done.length > 0) parts.push(`${fileCount(done.length)} added to “${kbName}”`);
  else parts.push(`Nothing was added to “${kbName}”`);
  if (present > 0) parts.push(`${was(present)} already in it`);
  if (failed > 0) parts.push(`${failed} could not be added`);
  const next = done.length === 0 ? '' : done.length === 1 ? ' It becomes searchable once indexed.' : ' They become searchable once indexed.';
  return `${parts.join('; ')}.${next}`;
}

/** The outcome of deleting files. */
export function deleteSummary({ done, failures }: BatchOutcome): string {
  const parts: string[] = [];
  if (done.length > 0) parts.push(`${fileCount(done.length)} deleted`);
  if (failures.length > 0) parts.push(done.length > 0 ? `${failures.length} could not be deleted` : `${fileCount(failures.length)} could not be deleted`);
  return `${parts.join('; ')}.`;
}
