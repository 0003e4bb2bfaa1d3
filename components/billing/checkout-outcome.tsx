'use client';

// Back from a checkout started in the console (the return page redirects to the page it started from with
// ?checkout=<outcome>&credit=&card=): says what happened there, and — when the card was kept and auto
// top-up is off — offers to turn it on in the same flow, with the saved settings (or the defaults).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useConsoleSession } from '@/components/console/console-session';
import { formatUsd } from '@/components/console/format';
import { Notice, type NoticeTone } from '@/components/console/notice';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

const OUTCOMES: Record<string, { tone: NoticeTone; title: string; body: string }> = {
  succeeded: { tone: 'success', title: 'Payment received', body: 'The credit is in your balance.' },
  pending: { tone: 'info', title: 'Payment processing', body: 'The credit is added as soon as the payment clears.' },
  cancelled: { tone: 'info', title: 'Checkout cancelled', body: 'Nothing was charged.' },
  failed: { tone: 'error', title: 'Payment not completed', body: 'Nothing was charged and nothing was added to your balance.' },
};

export function CheckoutOutcome() {
  const params = useSearchParams();
  const outcome = params.get('checkout');
  if (!outcome) return null;
  return <OutcomeNotice outcome={outcome} credit={Number(params.get('credit') ?? NaN)} card={params.get('card')} />;
}

function OutcomeNotice({ outcome, credit, card }: { outcome: string; credit: number; card: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { can } = useConsoleSession();
  const view = OUTCOMES[outcome] ?? OUTCOMES.failed!;
  const offerTopUp = outcome === 'succeeded' && card !== null && can('billing:manage');
  const autoTopUp = useQuery({ ...trpc.billing.autoTopUp.queryOptions(), enabled: offerTopUp });
  const enable = useMutation(
    trpc.billing.updateAutoTopUp.mutationOptions({
      onSuccess: (s) => {
        queryClient.setQueryData(trpc.billing.autoTopUp.queryKey(), s);
        toast(`Auto top-up is on: ${formatUsd(s.amount)} when the balance falls below ${formatUsd(s.threshold)}`);
      },
    }),
  );
  const dismiss = () => router.replace(pathname, { scroll: false });
  const settings = autoTopUp.data;
  const showOffer = offerTopUp && settings && !settings.enabled;

  return (
    <div className="mb-6 space-y-3" data-testid="checkout-outcome">
      <Notice
        tone={view.tone}
        title={view.title}
        action={
          <Button variant="ghost" size="sm" onClick={dismiss}>
            Dismiss
          </Button>
        }
      >
        {outcome === 'succeeded' && Number.isFinite(credit) ? `${formatUsd(credit)} of credit was added to your balance.` : view.body}
        {outcome === 'succeeded' && card ? ` ${card} is saved for next time.` : null}
      </Notice>
      {showOffer ? (
        <Notice
          tone="info"
          title="Never run dry: turn on auto top-up"
          action={
            <Button size="sm" onClick={() => enable.mutate({ enabled: true })} disabled={enable.isPending}>
              {enable.isPending ? 'Turning on…' : 'Turn on auto top-up'}
            </Button>
          }
        >
          Charge {card} {formatUsd(settings.amount)} whenever a request takes the balance below {formatUsd(settings.threshold)}. Change or turn it off in Billing at any time.
        </Notice>
      ) : offerTopUp && settings?.enabled ? (
        <p className="text-sm text-muted">Auto top-up is on with this card.</p>
      ) : null}
      {enable.isError ? <Notice tone="error">{enable.error.message}</Notice> : null}
    </div>
  );
}
