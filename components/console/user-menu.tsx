'use client';

import Link from 'next/link';
import { signOutAction } from '@/app/(auth)/actions';
import { useConsoleSession } from './console-session';
import { Icon } from './icons';
import { usePopover } from './use-popover';

function initials(name: string, email: string) {
  const words = (name || email).trim().split(/\s+/);
  return ((words[0]?.[0] ?? '') + (words.length > 1 ? (words.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

export function UserMenu() {
  const { session } = useConsoleSession();
  const { open, setOpen, containerRef, triggerRef } = usePopover();
  const { user } = session;
  return (
    <div ref={containerRef} className="relative">
      <button
        ref={triggerRef}
        type="button"
        aria-expanded={open}
        aria-controls="user-menu"
        onClick={() => setOpen(!open)}
        className="flex size-9 items-center justify-center rounded-full bg-zinc-900 text-xs font-semibold text-white ring-offset-2 ring-offset-background hover:ring-2 hover:ring-border-strong dark:bg-zinc-100 dark:text-zinc-900"
      >
        <span className="sr-only">Your profile ({user.email})</span>
        <span aria-hidden="true">{initials(user.name, user.email)}</span>
      </button>
      {open ? (
        <div id="user-menu" className="absolute right-0 z-40 mt-2 w-64 overflow-hidden rounded-xl border border-border bg-surface-raised shadow-xl">
          <div className="border-b border-border px-4 py-3">
            <p className="truncate text-sm font-medium text-foreground">{user.name || 'Signed in'}</p>
            <p className="truncate text-xs text-muted">{user.email}</p>
          </div>
          <ul className="p-1.5 text-sm">
            <li>
              <Link href="/account" onClick={() => setOpen(false)} className="flex items-center gap-3 rounded-lg px-2.5 py-2 text-foreground hover:bg-surface">
                <Icon name="user" className="size-4 text-muted" /> Account settings
              </Link>
            </li>
            <li>
              <Link href="/sessions" onClick={() => setOpen(false)} className="flex items-center gap-3 rounded-lg px-2.5 py-2 text-foreground hover:bg-surface">
                <Icon name="sessions" className="size-4 text-muted" /> Editor &amp; CLI sessions
              </Link>
            </li>
            <li>
              <a href="/docs" className="flex items-center gap-3 rounded-lg px-2.5 py-2 text-foreground hover:bg-surface">
                <Icon name="external" className="size-4 text-muted" /> API reference
              </a>
            </li>
            <li>
              <form action={signOutAction}>
                <input type="hidden" name="callbackUrl" value="/overview" />
                <button type="submit" className="flex w-full items-center gap-3 rounded-lg px-2.5 py-2 text-left text-foreground hover:bg-surface">
                  <Icon name="logout" className="size-4 text-muted" /> Sign out
                </button>
              </form>
            </li>
          </ul>
        </div>
      ) : null}
    </div>
  );
}
