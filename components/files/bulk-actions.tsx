'use client';

import { useState, type ReactNode } from 'react';
import type { FileListItem } from '../api-types';
import { Button, Dialog } from '../ui';
import { fileCount } from './batch';
import { AddToKnowledgeBaseDialog, DeleteDialog, ExtractDialog, type BulkDialogProps } from './bulk-dialogs';
import type { ActionReport } from './report';

/*
 * The bar shown while files are selected: how many, and what can be done to all of them at once.
 * It stays at the top of the screen while the list scrolls.
 */

type Action = 'extract' | 'add' | 'delete';

const DIALOGS: Record<Action, { title: (count: number) => string; Body: (props: BulkDialogProps) => ReactNode }> = {
  extract: { title: (n) => `Turn ${fileCount(n)} into text`, Body: ExtractDialog },
  add: { title: (n) => `Add ${fileCount(n)} to a knowledge base`, Body: AddToKnowledgeBaseDialog },
  delete: { title: (n) => `Delete ${fileCount(n)}?`, Body: DeleteDialog },
};

export function BulkActions({
  selected,
  onClear,
  onFinished,
}: {
  selected: ReadonlyMap<string, FileListItem>;
  onClear: () => void;
  onFinished: (report: ActionReport, keepSelected: string[]) => void;
}) {
  const [action, setAction] = useState<Action | null>(null);
  // The last dialog opened keeps its title while it closes.
  const [shown, setShown] = useState<Action>('extract');
  // The files as they were when the dialog opened: a list refreshing meanwhile changes nothing.
  const [files, setFiles] = useState<FileListItem[]>([]);
  const open = (next: Action) => {
    setFiles([...selected.values()]);
    setShown(next);
    setAction(next);
  };
  const close = () => setAction(null);
  const { title, Body } = DIALOGS[shown];

  return (
    <>
      {selected.size > 0 && (
        <div
          role="region"
          aria-label="Selected files"
          className="sticky top-0 z-10 mb-3 flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 shadow-sm"
        >
          <p className="mr-auto text-sm font-medium text-slate-900" aria-live="polite">
            {selected.size} selected
          </p>
          <Button variant="secondary" onClick={() => open('extract')}>
            Turn into text
          </Button>
          <Button variant="secondary" onClick={() => open('add')}>
            Add to knowledge base
          </Button>
          <Button variant="danger" onClick={() => open('delete')}>
            Delete
          </Button>
          <Button variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        </div>
      )}
      <Dialog open={action !== null} title={title(files.length)} onClose={close}>
        {/* Its fields exist only while it is open, so they never clash with the upload panel's. */}
        {action && (
          <Body
            files={files}
            onCancel={close}
            onFinished={(report, keep) => {
              close();
              onFinished(report, keep);
            }}
          />
        )}
      </Dialog>
    </>
  );
}
