'use client';

// The plans side by side. Subscribing charges the saved card now; without a card the buyer adds one first.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAddCard } from '@/components/billing/payment-method-section';
import { readError } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { Icon } from '@/components/console/icons';
import { formatUsd } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { StatusBadge } from '@/components/console/status-badge';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';

type Plan = RouterOutputs['plans']['list']['data'][number];
type Current = RouterOutputs['plans']['current'];

export function PlanCards({ plans, current, canManage }: { plans: Plan[]; current: Current; canManage: boolean }) {
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {plans.map((plan) => (
        <PlanCard key={plan.id} plan={plan} current={current} canManage={canManage} />
      ))}
    </ul>
  );
}

function PlanCard({ plan, current, canManage }: { plan: Plan; current: Current; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const addCard = useAddCard();
  const isCurrent = current.plan.id === plan.id;
  const [seats, setSeats] = useState(String(Math.max(1, current.member_count)));
  const subscribe = useMutation(trpc.plans.subscribe.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.plans.pathKey() }) }));
  const failure = subscribe.error ? readError(subscribe.error) : null;
  const needsCard = failure?.metadata.reason === 'no_payment_method';
  const paid = plan.price_per_seat > 0;

  return (
    <li className={cx('flex flex-col rounded-2xl border bg-surface-raised p-6 shadow-xs', isCurrent ? 'border-accent ring-1 ring-accent' : 'border-border')}>
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold text-foreground">{plan.name}</h2>
        {isCurrent ? <StatusBadge tone="accent">Current plan</StatusBadge> : null}
      </div>
      <p className="mt-1 text-sm leading-6 text-muted">{plan.description}</p>
      <p className="mt-4 text-3xl font-semibold tracking-tight text-foreground">
        {paid ? formatUsd(plan.price_per_seat) : 'Free'}
        {paid ? <span className="text-sm font-normal text-muted"> per seat / {plan.interval}</span> : null}
      </p>
      <ul className="mt-5 flex-1 space-y-2 text-sm">
        {plan.features.map((f) => (
          <li key={f} className="flex gap-2 text-foreground">
            <Icon name="check" className="mt-0.5 size-4 text-accent-text" />
            {f}
          </li>
        ))}
      </ul>
      {canManage && paid && !isCurrent ? (
        <div className="mt-6 space-y-3 border-t border-border pt-5">
          <div className="flex items-end gap-2">
            <TextField id={`seats-${plan.id}`} label="Seats" type="number" min={Math.max(1, current.member_count)} value={seats} onChange={(e) => setSeats(e.target.value)} error={failure?.fields.seats} className="w-24" />
            <Button
              className="flex-1"
              disabled={subscribe.isPending}
              onClick={async () => {
                try {
                  await subscribe.mutateAsync({ plan_id: plan.id, seats: Number(seats) });
                  toast(`Subscribed to ${plan.name}`);
                } catch {
                  // Shown below.
                }
              }}
            >
              {subscribe.isPending ? 'Subscribing…' : `Subscribe · ${formatUsd(plan.price_per_seat * (Number(seats) || 0))}/${plan.interval}`}
            </Button>
          </div>
          {failure && !failure.fields.seats ? (
            <Notice
              tone={needsCard ? 'warning' : 'error'}
              action={
                needsCard ? (
                  <Button size="sm" onClick={() => addCard.mutate()} disabled={addCard.isPending}>
                    Add a card
                  </Button>
                ) : undefined
              }
            >
              {needsCard ? 'Add a card first: the plan is charged to it each month.' : failure.message}
            </Notice>
          ) : null}
        </div>
      ) : null}
      {canManage && !paid && !isCurrent ? <p className="mt-6 border-t border-border pt-5 text-sm text-muted">Cancel the current plan to return to Free at the end of its period.</p> : null}
    </li>
  );
}
