'use client';

// Deleting the organization (owners): type its name to confirm. The service refuses while a plan is live
// or credit remains; for the latter the owner may choose to forfeit the credit.
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { Dialog } from '@/components/console/dialog';
import { readError } from '@/components/console/errors';
import { CheckboxField, TextField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { useSwitchAccount } from '@/components/console/use-switch-account';
import { Button } from '@/components/ui/button';

export function DangerZone({ organization }: { organization: RouterOutputs['organization']['get'] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const toast = useToast();
  const { session } = useConsoleSession();
  const switchAccount = useSwitchAccount();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [force, setForce] = useState(false);
  const remove = useMutation(trpc.organization.delete.mutationOptions());
  const failure = remove.error ? readError(remove.error) : null;
  const hasBalance = typeof failure?.metadata.balance === 'number';

  async function confirm() {
    try {
      await remove.mutateAsync({ force });
      toast(`${organization.name} was deleted`);
      setOpen(false);
      await switchAccount.mutateAsync(session.accounts.find((a) => a.kind === 'personal')!.id);
      router.push('/overview');
    } catch {
      // Shown in the dialog.
    }
  }

  return (
    <section aria-labelledby="danger-heading" className="rounded-2xl border border-red-300 bg-surface-raised p-5 shadow-xs sm:p-6 dark:border-red-900">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="danger-heading" className="text-base font-semibold text-foreground">
            Delete organization
          </h2>
          <p className="mt-1 text-sm leading-6 text-muted">Revokes every key, removes every member and invite. Usage and payment records stay for accounting.</p>
        </div>
        <Button variant="secondary" className="border-red-300 text-red-700 hover:bg-red-50 dark:border-red-900 dark:text-red-300 dark:hover:bg-red-950/50" onClick={() => setOpen(true)}>
          Delete organization
        </Button>
      </div>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Delete ${organization.name}?`}
        description="This cannot be undone."
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button onClick={confirm} disabled={typed !== organization.name || remove.isPending || (hasBalance && !force)} className="bg-red-600 text-white hover:bg-red-700">
              {remove.isPending ? 'Deleting…' : 'Delete forever'}
            </Button>
          </>
        }
      >
        <div className="space-y-4">
          <TextField id="delete-confirm" label={`Type ${organization.name} to confirm`} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
          {failure ? <Notice tone="error">{failure.message}</Notice> : null}
          {hasBalance ? <CheckboxField id="delete-force" label="Forfeit the remaining credit" description="It is not refunded." checked={force} onChange={(e) => setForce(e.target.checked)} /> : null}
        </div>
      </Dialog>
    </section>
  );
}
