'use client';

import { useCallback, useId, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { toast } from 'sonner';
import type { FileType } from './api-types';
import { checkBeforeUpload, distinctTypes, uploadErrorMessage, uploadFile, useFileTypes } from './files-common';
import { Button, Card, Field, Input, cx } from './ui';
import { IngestOptionsPanel, useIngestOptions, type IngestOptions } from './uploads/ingest-options';
import { UploadRow, type UploadItem } from './uploads/upload-row';

/*
 * Drag-and-drop upload of many files at once. Each file gets its own row with a progress bar;
 * files the server would refuse (unknown kind, over the size limit) are stopped before sending,
 * with the reason in plain words. Files can be turned into text and added to a knowledge base as
 * they arrive; each row then follows those steps too.
 */

/** How many files are sent at the same time. */
const PARALLEL_UPLOADS = 3;

let nextKey = 0;

/** The accepted kinds of file and their limits, grouped by limit: "PDF, Word …: up to 100 MB". */
function AcceptedTypes({ types }: { types: FileType[] }) {
  const byLimit = new Map<number, string[]>();
  for (const t of distinctTypes(types)) byLimit.set(t.max_size_mb, [...(byLimit.get(t.max_size_mb) ?? []), t.description]);
  return (
    <ul className="mt-1 space-y-0.5">
      {[...byLimit.entries()]
        .sort((a, b) => b[0] - a[0])
        .map(([limit, names]) => (
          <li key={limit}>
            <span className="font-medium text-slate-700">Up to {limit} MB:</span> {names.join(', ')}
          </li>
        ))}
    </ul>
  );
}

/** The upload card of the Files page. Calls onUploaded after each stored file. */
export function FileUploader({ onUploaded }: { onUploaded: () => void }) {
  const types = useFileTypes();
  const [tags, setTags] = useState('');
  const [items, setItems] = useState<UploadItem[]>([]);
  const [options, setOptions, knowledgeBases] = useIngestOptions();
  const hintId = useId();

  const update = useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems((all) => all.map((it) => (it.key === key ? { ...it, ...patch } : it)));
  }, []);

  const send = useCallback(
    async (item: UploadItem, batchTags: string, choice: IngestOptions): Promise<boolean> => {
      if (item.controller?.signal.aborted) return false;
      update(item.key, { state: 'uploading', sent: true, message: undefined });
      const extract = choice.extract || choice.kbId ? choice.mode : undefined;
      try {
        const stored = await uploadFile(item.file, {
          tags: batchTags,
          extract,
          knowledgeBaseId: choice.kbId || undefined,
          signal: item.controller?.signal,
          onProgress: (progress) => update(item.key, { progress }),
        });
        const followed =
          stored.extraction || stored.document
            ? {
                fileId: stored.id,
                mode: stored.extraction?.mode ?? extract ?? 'normal',
                extractionId: stored.extraction?.id,
                document: stored.document ? { id: stored.document.id, kbId: stored.document.kb_id } : undefined,
              }
            : undefined;
        update(item.key, { state: 'done', progress: 100, stored, followed });
        onUploaded();
        return true;
      } catch (err) {
        if (item.controller?.signal.aborted) {
          update(item.key, { state: 'stopped' });
        } else {
          update(item.key, { state: 'failed', message: uploadErrorMessage(err) });
        }
        return false;
      }
    },
    [onUploaded, update],
  );

  const onDrop = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      const known = types.data ?? [];
      const choice = options;
      const kbName = knowledgeBases?.find((kb) => kb.id === choice.kbId)?.name;
      const batch: UploadItem[] = files.map((file) => {
        const problem = known.length > 0 ? checkBeforeUpload(file, known) : null;
        return problem
          ? { key: `u${nextKey++}`, file, state: 'failed', progress: 0, message: problem }
          : { key: `u${nextKey++}`, file, state: 'waiting', progress: 0, controller: new AbortController(), kbName, choice };
      });
      setItems((all) => [...batch, ...all]);

      const refused = batch.filter((it) => it.state === 'failed');
      for (const it of refused) toast.error(`${it.file.name} was not uploaded`, { description: it.message });

      const queue = batch.filter((it) => it.state === 'waiting');
      let uploaded = 0;
      let failed = 0;
      const worker = async () => {
        for (let it = queue.shift(); it; it = queue.shift()) {
          if (await send(it, tags, choice)) uploaded++;
          else if (!it.controller?.signal.aborted) failed++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, queue.length) }, worker));
      if (uploaded > 0) toast.success(uploaded === 1 ? '1 file uploaded' : `${uploaded} files uploaded`);
      if (failed > 0) toast.error(failed === 1 ? '1 file could not be uploaded' : `${failed} files could not be uploaded`, { description: 'The reasons are shown beside each file.' });
    },
    [send, tags, types.data, options, knowledgeBases],
  );

  /** Sends a file the server refused or could not receive again, with the choices made for it then. */
  const retryUpload = (item: UploadItem) => {
    const again = { ...item, controller: new AbortController(), progress: 0 };
    update(item.key, { state: 'waiting', progress: 0, message: undefined, controller: again.controller });
    void send(again, tags, item.choice ?? options).then((ok) => {
      if (ok) toast.success(`${item.file.name} was uploaded`);
    });
  };

  /* A click on the button inside reaches the area's own click handler, which opens the file picker. */
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ onDrop, multiple: true, noKeyboard: true });
  const accept = types.data?.map((t) => t.extension).join(',');
  const active = items.filter((it) => it.state === 'waiting' || it.state === 'uploading').length;
  const summary = [
    active > 0 && `${active} uploading`,
    `${items.filter((it) => it.state === 'done').length} uploaded`,
    `${items.filter((it) => it.state === 'failed').length} not uploaded`,
  ]
    .filter(Boolean)
    .join(', ');
  const finished = items.filter((it) => it.state === 'done' || it.state === 'failed' || it.state === 'stopped');

  return (
    <Card title="Upload files">
      <div className="space-y-4">
        <Field label="Tags for these files (optional)" hint="Separate tags with commas, for example: finance, 2024. They help you find files later.">
          {({ id, describedBy }) => <Input id={id} aria-describedby={describedBy} value={tags} onChange={(e) => setTags(e.target.value)} placeholder="finance, 2024" />}
        </Field>
        <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_18rem]">
          {/*
            The area only takes dropped files and clicks; the keyboard and screen readers use the
            real button inside it, named by its visible words. The hidden file input then sits
            beside that button instead of inside a control.
          */}
          <div
            {...getRootProps()}
            data-testid="dropzone"
            className={cx(
              'flex cursor-pointer flex-col rounded-lg border-2 border-dashed transition-colors',
              isDragActive ? 'border-indigo-500 bg-indigo-50' : 'border-slate-300 bg-slate-50 hover:border-indigo-400',
            )}
          >
            <input {...getInputProps({ accept })} aria-label="Choose files to upload" />
            <button type="button" aria-describedby={hintId} className="flex flex-1 flex-col justify-center rounded-md px-4 py-8 text-center">
              <span className="block font-medium text-slate-800">{isDragActive ? 'Drop the files to upload them' : 'Drag files here, or click to choose'}</span>
              <span className="mt-1 block text-sm text-slate-600">You can add many files at once.</span>
            </button>
          </div>
          <IngestOptionsPanel options={options} onChange={setOptions} knowledgeBases={knowledgeBases} />
        </div>
        <div id={hintId} className="text-xs text-slate-600">
          {types.data ? (
            <>
              <p>Quarry can read these kinds of file:</p>
              <AcceptedTypes types={types.data} />
            </>
          ) : types.isError ? (
            <p>The list of accepted file types could not be loaded; the server will check each file.</p>
          ) : (
            <p>Loading the accepted file types…</p>
          )}
        </div>
        {items.length > 0 && (
          <div>
            <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-3">
              <h3 className="text-sm font-semibold">Uploads</h3>
              {finished.length > 0 && (
                <Button variant="ghost" className="py-1.5" onClick={() => setItems((all) => all.filter((it) => !finished.includes(it)))}>
                  Clear finished
                </Button>
              )}
            </div>
            <p className="sr-only" role="status">
              {summary}
            </p>
            <ul aria-label="Uploads" className="divide-y divide-slate-100">
              {items.map((item) => (
                <UploadRow
                  key={item.key}
                  item={item}
                  onStop={() => {
                    item.controller?.abort();
                    update(item.key, { state: 'stopped' });
                  }}
                  onDismiss={() => setItems((all) => all.filter((it) => it.key !== item.key))}
                  onRetryUpload={() => retryUpload(item)}
                  onNewExtraction={(id) => item.followed && update(item.key, { followed: { ...item.followed, extractionId: id } })}
                />
              ))}
            </ul>
          </div>
        )}
      </div>
    </Card>
  );
}
