'use client';

// The account switcher: the personal account and each organization; the active one drives every page.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { cx } from '@/components/ui/cx';
import { CreateOrganizationDialog } from './create-organization-dialog';
import { useConsoleSession } from './console-session';
import { errorMessage } from './errors';
import { Icon } from './icons';
import { useToast } from './toast';
import { useTRPC } from './trpc';
import { usePopover } from './use-popover';
import { useSwitchAccount } from './use-switch-account';

export function AccountAvatar({ name, kind, className }: { name: string; kind: 'personal' | 'organization'; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        'flex size-6 shrink-0 items-center justify-center rounded-md text-xs font-semibold',
        kind === 'personal' ? 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200' : 'bg-accent text-accent-foreground',
        className,
      )}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

export function AccountSwitcher() {
  const { session, account } = useConsoleSession();
  const { open, setOpen, containerRef, triggerRef } = usePopover();
  const [creating, setCreating] = useState(false);
  const switchAccount = useSwitchAccount();
  const toast = useToast();
  const trpc = useTRPC();
  const queryClient = useQueryClient();

  async function choose(id: string, name: string) {
    setOpen(false);
    if (id === account.id) return;
    try {
      await switchAccount.mutateAsync(id);
      toast(`Switched to ${name}`);
    } catch (err) {
      toast(errorMessage(err), 'error');
    }
  }

  return (
    <div ref={containerRef} className="relative min-w-0">
      <button
        ref={triggerRef}
        type="button"
        aria-expanded={open}
        aria-haspopup="true"
        aria-controls="account-switcher-menu"
        onClick={() => {
          // Organizations joined elsewhere (an invite accepted, one created through the API) show up on opening.
          if (!open) void queryClient.invalidateQueries({ queryKey: trpc.account.session.queryKey() });
          setOpen(!open);
        }}
        className="flex h-9 max-w-full min-w-0 items-center gap-2 rounded-lg border border-border bg-surface-raised px-2 text-sm font-medium text-foreground shadow-xs hover:bg-surface"
      >
        <AccountAvatar name={account.kind === 'personal' ? session.user.name || session.user.email : account.name} kind={account.kind} />
        <span className="truncate">
          <span className="sr-only">Account: </span>
          {account.name}
        </span>
        {switchAccount.isPending ? <span className="text-xs text-muted">Switching…</span> : null}
        <Icon name="selector" className="size-4 text-muted" />
      </button>
      {open ? (
        <div id="account-switcher-menu" className="absolute left-0 z-40 mt-2 w-72 overflow-hidden rounded-xl border border-border bg-surface-raised shadow-xl">
          <p className="px-3 pt-3 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">Switch account</p>
          <ul className="max-h-80 overflow-y-auto p-1.5">
            {session.accounts.map((a) => (
              <li key={a.id}>
                <button
                  type="button"
                  onClick={() => choose(a.id, a.name)}
                  aria-current={a.id === account.id ? 'true' : undefined}
                  className="flex w-full items-center gap-3 rounded-lg px-2.5 py-2 text-left text-sm hover:bg-surface focus-visible:bg-surface"
                >
                  <AccountAvatar name={a.kind === 'personal' ? session.user.name || session.user.email : a.name} kind={a.kind} />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-foreground">{a.name}</span>
                    <span className="block text-xs text-muted capitalize">{a.kind === 'personal' ? session.user.email : a.role}</span>
                  </span>
                  {a.id === account.id ? <Icon name="check" className="size-4 text-accent-text" /> : null}
                </button>
              </li>
            ))}
          </ul>
          <div className="border-t border-border p-1.5">
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                setCreating(true);
              }}
              className="flex w-full items-center gap-3 rounded-lg px-2.5 py-2 text-left text-sm font-medium text-foreground hover:bg-surface"
            >
              <Icon name="plus" className="size-4 text-muted" />
              Create organization
            </button>
          </div>
        </div>
      ) : null}
      <CreateOrganizationDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
