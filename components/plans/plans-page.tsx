'use client';

// Plans of the active organization: compare, subscribe (charged to the saved card), change seats, cancel
// at the end of the period, and the history of changes. Owners and billing managers act; others read.
import { useQuery } from '@tanstack/react-query';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { Icon } from '@/components/console/icons';
import { PageHeader } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { ButtonLink } from '@/components/ui/button';
import { CurrentPlan } from './current-plan';
import { PlanCards } from './plan-cards';
import { PlanHistory } from './plan-history';

export function PlansPage() {
  const trpc = useTRPC();
  const { isOrganization, account, can } = useConsoleSession();
  const plans = useQuery(trpc.plans.list.queryOptions());
  const current = useQuery({ ...trpc.plans.current.queryOptions(), enabled: isOrganization });

  if (!isOrganization) {
    return (
      <div className="space-y-8">
        <PageHeader title="Plans" />
        <EmptyState icon={<Icon name="plans" />} title="Plans are for organizations" action={<ButtonLink href="/organization">Go to organizations</ButtonLink>}>
          Your personal account pays as you go. Create or switch to an organization to compare team plans.
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="space-y-8">
      <PageHeader title="Plans" description={`The plan of ${account.name}. Paid plans are billed per seat each month to the saved card and include credit.`} />
      {current.isPending || plans.isPending ? (
        <LoadingBlock label="Loading plans" rows={6} />
      ) : current.isError || plans.isError ? (
        <ErrorState
          message={errorMessage(current.error ?? plans.error)}
          onRetry={() => {
            void current.refetch();
            void plans.refetch();
          }}
        />
      ) : (
        <>
          <CurrentPlan current={current.data} canManage={can('plan:manage')} />
          <PlanCards plans={plans.data.data} current={current.data} canManage={can('plan:manage')} />
          {can('billing:read') ? <PlanHistory plans={plans.data.data} /> : null}
        </>
      )}
    </div>
  );
}
