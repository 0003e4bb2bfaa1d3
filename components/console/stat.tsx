import type { ReactNode } from 'react';
import { cx } from '@/components/ui/cx';

/** A headline number with its label and a line of detail. */
export function Stat({ label, value, detail, className, tone }: { label: string; value: ReactNode; detail?: ReactNode; className?: string; tone?: 'warning' }) {
  return (
    <div className={cx('rounded-2xl border bg-surface-raised p-5 shadow-xs', tone === 'warning' ? 'border-amber-300 dark:border-amber-800' : 'border-border', className)}>
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="mt-2 text-2xl font-semibold tracking-tight text-foreground tabular-nums">{value}</dd>
      {detail ? <dd className="mt-1 text-xs leading-5 text-muted">{detail}</dd> : null}
    </div>
  );
}
