import type { ReactNode } from 'react';
import { cx } from '@/components/ui/cx';

const tones = {
  error: 'border-red-300 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200',
  info: 'border-border bg-surface text-foreground',
} as const;

/** A message above or below a form. Errors are announced (role="alert"); others are polite status. */
export function FormAlert({ tone = 'error', children, className }: { tone?: keyof typeof tones; children: ReactNode; className?: string }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('rounded-lg border px-4 py-3 text-sm leading-6', tones[tone], className)}>
      {children}
    </div>
  );
}
