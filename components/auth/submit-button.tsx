'use client';

import type { ComponentProps } from 'react';
import { useFormStatus } from 'react-dom';
import { Button, type ButtonVariant } from '@/components/ui/button';

/** A submit button that disables itself and says what is happening while its form's action runs. */
export function SubmitButton({ children, pendingLabel, variant, pending: forced, className, ...props }: ComponentProps<'button'> & { pendingLabel: string; variant?: ButtonVariant; pending?: boolean }) {
  const status = useFormStatus();
  const pending = forced ?? status.pending;
  return (
    <Button type="submit" variant={variant} disabled={pending || props.disabled} aria-disabled={pending} className={className} {...props}>
      {pending ? pendingLabel : children}
    </Button>
  );
}
