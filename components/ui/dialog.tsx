'use client';

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './controls';

/**
 * A modal dialog using the native <dialog> element (focus trap and Escape come with it).
 * `dismissible={false}` keeps it open on Escape (and any other close request of the browser) until
 * the page sets `open` to false, for a dialog that must not be lost by accident.
 */
export function Dialog({
  open,
  title,
  onClose,
  dismissible = true,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  dismissible?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const openRef = useRef(open);
  useEffect(() => {
    const dialog = ref.current;
    openRef.current = open;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  useEffect(() => {
    // Browsers that know it then refuse every close request themselves, Escape included.
    if (dismissible) ref.current?.removeAttribute('closedby');
    else ref.current?.setAttribute('closedby', 'none');
  }, [dismissible]);
  return (
    <dialog
      ref={ref}
      onCancel={(e) => {
        if (!dismissible) e.preventDefault();
      }}
      onKeyDown={(e) => {
        if (!dismissible && e.key === 'Escape') e.preventDefault();
      }}
      onClose={() => {
        // A close the page did not ask for (the browser may close anyway after repeated Escapes).
        if (!dismissible && openRef.current) {
          ref.current?.showModal();
          return;
        }
        onClose();
      }}
      aria-labelledby={titleId}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="p-5">
        <h2 id={titleId} className="mb-3 text-lg font-semibold">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}

/** A button that asks before doing something that cannot be undone. */
export function ConfirmButton({
  label,
  title,
  message,
  confirmLabel = 'Delete',
  onConfirm,
  variant = 'danger',
}: {
  label: string;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  onConfirm: () => Promise<unknown>;
  variant?: ButtonVariant;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Dialog open={open} title={title} onClose={() => setOpen(false)}>
        <div className="text-sm text-slate-700">{message}</div>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            variant={variant}
            busy={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onConfirm();
                setOpen(false);
              } finally {
                setBusy(false);
              }
            }}
          >
            {confirmLabel}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
