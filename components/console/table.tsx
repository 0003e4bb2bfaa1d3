import type { ComponentProps } from 'react';
import { cx } from '@/components/ui/cx';

/** A table that scrolls sideways on narrow screens instead of squeezing its columns. */
export function Table({ className, label, ...props }: ComponentProps<'table'> & { label: string }) {
  return (
    // `relative`: visually hidden (absolutely positioned) cell text stays inside the scroll box instead of
    // widening the page on a phone.
    <div className="relative -mx-5 overflow-x-auto sm:-mx-6" role="region" aria-label={label} tabIndex={0}>
      <table className={cx('w-full min-w-max border-collapse text-left text-sm', className)} {...props} />
    </div>
  );
}

export function Th({ className, ...props }: ComponentProps<'th'>) {
  return <th scope="col" className={cx('border-b border-border px-3 py-2.5 text-xs font-medium tracking-wide whitespace-nowrap text-muted uppercase first:pl-5 last:pr-5 sm:first:pl-6 sm:last:pr-6', className)} {...props} />;
}

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cx('border-b border-border px-3 py-3 align-middle text-foreground first:pl-5 last:pr-5 sm:first:pl-6 sm:last:pr-6 [tr:last-child_&]:border-b-0', className)} {...props} />;
}
