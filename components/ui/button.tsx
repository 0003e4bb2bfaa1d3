import Link from 'next/link';
import type { ComponentProps } from 'react';
import { cx } from './cx';

/** `on-dark` and `ghost-on-dark` are for dark bands that stay dark in both colour schemes. */
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'on-dark' | 'ghost-on-dark';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-medium whitespace-nowrap transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring ' +
  'disabled:pointer-events-none disabled:opacity-50';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-accent-foreground shadow-sm hover:bg-accent-hover',
  secondary: 'border border-border-strong bg-surface-raised text-foreground shadow-sm hover:bg-surface',
  ghost: 'text-muted hover:bg-surface hover:text-foreground',
  'on-dark': 'bg-white text-zinc-950 shadow-sm hover:bg-zinc-200',
  'ghost-on-dark': 'text-white hover:bg-white/10',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
};

/** The classes of a button, for the rare element that is neither `Button` nor `ButtonLink`. */
export function buttonClasses({ variant = 'primary', size = 'md' }: { variant?: ButtonVariant; size?: ButtonSize } = {}): string {
  return cx(base, variants[variant], sizes[size]);
}

type StyleProps = { variant?: ButtonVariant; size?: ButtonSize };

export function Button({ variant, size, className, type = 'button', ...props }: ComponentProps<'button'> & StyleProps) {
  return <button type={type} className={cx(buttonClasses({ variant, size }), className)} {...props} />;
}

/** A link that looks like a button: navigation stays a real `<a>` so it works without JavaScript. */
export function ButtonLink({ variant, size, className, ...props }: ComponentProps<typeof Link> & StyleProps) {
  return <Link className={cx(buttonClasses({ variant, size }), className)} {...props} />;
}
