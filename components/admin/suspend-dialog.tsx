'use client';

// Suspend (with a reason) or restore a user. A suspension refuses their API keys, auth tokens and sign-in from
// the next request (server/admin/admin-users.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { errorMessage } from '@/components/console/errors';
import { TextareaField } from '@/components/console/fields';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';

export function SuspendDialog({ user, open, onClose }: { user: { id: string; email: string; suspended_at: string | null }; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const done = (message: string) => {
    toast(message);
    void queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
    setReason('');
    onClose();
  };
  const suspend = useMutation(trpc.admin.suspend.mutationOptions({ onSuccess: () => done(`${user.email} is suspended: their keys and tokens are refused from now on.`) }));
  const restore = useMutation(trpc.admin.restore.mutationOptions({ onSuccess: () => done(`${user.email} is restored.`) }));

  if (user.suspended_at) {
    return (
      <ConfirmDialog
        open={open}
        onClose={onClose}
        title="Restore this user?"
        confirmLabel="Restore user"
        pendingLabel="Restoring…"
        destructive={false}
        pending={restore.isPending}
        error={restore.error ? errorMessage(restore.error) : null}
        onConfirm={() => restore.mutate({ id: user.id })}
      >
        <p>{user.email} may sign in again, and their API keys and auth tokens work from the next request.</p>
      </ConfirmDialog>
    );
  }
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title="Suspend this user?"
      confirmLabel="Suspend user"
      pendingLabel="Suspending…"
      pending={suspend.isPending}
      error={suspend.error ? errorMessage(suspend.error) : null}
      onConfirm={() => {
        if (!reason.trim()) return setMissing(true);
        suspend.mutate({ id: user.id, reason: reason.trim() });
      }}
    >
      <p>From the next request, every API key and auth token of {user.email} gets 403, and they cannot sign in. Their credit stays.</p>
      <TextareaField id="suspend-reason" label="Reason" rows={3} maxLength={500} value={reason} onChange={(e) => { setReason(e.target.value); setMissing(false); }} error={missing ? 'Say why: it is kept in the audit log' : undefined} />
    </ConfirmDialog>
  );
}
