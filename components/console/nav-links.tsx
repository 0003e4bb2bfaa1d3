'use client';

// The console's navigation, role-aware: a link appears only when the caller's role on the active account
// can use the page (the pages and the server check again).
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from '@/components/ui/cx';
import type { Permission } from '@/server/organizations/permissions';
import { useConsoleSession } from './console-session';
import { Icon, type IconName } from './icons';

interface NavItem {
  href: string;
  label: string;
  icon: IconName;
  permission?: Permission;
  organizationOnly?: boolean;
}

// Shown only to operators of the instance (session.operator); the pages and procedures check again.
const operatorGroup: { label: string; items: NavItem[] } = {
  label: 'Operator',
  items: [
    { href: '/admin/users', label: 'Users & accounts', icon: 'user' },
    { href: '/admin/catalog', label: 'Catalog & providers', icon: 'server' },
    { href: '/admin/usage', label: 'Usage & margin', icon: 'usage' },
    { href: '/admin/audit-log', label: 'Instance audit log', icon: 'list' },
  ],
};

const groups: { label: string; items: NavItem[] }[] = [
  {
    label: 'Build',
    items: [
      { href: '/overview', label: 'Overview', icon: 'overview' },
      { href: '/playground', label: 'Playground', icon: 'playground', permission: 'chat:use' },
      { href: '/keys', label: 'API keys', icon: 'key', permission: 'keys:create' },
      { href: '/models', label: 'Models', icon: 'models' },
    ],
  },
  {
    label: 'Monitor',
    items: [
      { href: '/usage', label: 'Usage', icon: 'usage', permission: 'usage:read-own' },
      { href: '/activity', label: 'Activity', icon: 'sessions', permission: 'usage:read-own' },
    ],
  },
  {
    // Only for roles that may act on each page (the pages and the server check again).
    label: 'Administration',
    items: [
      { href: '/policy', label: 'Policy & limits', icon: 'shield', permission: 'org:update', organizationOnly: true },
      { href: '/provider-keys', label: 'Provider keys', icon: 'plug', permission: 'provider-keys:manage' },
      { href: '/webhooks', label: 'Webhooks & alerts', icon: 'webhook', permission: 'webhooks:manage' },
      { href: '/audit-log', label: 'Audit log', icon: 'log', permission: 'audit:read' },
      { href: '/sso', label: 'Single sign-on', icon: 'lock', permission: 'sso:manage', organizationOnly: true },
    ],
  },
  {
    label: 'Account',
    items: [
      { href: '/organization', label: 'Organization', icon: 'organization' },
      { href: '/billing', label: 'Billing', icon: 'billing', permission: 'billing:read' },
      { href: '/plans', label: 'Plans', icon: 'plans', organizationOnly: true },
      { href: '/sessions', label: 'Sessions', icon: 'sessions' },
    ],
  },
];

export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname();
  const { can, isOrganization, session } = useConsoleSession();
  return (
    <nav aria-label="Console" className="space-y-6">
      {(session.operator ? [...groups, operatorGroup] : groups).map((group) => {
        const items = group.items.filter((i) => (!i.permission || can(i.permission)) && (!i.organizationOnly || isOrganization));
        if (items.length === 0) return null;
        return (
          <div key={group.label}>
            <p className="px-3 text-xs font-semibold tracking-wide text-muted uppercase">{group.label}</p>
            <ul className="mt-2 space-y-0.5">
              {items.map((item) => {
                const current = pathname === item.href || pathname.startsWith(`${item.href}/`);
                return (
                  <li key={item.href}>
                    <Link
                      href={item.href}
                      onClick={onNavigate}
                      aria-current={current ? 'page' : undefined}
                      className={cx(
                        'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                        current ? 'bg-accent-soft text-accent-text' : 'text-muted hover:bg-surface hover:text-foreground',
                      )}
                    >
                      <Icon name={item.icon} className="size-[18px]" />
                      {item.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
