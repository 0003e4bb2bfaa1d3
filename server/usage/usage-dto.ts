// Usage records as clients see them: one row per generation (failed ones too, and requests refused at
// admission, which the usage aggregates leave out). Money is a USD number
// plus the exact micro-dollar amount as a string.
import { z } from 'zod';
import { microsToUsd } from '@/server/ledger/money';

/** The attemptLog column as written by settlement (gateway/open-route.ts attemptLog); anything else reads as none. */
const attemptLogSchema = z.array(z.object({ provider: z.string(), model: z.string(), status: z.number().int().nullable() })).nullable().catch(null);

/** refused: turned away at admission (402, 429, 403, 400, 503 before any provider was called); never charged. */
export type UsageStatusName = 'success' | 'error' | 'aborted' | 'refused';

export const usageRecordSelect = {
  id: true,
  createdAt: true,
  accountId: true,
  userId: true,
  apiKeyId: true,
  model: true,
  provider: true,
  upstreamModel: true,
  upstreamId: true,
  providerKey: true,
  attempts: true,
  attemptLog: true,
  status: true,
  finishReason: true,
  streamed: true,
  httpStatus: true,
  promptTokens: true,
  completionTokens: true,
  cachedTokens: true,
  cacheWriteTokens: true,
  reasoningTokens: true,
  costMicros: true,
  cacheSavingsMicros: true,
  unbilledMicros: true,
  providerCostMicros: true,
  byok: true,
  latencyMs: true,
  ttftMs: true,
  errorCode: true,
  errorMessage: true,
  httpReferer: true,
  xTitle: true,
  taskId: true,
  requestId: true,
} as const;

export interface UsageRecordRow {
  id: string;
  createdAt: Date;
  accountId: string;
  userId: string | null;
  apiKeyId: string | null;
  model: string;
  provider: string;
  upstreamModel: string;
  upstreamId: string | null;
  providerKey: string | null;
  attempts: number;
  /** Each attempt when it failed over (provider, model, upstream status), else null. */
  attemptLog: unknown;
  status: 'SUCCESS' | 'ERROR' | 'ABORTED' | 'REFUSED';
  finishReason: string | null;
  streamed: boolean;
  /** The HTTP status the client got; null on records older than this column. */
  httpStatus: number | null;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costMicros: bigint;
  cacheSavingsMicros: bigint;
  /** The operator's loss (upstream usage beyond the charge, which never exceeds the reservation). */
  unbilledMicros: bigint;
  /** What the provider reported the generation cost (OpenRouter's usage.cost); null when it did not say. */
  providerCostMicros: bigint | null;
  /** Served with the account's own provider key: charged the BYOK fee. */
  byok: boolean;
  latencyMs: number;
  ttftMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  httpReferer: string | null;
  xTitle: string | null;
  taskId: string | null;
  requestId: string | null;
}

export function toUsageRecordDto(r: UsageRecordRow) {
  return {
    id: r.id,
    created_at: r.createdAt.toISOString(),
    account_id: r.accountId,
    user_id: r.userId,
    api_key_id: r.apiKeyId,
    model: r.model,
    provider: r.provider,
    attempts: r.attempts,
    status: r.status.toLowerCase() as UsageStatusName,
    http_status: r.httpStatus,
    finish_reason: r.finishReason,
    streamed: r.streamed,
    prompt_tokens: r.promptTokens,
    completion_tokens: r.completionTokens,
    cached_tokens: r.cachedTokens,
    cache_write_tokens: r.cacheWriteTokens,
    reasoning_tokens: r.reasoningTokens,
    total_tokens: r.promptTokens + r.completionTokens,
    cost: microsToUsd(r.costMicros),
    cost_micros: r.costMicros.toString(),
    cache_savings: microsToUsd(r.cacheSavingsMicros),
    unbilled_cost: microsToUsd(r.unbilledMicros),
    byok: r.byok,
    latency_ms: r.latencyMs,
    ttft_ms: r.ttftMs,
    error: r.errorCode ? { code: r.errorCode, message: r.errorMessage ?? '' } : null,
    app_title: r.xTitle,
    http_referer: r.httpReferer,
    task_id: r.taskId,
  };
}
export type UsageRecordDto = ReturnType<typeof toUsageRecordDto>;

/**
 * One generation in OpenRouter's GET /generation shape (names such as total_cost, tokens_prompt,
 * native_tokens_reasoning, provider_name, latency, origin), plus our status, error, ttft and task id.
 */
export function toGenerationDto(r: UsageRecordRow) {
  return {
    id: r.id,
    created_at: r.createdAt.toISOString(),
    model: r.model,
    provider_name: r.provider,
    upstream_model: r.upstreamModel,
    upstream_id: r.upstreamId,
    provider_key: r.providerKey,
    attempts: r.attempts,
    attempt_log: attemptLogSchema.parse(r.attemptLog ?? null),
    account_id: r.accountId,
    user_id: r.userId,
    api_key_id: r.apiKeyId,
    streamed: r.streamed,
    cancelled: r.status === 'ABORTED',
    status: r.status.toLowerCase() as UsageStatusName,
    http_status: r.httpStatus,
    finish_reason: r.finishReason,
    tokens_prompt: r.promptTokens,
    tokens_completion: r.completionTokens,
    native_tokens_cached: r.cachedTokens,
    native_tokens_cache_write: r.cacheWriteTokens,
    native_tokens_reasoning: r.reasoningTokens,
    total_cost: microsToUsd(r.costMicros),
    total_cost_micros: r.costMicros.toString(),
    cache_discount: microsToUsd(r.cacheSavingsMicros),
    unbilled_cost: microsToUsd(r.unbilledMicros),
    unbilled_cost_micros: r.unbilledMicros.toString(),
    provider_cost: r.providerCostMicros === null ? null : microsToUsd(r.providerCostMicros),
    provider_cost_micros: r.providerCostMicros?.toString() ?? null,
    byok: r.byok,
    latency: r.latencyMs,
    ttft: r.ttftMs,
    error: r.errorCode ? { code: r.errorCode, message: r.errorMessage ?? '' } : null,
    origin: r.httpReferer ?? '',
    app_title: r.xTitle,
    task_id: r.taskId,
    request_id: r.requestId,
  };
}
export type GenerationDto = ReturnType<typeof toGenerationDto>;
