import type { ComponentProps } from 'react';
import { cx } from '@/components/ui/cx';

export const inputClasses =
  'block h-10 w-full rounded-lg border border-border-strong bg-background px-3 text-sm text-foreground shadow-xs ' +
  'placeholder:text-muted focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring ' +
  'aria-[invalid=true]:border-red-500 disabled:opacity-60';

/** A labelled input with an optional hint and error, wired with aria-describedby / aria-invalid. */
export function Field({ label, hint, error, id, className, ...input }: ComponentProps<'input'> & { id: string; label: string; hint?: string; error?: string }) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-foreground">
        {label}
      </label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className={cx(inputClasses, 'mt-1.5')} {...input} />
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 text-xs font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
