import type { ComponentProps } from 'react';
import { cx } from './cx';

/** The Switchboard mark: one line in, fanned out to three providers. Decorative; name it next to it. */
export function LogoMark({ className, ...props }: ComponentProps<'svg'>) {
  return (
    <svg viewBox="0 0 32 32" fill="none" aria-hidden="true" className={cx('size-7', className)} {...props}>
      <rect width="32" height="32" rx="8" className="fill-accent" />
      <path
        d="M9 16h4c3 0 4-7 7-7h2M13 16h9M13 16c3 0 4 7 7 7h2"
        stroke="white"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="9" cy="16" r="2.25" fill="white" />
      <circle cx="23" cy="9" r="1.75" fill="white" />
      <circle cx="23" cy="16" r="1.75" fill="white" />
      <circle cx="23" cy="23" r="1.75" fill="white" />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cx('inline-flex items-center gap-2.5 font-semibold tracking-tight text-foreground', className)}>
      <LogoMark />
      <span className="text-lg">Switchboard</span>
    </span>
  );
}
