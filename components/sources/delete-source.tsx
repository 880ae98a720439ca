'use client';

import { useId, useState } from 'react';
import { Button, Dialog } from '../ui';

/** Deleting a source, with the choice of what becomes of its documents. */
export function DeleteSource({ name, itemCount, onDelete }: { name: string; itemCount: number; onDelete: (keepDocuments: boolean) => Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  const [keep, setKeep] = useState(false);
  const [busy, setBusy] = useState(false);
  const group = useId();
  const documents = itemCount === 1 ? 'its document' : `its ${itemCount} documents`;
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete
      </Button>
      <Dialog open={open} title="Delete source" onClose={() => setOpen(false)}>
        <p className="text-sm text-slate-700">
          Delete <strong>{name}</strong> and its sync history? It will stop syncing. What should happen to {documents}?
        </p>
        <fieldset className="mt-4 space-y-2">
          <legend className="sr-only">What happens to the documents</legend>
          <label className="flex items-start gap-2 text-sm">
            <input type="radio" name={group} className="mt-0.5" checked={!keep} onChange={() => setKeep(false)} />
            <span>
              <span className="block font-medium">Delete the documents too</span>
              <span className="block text-xs text-slate-600">They are removed from the knowledge base with their files.</span>
            </span>
          </label>
          <label className="flex items-start gap-2 text-sm">
            <input type="radio" name={group} className="mt-0.5" checked={keep} onChange={() => setKeep(true)} />
            <span>
              <span className="block font-medium">Keep the documents</span>
              <span className="block text-xs text-slate-600">They stay searchable as plain files that no sync changes.</span>
            </span>
          </label>
        </fieldset>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            busy={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onDelete(keep);
                setOpen(false);
              } finally {
                setBusy(false);
              }
            }}
          >
            Delete source
          </Button>
        </div>
      </Dialog>
    </>
  );
}
