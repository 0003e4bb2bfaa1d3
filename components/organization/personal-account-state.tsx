'use client';

import { useState } from 'react';
import { AccountAvatar } from '@/components/console/account-switcher';
import { useConsoleSession } from '@/components/console/console-session';
import { CreateOrganizationDialog } from '@/components/console/create-organization-dialog';
import { Icon } from '@/components/console/icons';
import { PageHeader, Section } from '@/components/console/page-header';
import { EmptyState } from '@/components/console/states';
import { useSwitchAccount } from '@/components/console/use-switch-account';
import { Button } from '@/components/ui/button';

/** The organization page on a personal account: nothing to manage here, so create or switch. */
export function PersonalAccountState() {
  const { session } = useConsoleSession();
  const [creating, setCreating] = useState(false);
  const switchAccount = useSwitchAccount();
  const organizations = session.accounts.filter((a) => a.kind === 'organization');
  return (
    <div className="space-y-8">
      <PageHeader title="Organization" description="Organizations share a balance, API keys and usage among members, with roles for who may do what." />
      <EmptyState
        icon={<Icon name="organization" />}
        title="You are working in your personal account"
        action={
          <Button onClick={() => setCreating(true)}>
            <Icon name="plus" className="size-4" /> Create an organization
          </Button>
        }
      >
        Create an organization to invite your team, or switch to one you belong to.
      </EmptyState>
      {organizations.length > 0 ? (
        <Section title="Your organizations">
          <ul className="divide-y divide-border">
            {organizations.map((o) => (
              <li key={o.id} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
                <AccountAvatar name={o.name} kind="organization" className="size-8 text-sm" />
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium text-foreground">{o.name}</p>
                  <p className="text-xs text-muted capitalize">{o.role}</p>
                </div>
                <Button variant="secondary" size="sm" disabled={switchAccount.isPending} onClick={() => switchAccount.mutate(o.id)}>
                  Switch to {o.name}
                </Button>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <CreateOrganizationDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
