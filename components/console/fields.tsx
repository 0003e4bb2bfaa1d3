// Labelled form controls with hints and errors wired for screen readers (aria-describedby, aria-invalid).
import type { ComponentProps, ReactNode } from 'react';
import { cx } from '@/components/ui/cx';

export const controlClasses =
  'block w-full rounded-lg border border-border-strong bg-background px-3 text-sm text-foreground shadow-xs ' +
  'placeholder:text-muted focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring ' +
  'aria-[invalid=true]:border-red-500 disabled:cursor-not-allowed disabled:opacity-60';

type Decorations = { id: string; label: ReactNode; hint?: ReactNode; error?: string; className?: string; labelHidden?: boolean };

function describedBy(id: string, hint?: ReactNode, error?: string) {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

function Frame({ id, label, hint, error, className, labelHidden, children }: Decorations & { children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className={cx('block text-sm font-medium text-foreground', labelHidden && 'sr-only')}>
        {label}
      </label>
      <div className={labelHidden ? '' : 'mt-1.5'}>{children}</div>
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs leading-5 text-muted">
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

export function TextField({ id, label, hint, error, className, labelHidden, prefix, ...input }: ComponentProps<'input'> & Decorations & { prefix?: string }) {
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className} labelHidden={labelHidden}>
      <div className="relative">
        {prefix ? <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted">{prefix}</span> : null}
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          className={cx(controlClasses, 'h-10', prefix && 'pl-7')}
          {...input}
        />
      </div>
    </Frame>
  );
}

export function SelectField({ id, label, hint, error, className, labelHidden, children, ...select }: ComponentProps<'select'> & Decorations) {
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className} labelHidden={labelHidden}>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} className={cx(controlClasses, 'h-10 pr-8')} {...select}>
        {children}
      </select>
    </Frame>
  );
}

export function TextareaField({ id, label, hint, error, className, labelHidden, controlClassName, ...textarea }: ComponentProps<'textarea'> & Decorations & { controlClassName?: string }) {
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className} labelHidden={labelHidden}>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} className={cx(controlClasses, 'py-2 leading-6', controlClassName)} {...textarea} />
    </Frame>
  );
}

/** A checkbox with its label to the right and an optional description below. */
export function CheckboxField({ id, label, description, className, ...input }: Omit<ComponentProps<'input'>, 'type'> & { id: string; label: ReactNode; description?: ReactNode }) {
  return (
    <div className={cx('flex gap-3', className)}>
      <input id={id} type="checkbox" aria-describedby={description ? `${id}-description` : undefined} className="mt-0.5 size-4 shrink-0 rounded border-border-strong accent-[var(--accent)]" {...input} />
      <div className="text-sm leading-5">
        <label htmlFor={id} className="font-medium text-foreground">
          {label}
        </label>
        {description ? (
          <p id={`${id}-description`} className="text-muted">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
