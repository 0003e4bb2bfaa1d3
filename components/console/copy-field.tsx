'use client';

import { useEffect, useId, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { useCopy } from '@/components/ui/use-copy';

/** A copy button for light surfaces (components/ui/copy-button is for the dark code frames). */
export function CopyButton({ text, label, className, size = 'sm' }: { text: string; label: string; className?: string; size?: 'sm' | 'md' }) {
  const { copied, copy } = useCopy(text);
  return (
    <Button variant="secondary" size={size} onClick={copy} aria-label={label} className={className}>
      <span aria-hidden="true">{copied ? 'Copied' : 'Copy'}</span>
      <span role="status" className="sr-only">
        {copied ? 'Copied to clipboard' : ''}
      </span>
    </Button>
  );
}

/** A read-only value in a monospace box with a copy button (secrets, links); `focusOnMount` for a value just made. */
export function CopyField({ value, label, className, focusOnMount }: { value: string; label: string; className?: string; focusOnMount?: boolean }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusOnMount) input.current?.focus();
  }, [focusOnMount]);
  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="flex items-stretch gap-2">
        <input
          ref={input}
          id={id}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className={cx('h-10 min-w-0 flex-1 rounded-lg border border-border-strong bg-surface px-3 font-mono text-sm text-foreground', 'focus-visible:outline-2 focus-visible:outline-ring')}
        />
        <CopyButton text={value} label={`Copy ${label}`} size="md" />
      </div>
    </div>
  );
}
