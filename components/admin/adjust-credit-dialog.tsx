'use client';

// A manual credit (positive) or debit (negative) of an account's paid credit, with a reason, confirmed
// before it is posted: one ADJUSTMENT ledger entry (server/admin/admin-adjustments.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/console/dialog';
import { readError } from '@/components/console/errors';
import { TextField, TextareaField } from '@/components/console/fields';
import { formatUsd } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

export function AdjustCreditDialog({ account, onClose }: { account: { id: string; name: string } | null; onClose: () => void }) {
  return (
    <Dialog open={account !== null} onClose={onClose} title="Adjust credit" description={account ? <>Paid credit of <span className="font-medium text-foreground">{account.name}</span>. A negative amount debits.</> : null}>
      {account ? <AdjustForm key={account.id} account={account} onClose={onClose} /> : null}
    </Dialog>
  );
}

function AdjustForm({ account, onClose }: { account: { id: string; name: string }; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const adjust = useMutation(
    trpc.admin.adjust.mutationOptions({
      onSuccess: (out) => {
        toast(`${out.data.entry.amount >= 0 ? 'Credited' : 'Debited'} ${formatUsd(Math.abs(out.data.entry.amount))}. Balance now ${formatUsd(out.data.entry.balance_after)}.`);
        void queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
        onClose();
      },
    }),
  );
  const value = Number(amount);
  const failure = adjust.error ? readError(adjust.error) : null;

  const review = (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!amount.trim() || !Number.isFinite(value) || value === 0) found.amount = 'Enter a non-zero amount in USD (negative to debit)';
    if (!reason.trim()) found.reason = 'Say why: it is kept in the ledger entry and the audit log';
    setErrors(found);
    if (Object.keys(found).length === 0) setConfirming(true);
  };

  if (confirming) {
    return (
      <div className="space-y-5 text-sm leading-6 text-muted">
        <p>
          {value > 0 ? 'Credit' : 'Debit'} <span className="font-semibold text-foreground">{formatUsd(Math.abs(value))}</span> {value > 0 ? 'to' : 'from'} {account.name}? This posts a ledger entry that cannot be edited;
          a mistake is corrected by another adjustment.
        </p>
        <p>
          Reason: <span className="text-foreground">{reason.trim()}</span>
        </p>
        {failure ? <Notice tone="error">{failure.message}</Notice> : null}
        <div className="flex justify-end gap-3 border-t border-border pt-5">
          <Button variant="secondary" onClick={() => setConfirming(false)} data-autofocus>
            Back
          </Button>
          <Button disabled={adjust.isPending} onClick={() => adjust.mutate({ account_id: account.id, amount_usd: value, reason: reason.trim() })}>
            {adjust.isPending ? 'Posting…' : `Confirm ${value > 0 ? 'credit' : 'debit'}`}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={review} noValidate className="space-y-5">
      <TextField id="adjust-amount" label="Amount (USD)" inputMode="decimal" prefix="$" value={amount} onChange={(e) => setAmount(e.target.value)} error={errors.amount} hint="Positive credits, negative debits; up to 6 decimals." data-autofocus />
      <TextareaField id="adjust-reason" label="Reason" rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} error={errors.reason} hint="For example: refund of failed requests on Nov 20." />
      <div className="flex justify-end gap-3 border-t border-border pt-5">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">Review</Button>
      </div>
    </form>
  );
}
