'use client';

import { useEffect, useState } from 'react';
import { cx } from './cx';

/** Copies `text`. Falls back to a hidden textarea where the Clipboard API is missing (plain-HTTP origins). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function CopyButton({ text, label = 'Copy code', className }: { text: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <button
      type="button"
      onClick={async () => setCopied(await copyText(text))}
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
