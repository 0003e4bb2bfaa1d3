'use client';

import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from './dialog';
import { Notice } from './notice';

/** "Delete this key?" — the destructive action is a red button, and Cancel is focused first. */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  children,
  confirmLabel,
  pendingLabel,
  pending,
  error,
  destructive = true,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  error?: string | null;
  destructive?: boolean;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button
            onClick={onConfirm}
            disabled={pending}
            className={destructive ? 'bg-red-600 text-white hover:bg-red-700 dark:bg-red-600 dark:hover:bg-red-500' : undefined}
          >
            {pending ? (pendingLabel ?? 'Working…') : confirmLabel}
          </Button>
        </>
      }
    >
      <div className="space-y-4 text-sm leading-6 text-muted">
        {children}
        {error ? <Notice tone="error">{error}</Notice> : null}
      </div>
    </Dialog>
  );
}
