import type { ReactNode } from 'react';
import { cx } from '@/components/ui/cx';

const tones = {
  error: 'border-red-300 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100',
  warning: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100',
  info: 'border-accent-soft-border bg-accent-soft text-foreground',
} as const;

export type NoticeTone = keyof typeof tones;

/** An inline message. Errors are announced (role="alert"), the rest politely (role="status"). */
export function Notice({ tone = 'info', title, children, action, className }: { tone?: NoticeTone; title?: ReactNode; children?: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('flex flex-col gap-3 rounded-xl border px-4 py-3 text-sm leading-6 sm:flex-row sm:items-center', tones[tone], className)}>
      <div className="min-w-0 flex-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className={title ? 'opacity-90' : undefined}>{children}</div> : null}
      </div>
      {action ? <div className="shrink-0">{action}</div> : null}
    </div>
  );
}
