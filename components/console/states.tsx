// Loading, empty and error states, the same on every console page.
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cx('animate-pulse rounded-md bg-border/70', className)} />;
}

/** A block of placeholder lines while a query loads; announced once to screen readers. */
export function LoadingBlock({ label = 'Loading', rows = 3, className }: { label?: string; rows?: number; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={cx('space-y-3', className)}>
      <span className="sr-only">{label}…</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className={cx('h-9', i === rows - 1 && rows > 1 ? 'w-2/3' : 'w-full')} />
      ))}
    </div>
  );
}

export function EmptyState({ icon, title, children, action, className }: { icon?: ReactNode; title: string; children?: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={cx('flex flex-col items-center rounded-xl border border-dashed border-border-strong px-6 py-10 text-center', className)}>
      {icon ? (
        <div aria-hidden="true" className="mb-3 flex size-10 items-center justify-center rounded-full bg-accent-soft text-accent-text">
          {icon}
        </div>
      ) : null}
      <p className="font-semibold text-foreground">{title}</p>
      {children ? <div className="mt-1 max-w-md text-sm leading-6 text-muted">{children}</div> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}

export function ErrorState({ title = 'Could not load this', message, onRetry, className }: { title?: string; message: string; onRetry?: () => void; className?: string }) {
  return (
    <div role="alert" className={cx('flex flex-col items-start gap-3 rounded-xl border border-red-300 bg-red-50 px-4 py-4 text-sm text-red-900 sm:flex-row sm:items-center dark:border-red-900 dark:bg-red-950/50 dark:text-red-100', className)}>
      <div className="flex-1">
        <p className="font-semibold">{title}</p>
        <p className="mt-0.5 opacity-90">{message}</p>
      </div>
      {onRetry ? (
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}
