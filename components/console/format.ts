// Display formatting shared by the console pages. Money arrives as USD numbers (the services' DTOs).
const usd2 = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** $12.34; amounts under a cent keep their significant digits ($0.000042), so a cheap request is not "$0.00". */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  if (value !== 0 && Math.abs(value) < 0.01) return `${value < 0 ? '-' : ''}$${Math.abs(value).toPrecision(2).replace(/0+$/, '')}`;
  return usd2.format(value);
}

export const formatInteger = (n: number | null | undefined) => (n === null || n === undefined ? '—' : integer.format(n));

/** 1.2K, 3.4M — for axes and tight cells. */
export const formatCompact = (n: number) => compact.format(n);

export function formatPercent(ratio: number | null | undefined, digits = 0): string {
  if (ratio === null || ratio === undefined) return '—';
  return `${(ratio * 100).toFixed(digits)}%`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}

/** Nov 21, 2026 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

/** Nov 21, 14:05 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
}

/** "3 minutes ago", "in 6 days" */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'Never';
  const diff = new Date(iso).getTime() - now;
  const abs = Math.abs(diff);
  const rtf = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 365 * 86_400_000],
    ['month', 30 * 86_400_000],
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ];
  for (const [unit, ms] of units) if (abs >= ms) return rtf.format(Math.round(diff / ms), unit);
  return 'just now';
}

/** A price per million tokens: $0.15, $0.075, $15.00 — cents always, and the digits a fraction of a cent needs. */
export function formatPrice(usd: number): string {
  if (usd === 0) return 'Free';
  const digits = usd >= 1 ? 2 : Math.min(6, Math.max(2, -Math.floor(Math.log10(usd)) + 2));
  return `$${usd.toFixed(digits).replace(/(\.\d\d\d*?)0+$/, '$1')}`;
}

/** A model's price per token (catalog strings) as USD per million tokens. */
export const perMillion = (perToken: string | number) => Number(perToken) * 1_000_000;
