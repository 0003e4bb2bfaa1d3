'use client';

// An amount in USD and when its window restarts: the default member limit and one member's limit share it.
import { SelectField, TextField } from '@/components/console/fields';

export type Reset = 'daily' | 'weekly' | 'monthly' | 'never';

export function LimitFields(p: { idPrefix: string; amount: string; reset: Reset; onAmount: (v: string) => void; onReset: (v: Reset) => void; disabled?: boolean; errors: Record<string, string>; amountLabel: string }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        id={`${p.idPrefix}-amount`}
        label={p.amountLabel}
        prefix="$"
        inputMode="decimal"
        value={p.amount}
        placeholder="No limit"
        disabled={p.disabled}
        onChange={(e) => p.onAmount(e.target.value)}
        hint="Leave empty for no limit; 0 stops spending."
        error={p.errors.amount}
        data-autofocus
      />
      <SelectField id={`${p.idPrefix}-reset`} label="Resets" value={p.reset} disabled={p.disabled || p.amount.trim() === ''} onChange={(e) => p.onReset(e.target.value as Reset)} error={p.errors.reset}>
        <option value="daily">Daily (UTC)</option>
        <option value="weekly">Weekly</option>
        <option value="monthly">Monthly</option>
        <option value="never">Never (lifetime limit)</option>
      </SelectField>
    </div>
  );
}

/** The amount field as the API wants it: null for none, a number, or an error message. */
export function parseAmount(amount: string): { value: number | null } | { error: string } {
  const text = amount.trim();
  if (text === '') return { value: null };
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) return { error: 'Enter an amount in USD such as 25 or 2.50, or leave it empty for no limit' };
  return { value: n };
}

export const resetOf = (reset: Reset): 'daily' | 'weekly' | 'monthly' | null => (reset === 'never' ? null : reset);
