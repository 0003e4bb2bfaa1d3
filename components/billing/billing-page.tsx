'use client';

// Billing of the active account: balance, buying credits (hosted checkout, or the saved card), the saved
// card, auto top-up, promotions, the credit history (the ledger with its running balance) and the payment history. Reading needs billing:read; acting billing:manage.
import { useQuery } from '@tanstack/react-query';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { formatUsd } from '@/components/console/format';
import { Icon } from '@/components/console/icons';
import { PageHeader } from '@/components/console/page-header';
import { Stat } from '@/components/console/stat';
import { EmptyState, ErrorState, Skeleton } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { AutoTopUpSection } from './auto-top-up-section';
import { BuyCreditsSection } from './buy-credits-section';
import { CreditHistory } from './credit-history';
import { PaymentHistory } from './payment-history';
import { PaymentMethodSection } from './payment-method-section';
import { PromotionsSection } from './promotions-section';

export function BillingPage() {
  const trpc = useTRPC();
  const { account, can } = useConsoleSession();
  const balance = useQuery(trpc.billing.balance.queryOptions());
  const method = useQuery({ ...trpc.billing.paymentMethod.queryOptions(), enabled: can('billing:read') });

  if (!can('billing:read')) {
    return (
      <div className="space-y-8">
        <PageHeader title="Billing" />
        <EmptyState icon={<Icon name="billing" />} title="Billing is managed by owners and billing managers">
          Your role in {account.name} does not include billing. Ask an owner to add credit or change your role.
        </EmptyState>
      </div>
    );
  }

  const b = balance.data?.amounts ? balance.data : null;
  const card = method.data?.data ?? null;
  return (
    <div className="space-y-8">
      <PageHeader title="Billing" description={`Credit for ${account.name}: every request is paid from this balance, promotional credit first.`} />
      {balance.isError ? (
        <ErrorState message={errorMessage(balance.error)} onRetry={() => balance.refetch()} />
      ) : (
        <dl className="grid gap-4 sm:grid-cols-3" data-testid="balance">
          <Stat label="Balance" value={b ? formatUsd(b.balance) : <Skeleton className="h-7 w-24" />} tone={b?.isDepleted ? 'warning' : undefined} detail={b && b.reserved > 0 ? `${formatUsd(b.reserved)} held by the gateway for requests in flight` : 'Available for new requests'} />
          <Stat label="Paid credit" value={b ? formatUsd(b.paid) : <Skeleton className="h-7 w-20" />} detail="Bought, or included with a plan" />
          <Stat label="Promotional credit" value={b ? formatUsd(b.promotional) : <Skeleton className="h-7 w-20" />} detail="Spent before paid credit" />
        </dl>
      )}
      {can('billing:manage') ? <BuyCreditsSection card={card} /> : null}
      <div className="grid gap-8 lg:grid-cols-2 lg:items-start">
        <PaymentMethodSection method={method} />
        <AutoTopUpSection hasCard={card !== null} />
      </div>
      <PromotionsSection />
      <CreditHistory />
      <PaymentHistory />
    </div>
  );
}
