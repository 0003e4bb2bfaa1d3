// The usage page's filters and how they become query inputs.
export const RANGES = [
  { value: '24h', label: 'Last 24 hours', ms: 24 * 3_600_000, interval: 'hour' as const },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000, interval: 'day' as const },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000, interval: 'day' as const },
  { value: '90d', label: 'Last 90 days', ms: 90 * 86_400_000, interval: 'day' as const },
];

export type RangeValue = (typeof RANGES)[number]['value'];

export const STATUSES = [
  { value: 'success', label: 'Succeeded' },
  { value: 'error', label: 'Failed' },
  { value: 'refused', label: 'Refused (402, 429, 403, 503…)' },
  { value: 'aborted', label: 'Cancelled by the client' },
] as const;

export interface UsageFilters {
  range: RangeValue;
  model: string;
  apiKeyId: string;
  userId: string;
  /** The activity log's status filter ('' = every status). */
  status?: '' | (typeof STATUSES)[number]['value'];
}

export const DEFAULT_FILTERS: UsageFilters = { range: '7d', model: '', apiKeyId: '', userId: '' };

/** The range's start, rounded down to the minute so the query key stays stable between renders. */
export function rangeStart(range: RangeValue, now = Date.now()): string {
  const r = RANGES.find((x) => x.value === range) ?? RANGES[1];
  return new Date(Math.floor((now - r.ms) / 60_000) * 60_000).toISOString();
}

export function listInput(f: UsageFilters, from: string) {
  return {
    from,
    ...(f.model ? { model: f.model } : {}),
    ...(f.apiKeyId ? { api_key_id: f.apiKeyId } : {}),
    ...(f.userId ? { user_id: f.userId } : {}),
    ...(f.status ? { status: f.status } : {}),
  };
}

/** The activity log: the usage list with the requests refused at admission too. */
export const activityInput = (f: UsageFilters, from: string) => ({ ...listInput(f, from), include_refused: true });

export function metricsInput(f: UsageFilters, from: string) {
  const r = RANGES.find((x) => x.value === f.range) ?? RANGES[1];
  return { from, interval: r.interval, ...(f.model ? { model: f.model } : {}), ...(f.userId ? { user_id: f.userId } : {}) };
}
