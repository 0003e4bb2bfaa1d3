import type { ComponentProps } from 'react';
import { cx } from './cx';

/** A bordered surface. Content decides its own padding through `className` (default: p-6). */
export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cx('rounded-2xl border border-border bg-surface-raised p-6 shadow-xs', className)} {...props} />;
}

export function CardTitle({ className, ...props }: ComponentProps<'h3'>) {
  return <h3 className={cx('text-base font-semibold tracking-tight text-foreground', className)} {...props} />;
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cx('mt-2 text-sm leading-6 text-muted', className)} {...props} />;
}
