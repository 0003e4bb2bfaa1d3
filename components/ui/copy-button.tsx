'use client';

import { cx } from './cx';
import { useCopy } from './use-copy';

export function CopyButton({ text, label = 'Copy code', className }: { text: string; label?: string; className?: string }) {
  const { copied, copy } = useCopy(text);
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={label}
      className={cx(
        'inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-zinc-300 transition-colors',
        'hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400',
        className,
      )}
    >
      {copied ? (
        <svg viewBox="0 0 16 16" aria-hidden="true" className="size-3.5 fill-none stroke-current stroke-2">
          <path d="M3 8.5l3 3 7-7" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      ) : (
        <svg viewBox="0 0 16 16" aria-hidden="true" className="size-3.5 fill-none stroke-current stroke-[1.5]">
          <rect x="5" y="5" width="8.5" height="8.5" rx="1.5" />
          <path d="M10.5 5V3.5A1.5 1.5 0 009 2H3.5A1.5 1.5 0 002 3.5V9a1.5 1.5 0 001.5 1.5H5" />
        </svg>
      )}
      <span aria-hidden="true">{copied ? 'Copied' : 'Copy'}</span>
      <span role="status" className="sr-only">
        {copied ? 'Copied to clipboard' : ''}
      </span>
    </button>
  );
}
