import type { ComponentProps } from 'react';
import { cx } from './cx';

export type BadgeTone = 'accent' | 'neutral';

const tones: Record<BadgeTone, string> = {
  accent: 'border-accent-soft-border bg-accent-soft text-accent-text',
  neutral: 'border-border bg-surface text-muted',
};

export function Badge({ tone = 'neutral', className, ...props }: ComponentProps<'span'> & { tone?: BadgeTone }) {
  return (
    <span
      className={cx('inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-xs font-medium', tones[tone], className)}
      {...props}
    />
  );
}
