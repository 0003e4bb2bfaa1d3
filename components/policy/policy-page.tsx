'use client';

// The organization's policy: which models and providers members' requests may use, the spend limit new
// members get, and each member's own limit. Settings go through organization.update (the settings schema
// validates them); member limits through organization.setMemberLimit.
import { useQuery } from '@tanstack/react-query';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { PageHeader } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { AllowListSection } from './allow-list-section';
import { DefaultLimitSection } from './default-limit-section';
import { MemberLimitsSection } from './member-limits-section';

export function PolicyPage() {
  const trpc = useTRPC();
  const { isOrganization, can } = useConsoleSession();
  const org = useQuery({ ...trpc.organization.get.queryOptions(), enabled: isOrganization });
  const models = useQuery(trpc.models.list.queryOptions());
  const providers = useQuery(trpc.models.routingProviders.queryOptions());

  const header = <PageHeader title="Policy & limits" description="What the organization's members may use and spend. Requests outside the policy are refused with 403 organization_policy." />;
  if (!isOrganization) {
    return (
      <div className="space-y-8">
        {header}
        <EmptyState title="Policies apply to organizations">Switch to an organization in the account menu to restrict its models and set member limits.</EmptyState>
      </div>
    );
  }
  if (org.isPending) return <LoadingBlock label="Loading policy" rows={6} />;
  if (org.isError) return <ErrorState message={errorMessage(org.error)} onRetry={() => org.refetch()} />;
  const editable = can('org:update');
  const settings = org.data.settings;
  return (
    <div className="space-y-8">
      {header}
      <AllowListSection
        id="allowed-models"
        title="Allowed models"
        description="Members’ requests may use only these models. With none chosen, every model is allowed."
        setting="allowed_models"
        current={settings.allowed_models ?? []}
        choices={(models.data ?? []).map((m) => ({ id: m.id, label: m.name }))}
        loading={models.isPending}
        editable={editable}
        noun="model"
      />
      <AllowListSection
        id="allowed-providers"
        title="Allowed providers"
        description="Requests are routed only to these providers; a model none of them serves is refused. With none chosen, every provider is allowed."
        setting="allowed_providers"
        current={settings.allowed_providers ?? []}
        choices={(providers.data ?? []).map((p) => ({ id: p.id, label: p.name }))}
        loading={providers.isPending}
        editable={editable}
        noun="provider"
      />
      <DefaultLimitSection amount={settings.default_member_limit_usd ?? null} reset={settings.default_member_limit_reset ?? null} editable={editable} />
      <MemberLimitsSection />
    </div>
  );
}
