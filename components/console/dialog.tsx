'use client';

// A modal on the native <dialog> element: showModal() gives the focus trap, Escape, the inert background
// and the top layer for free; focus returns to the opener when it closes. Focus starts on the element
// marked `data-autofocus` (React's autoFocus fires before the dialog is open, so it cannot be used here).
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cx } from '@/components/ui/cx';
import { useToastHost } from './toast';

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const toastHost = useToastHost();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  // While open, toasts are shown from inside this dialog: outside it, the modal makes them inert.
  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    toastHost(dialog, true);
    return () => toastHost(dialog, false);
  }, [open, toastHost]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside the panel) closes it.
        if (event.target === ref.current) onClose();
      }}
      className={cx(
        'm-auto w-[calc(100%-2rem)] rounded-2xl border border-border bg-surface-raised p-0 text-foreground shadow-2xl backdrop:bg-zinc-950/50 backdrop:backdrop-blur-[2px]',
        size === 'sm' ? 'max-w-md' : size === 'lg' ? 'max-w-2xl' : 'max-w-lg',
      )}
    >
      {open ? (
        // On a phone, toasts use the top 4rem (toast.tsx): a centred dialog keeps 4.5rem free above and below.
        <div className="flex max-h-[calc(100dvh-9rem)] flex-col sm:max-h-[calc(100dvh-4rem)]">
          <div className="flex items-start justify-between gap-4 px-6 pt-6">
            <div>
              <h2 id={titleId} className="text-lg font-semibold tracking-tight text-foreground">
                {title}
              </h2>
              {description ? (
                <div id={descriptionId} className="mt-1 text-sm leading-6 text-muted">
                  {description}
                </div>
              ) : null}
            </div>
            <button type="button" onClick={onClose} aria-label="Close" className="-mt-1 -mr-2 rounded-md p-2 text-muted hover:bg-surface hover:text-foreground">
              <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4 fill-none stroke-current stroke-2">
                <path d="M4 4l8 8M12 4l-8 8" strokeLinecap="round" />
              </svg>
            </button>
          </div>
          <div className="overflow-y-auto px-6 py-5">{children}</div>
          {footer ? <div className="flex flex-wrap justify-end gap-3 border-t border-border bg-surface px-6 py-4 sm:rounded-b-2xl">{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
