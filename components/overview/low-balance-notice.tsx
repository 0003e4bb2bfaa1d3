'use client';

import { useConsoleSession } from '@/components/console/console-session';
import { formatUsd } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import type { RouterOutputs } from '@/components/console/trpc';
import { ButtonLink } from '@/components/ui/button';

/** Below this much available credit the console warns (a few typical requests' worth). */
export const LOW_BALANCE_USD = 1;

export function LowBalanceNotice({ balance }: { balance: RouterOutputs['billing']['balance'] }) {
  const { can } = useConsoleSession();
  const available = balance.amounts ? balance.available : null;
  if (!balance.isDepleted && (available === null || available >= LOW_BALANCE_USD)) return null;
  const title = balance.isDepleted ? 'No credit left' : 'Your balance is low';
  const body = balance.isDepleted
    ? 'Requests to paid models are refused (402) until credit is added; free ones still work.'
    : `${formatUsd(available)} available. Requests are refused once it runs out.`;
  return (
    <Notice
      tone="warning"
      title={title}
      action={
        can('billing:manage') ? (
          <ButtonLink href="/billing#buy-credits" size="sm">
            Add credits
          </ButtonLink>
        ) : undefined
      }
    >
      {body}
      {can('billing:manage') ? null : ' Ask an owner or billing manager of this organization to add credit.'}
    </Notice>
  );
}
