'use client';

import { useQuery } from '@tanstack/react-query';
import { api, ApiClientError } from './api';
import type { ExtractionMode, FileType, FileTypes, UploadedFile } from './api-types';

/* Helpers shared by the file and extraction pages (the response types are in api-types). */

/** What each extraction mode is called in the console. */
export const MODE_NAMES: Record<ExtractionMode, string> = { simple: 'Quick', normal: 'Standard', advanced: 'Thorough' };

const MB = 1024 * 1024;

/** The kinds of file the server accepts, with their size limits. They rarely change. */
export function useFileTypes() {
  return useQuery({
    queryKey: ['file-types'],
    queryFn: () => api<FileTypes>('/v1/files/types').then((r) => r.types),
    staleTime: 10 * 60_000,
  });
}

/** The lower-case extension of a file name, with its dot ("report.PDF" → ".pdf"), or "". */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** A short name for a MIME type, from the server's list ("application/pdf" → "PDF document"). */
export function typeLabel(mime: string, types: FileType[] | undefined): string {
  return types?.find((t) => t.mime_type === mime)?.description ?? mime;
}

/** The distinct kinds of document, for a filter: one entry per MIME type. */
export function distinctTypes(types: FileType[]): FileType[] {
  const seen = new Map<string, FileType>();
  for (const t of types) if (!seen.has(t.mime_type)) seen.set(t.mime_type, t);
  return [...seen.values()].sort((a, b) => a.description.localeCompare(b.description));
}

/** The accepted extensions as a sentence: ".pdf, .docx, … or .csv". */
export function extensionList(types: FileType[]): string {
  const exts = types.map((t) => t.extension);
  return exts.length > 1 ? `${exts.slice(0, -1).join(', ')} or ${exts[exts.length - 1]}` : (exts[0] ?? '');
}

/**
 * Checks a file before sending it: a problem in plain words, or null when it may be uploaded.
 * The server still decides by the content; this only catches what the name and size already show.
 */
export function checkBeforeUpload(file: File, types: FileType[]): string | null {
  if (file.size === 0) return 'This file is empty.';
  const ext = extensionOf(file.name);
  const type = types.find((t) => t.extension === ext);
  if (!type) {
    return `Quarry cannot read ${ext ? `${ext} files` : 'files without an extension'}. Accepted: ${extensionList(types)}.`;
  }
  if (file.size > type.max_size_mb * MB) {
    return `This file is ${(file.size / MB).toFixed(1)} MB; ${type.description} files can be at most ${type.max_size_mb} MB.`;
  }
  return null;
}

/** A server message as a sentence: a capital first letter and a final full stop. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** A server message without the internal codes it quotes: "… into text (CORRUPT_DOCUMENT): The file…" → "… into text: The file…". */
export function withoutCodes(message: string): string {
  return message.replace(/\s*\([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\)/g, '').trim();
}

/** A plain sentence for an upload the server refused. */
export function uploadErrorMessage(err: unknown): string {
  if (err instanceof ApiClientError) {
    if (err.code === 'FILE_TOO_LARGE') {
      const max = err.details?.max_size_mb;
      return typeof max === 'number' ? `This file is too large: the limit for this kind of file is ${max} MB.` : 'This file is too large.';
    }
    if (err.code === 'UNSUPPORTED_FORMAT') return `Quarry cannot read this file. ${sentence(err.message)}`;
    if (err.code === 'INVALID_FILE') return `The file could not be sent. ${sentence(err.message)}`;
    return err.message;
  }
  return err instanceof Error ? err.message : 'The upload failed.';
}

/**
 * Uploads one file with XMLHttpRequest (fetch reports no upload progress), sending the session
 * cookie and the page's Origin like any same-origin request. Resolves with the stored file, and
 * the extraction (`extract`) and knowledge-base document (`knowledgeBaseId`) it started.
 */
export function uploadFile(
  file: File,
  options: { tags?: string; extract?: ExtractionMode; knowledgeBaseId?: string; onProgress: (percent: number) => void; signal?: AbortSignal },
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    if (options.tags?.trim()) form.append('tags', options.tags);
    if (options.extract) form.append('extract', options.extract);
    if (options.knowledgeBaseId) form.append('knowledge_base_id', options.knowledgeBaseId);
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/files');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress((event.loaded / event.total) * 100);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress(100);
        resolve(body as UploadedFile);
        return;
      }
      if (xhr.status === 401) window.location.assign('/sign-in');
      const error = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
      reject(new ApiClientError(xhr.status, error?.code ?? 'HTTP_ERROR', error?.message ?? `The server answered ${xhr.status}`, error?.details));
    };
    xhr.onerror = () => reject(new Error('The server could not be reached. Check your connection and try again.'));
    xhr.onabort = () => reject(new Error('The upload was stopped.'));
    options.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** A metadata key as words: "last_modified_by" → "Last modified by". */
export function humanizeKey(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A metadata value as text; ISO dates become local dates ("9 Oct 2024, 12:43"). */
export function metadataText(value: unknown): string {
  if (typeof value === 'string') {
    if (ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) {
      const date = new Date(value);
      return value.length <= 10 ? date.toLocaleDateString(undefined, { dateStyle: 'medium' }) : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    }
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
