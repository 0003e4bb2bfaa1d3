import { StatusBadge } from '@/components/console/status-badge';

/** Suspended (red) or active, and whether the user is an operator. */
export function UserStatusBadge({ user }: { user: { suspended_at: string | null; is_operator: boolean } }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {user.suspended_at ? <StatusBadge tone="danger">Suspended</StatusBadge> : <StatusBadge tone="success">Active</StatusBadge>}
      {user.is_operator ? <StatusBadge tone="accent">Operator</StatusBadge> : null}
    </span>
  );
}
