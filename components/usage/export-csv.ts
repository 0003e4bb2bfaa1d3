// CSV export of the filtered usage: pages through the same tRPC procedure as the table (200 rows a page,
// up to 20,000 rows) and hands the browser a file.
import { csvText } from '@/server/http/csv';
import type { UsageRecord } from './usage-table';

export const EXPORT_MAX_ROWS = 20_000;

const COLUMNS = [
  'created_at', 'id', 'model', 'provider', 'status', 'finish_reason', 'api_key', 'member', 'prompt_tokens', 'completion_tokens',
  'cached_tokens', 'reasoning_tokens', 'cost_usd', 'latency_ms', 'ttft_ms', 'error_code', 'app_title', 'http_status', 'error_message',
] as const;

export function usageCsv(rows: UsageRecord[], keyNames: Map<string, string>, memberNames?: Map<string, string>): string {
  return csvText(
    COLUMNS,
    rows.map((r): Record<(typeof COLUMNS)[number], unknown> => ({
      created_at: r.created_at,
      id: r.id,
      model: r.model,
      provider: r.provider,
      status: r.status,
      finish_reason: r.finish_reason,
      api_key: r.api_key_id ? (keyNames.get(r.api_key_id) ?? r.api_key_id) : '',
      member: r.user_id ? (memberNames?.get(r.user_id) ?? r.user_id) : '',
      prompt_tokens: r.prompt_tokens,
      completion_tokens: r.completion_tokens,
      cached_tokens: r.cached_tokens,
      reasoning_tokens: r.reasoning_tokens,
      cost_usd: r.cost_micros === '0' ? '0' : (Number(r.cost_micros) / 1e6).toFixed(6),
      latency_ms: r.latency_ms,
      ttft_ms: r.ttft_ms,
      error_code: r.error?.code,
      app_title: r.app_title,
      http_status: r.http_status,
      error_message: r.error?.message,
    })),
  );
}

export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
