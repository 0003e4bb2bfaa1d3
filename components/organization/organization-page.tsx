'use client';

// The active organization: its settings, members (roles, removal, spend this month), invites and seats.
// On a personal account: create an organization or switch to one.
import { useQuery } from '@tanstack/react-query';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { PageHeader } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { DangerZone } from './danger-zone';
import { InvitesSection } from './invites-section';
import { MembersSection } from './members-section';
import { PersonalAccountState } from './personal-account-state';
import { SeatsSummary } from './seats-summary';
import { SettingsSection } from './settings-section';

export function OrganizationPage() {
  const { isOrganization, can } = useConsoleSession();
  if (!isOrganization) return <PersonalAccountState />;
  return <OrganizationView canInvite={can('invites:read')} canDelete={can('org:delete')} />;
}

function OrganizationView({ canInvite, canDelete }: { canInvite: boolean; canDelete: boolean }) {
  const trpc = useTRPC();
  const org = useQuery(trpc.organization.get.queryOptions());
  if (org.isPending) return <LoadingBlock label="Loading organization" rows={6} />;
  if (org.isError) return <ErrorState message={errorMessage(org.error)} onRetry={() => org.refetch()} />;
  const o = org.data;
  return (
    <div className="space-y-8">
      <PageHeader
        title={o.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-xs">{o.slug}</span>
            <span aria-hidden="true">·</span>
            <span>
              You are <StatusBadge tone="accent" className="capitalize">{o.role}</StatusBadge>
            </span>
          </span>
        }
      />
      <SeatsSummary />
      <MembersSection />
      {canInvite ? <InvitesSection /> : null}
      <SettingsSection organization={o} />
      {canDelete ? <DangerZone organization={o} /> : null}
    </div>
  );
}
