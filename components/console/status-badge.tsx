import type { ReactNode } from 'react';
import { cx } from '@/components/ui/cx';

const tones = {
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-600/15 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-white/10',
  accent: 'bg-accent-soft text-accent-text ring-accent-soft-border',
  success: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950/60 dark:text-emerald-300 dark:ring-emerald-400/20',
  warning: 'bg-amber-50 text-amber-900 ring-amber-600/25 dark:bg-amber-950/60 dark:text-amber-200 dark:ring-amber-400/20',
  danger: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-950/60 dark:text-red-300 dark:ring-red-400/20',
} as const;

export type Tone = keyof typeof tones;

export function StatusBadge({ tone = 'neutral', children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  return <span className={cx('inline-flex items-center gap-1 rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset', tones[tone], className)}>{children}</span>;
}

const PAYMENT_TONES: Record<string, Tone> = {
  succeeded: 'success',
  pending: 'warning',
  failed: 'danger',
  canceled: 'neutral',
  refunded: 'neutral',
  partially_refunded: 'neutral',
  disputed: 'danger',
  success: 'success',
  error: 'danger',
  aborted: 'warning',
  refused: 'warning',
  active: 'success',
  trialing: 'accent',
  past_due: 'danger',
  incomplete: 'warning',
};

// The API's words are American ("canceled", Stripe's); people read British English in the console.
const LABELS: Record<string, string> = { canceled: 'cancelled' };

/** A status word (payment, generation, subscription) in its colour. */
export function StateBadge({ state }: { state: string }) {
  return <StatusBadge tone={PAYMENT_TONES[state] ?? 'neutral'}>{LABELS[state] ?? state.replace(/_/g, ' ')}</StatusBadge>;
}
