'use client';

// The current plan: status, seats used of paid, the period, and (for managers) seats and cancellation.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { errorMessage, readError, zodFieldErrors } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { formatDate, formatUsd } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { StateBadge } from '@/components/console/status-badge';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { seatsInput } from '@/server/billing/billing-inputs';

type Current = RouterOutputs['plans']['current'];

export function CurrentPlan({ current, canManage }: { current: Current; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const sub = current.subscription;
  const [seats, setSeats] = useState(String(sub?.seats ?? current.member_count));
  const [seatError, setSeatError] = useState<string | undefined>();
  const [cancelling, setCancelling] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.plans.pathKey() });
  const updateSeats = useMutation(trpc.plans.updateSeats.mutationOptions({ onSuccess: refresh }));
  const cancel = useMutation(trpc.plans.cancel.mutationOptions({ onSuccess: refresh }));
  const resume = useMutation(trpc.plans.subscribe.mutationOptions({ onSuccess: refresh }));

  async function saveSeats(event: FormEvent) {
    event.preventDefault();
    const input = { seats: Number(seats) };
    const local = zodFieldErrors(seatsInput.safeParse(input));
    if (local) return setSeatError(local.seats ?? 'Enter a whole number of seats');
    if (input.seats < current.member_count) return setSeatError(`The organization has ${current.member_count} members: remove members first`);
    setSeatError(undefined);
    try {
      const r = await updateSeats.mutateAsync(input);
      toast(r.proration ? `Seats changed: ${r.proration.amount >= 0 ? `${formatUsd(r.proration.amount)} charged now` : `${formatUsd(-r.proration.amount)} credited on the next invoice`}` : 'Seats unchanged');
    } catch (err) {
      setSeatError(readError(err).fields.seats ?? errorMessage(err));
    }
  }

  return (
    <Section title="Current plan">
      <div className="flex flex-col gap-6 md:flex-row md:items-start md:justify-between">
        <div>
          <p className="flex items-center gap-2 text-xl font-semibold text-foreground">
            {current.plan.name} {sub ? <StateBadge state={sub.status} /> : null}
          </p>
          <p className="mt-1 text-sm text-muted">
            {sub
              ? `${sub.seats} seat${sub.seats === 1 ? '' : 's'} · ${current.member_count} used · ${formatUsd(current.plan.price_per_seat * sub.seats)} per ${current.plan.interval}`
              : `${current.member_count} member${current.member_count === 1 ? '' : 's'}${current.plan.max_members ? ` of ${current.plan.max_members} allowed` : ''} · pay as you go`}
          </p>
          {sub?.current_period_end ? (
            <p className="mt-1 text-sm text-muted">
              {sub.cancel_at_period_end ? 'Ends' : 'Renews'} {formatDate(sub.current_period_end)}
              {current.included_credit_per_period > 0 ? ` · ${formatUsd(current.included_credit_per_period)} of credit included each period` : ''}
            </p>
          ) : null}
        </div>
        {sub && canManage ? (
          <form onSubmit={saveSeats} noValidate className="flex items-start gap-2">
            <TextField id="plan-seats" label="Seats" type="number" min={Math.max(1, current.member_count)} max={10_000} value={seats} onChange={(e) => setSeats(e.target.value)} error={seatError} className="w-28" />
            <Button type="submit" variant="secondary" className="mt-7" disabled={updateSeats.isPending || Number(seats) === sub.seats}>
              {updateSeats.isPending ? 'Saving…' : 'Change seats'}
            </Button>
          </form>
        ) : null}
      </div>
      {sub?.cancel_at_period_end ? (
        <Notice
          tone="warning"
          className="mt-5"
          title="This plan is cancelled"
          action={
            canManage ? (
              <Button size="sm" variant="secondary" onClick={() => resume.mutate({ plan_id: current.plan.id })} disabled={resume.isPending}>
                Keep the plan
              </Button>
            ) : undefined
          }
        >
          It stays active until {formatDate(sub.current_period_end)}, then the organization moves to the Free plan.
        </Notice>
      ) : sub && canManage ? (
        <div className="mt-5 border-t border-border pt-4">
          <Button variant="ghost" size="sm" onClick={() => setCancelling(true)}>
            Cancel plan
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={cancelling}
        onClose={() => setCancelling(false)}
        title={`Cancel the ${current.plan.name} plan?`}
        confirmLabel="Cancel plan"
        pendingLabel="Cancelling…"
        pending={cancel.isPending}
        error={cancel.error ? errorMessage(cancel.error) : null}
        onConfirm={async () => {
          try {
            await cancel.mutateAsync({ plan_id: current.plan.id });
            setCancelling(false);
            toast('The plan ends at the end of the period');
          } catch {
            // Shown in the dialog.
          }
        }}
      >
        <p>It stays active, with its seats and included credit, until {formatDate(sub?.current_period_end)}. Nothing more is charged.</p>
      </ConfirmDialog>
    </Section>
  );
}
