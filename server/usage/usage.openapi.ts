import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { generationQuery } from './get-generation';
import { metricsQuery } from './get-usage-metrics';
import { memberUsageQuery, organizationUsageQuery, userUsageQuery } from './usage-query';

const status = z
  .enum(['success', 'error', 'aborted', 'refused'])
  .describe('success; error: failed after admission (e.g. every upstream failed); aborted: the client left; refused: turned away at admission (402, 429, 403, 400/404, 503 before any provider was called), never charged');
const httpStatus = z.number().int().nullable().describe('The HTTP status the client got (200 once an answer or a stream started, 499 when the client left first); null on records made before it was kept');
const error = z.object({ code: z.string(), message: z.string() }).nullable();
const visibility = z.enum(['account', 'own']).describe('account: every member’s rows; own: only yours (your role lacks usage:read-all)');

export const usageRecordSchema = z
  .object({
    id: z.string().describe('Generation id (gen-…)'),
    created_at: z.string(),
    account_id: z.string(),
    user_id: z.string().nullable(),
    api_key_id: z.string().nullable(),
    model: z.string(),
    provider: z.string().describe('The provider that served it, or the one asked when none did'),
    attempts: z.number().int().describe('Upstream requests made, the serving one included: more than 1 means the request failed over'),
    status,
    http_status: httpStatus,
    finish_reason: z.string().nullable(),
    streamed: z.boolean(),
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    cached_tokens: z.number().int(),
    cache_write_tokens: z.number().int(),
    reasoning_tokens: z.number().int(),
    total_tokens: z.number().int(),
    cost: z.number().describe('USD charged'),
    cost_micros: z.string(),
    cache_savings: z.number().describe('USD saved by prompt caching'),
    byok: z.boolean().describe("Served with the account's own provider key (BYOK): cost is the BYOK fee"),
    latency_ms: z.number().int(),
    ttft_ms: z.number().int().nullable().describe('Time to first token'),
    error,
    app_title: z.string().nullable().describe('X-Title header'),
    http_referer: z.string().nullable().describe('HTTP-Referer header'),
    task_id: z.string().nullable().describe('X-Task-ID header'),
  })
  .meta({ id: 'UsageRecord' });

const usageGroupSchema = z
  .object({
    day: z.string().optional().describe('YYYY-MM-DD (UTC), with group_by=day'),
    model: z.string().optional().describe('with group_by=model'),
    requests: z.number().int(),
    errors: z.number().int(),
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    cached_tokens: z.number().int(),
    reasoning_tokens: z.number().int(),
    cost: z.number(),
    cost_micros: z.string(),
    cache_savings: z.number(),
    cache_savings_micros: z.string(),
  })
  .meta({ id: 'UsageGroup' });

const usageResponse = z.union([
  z.object({ data: z.array(usageRecordSchema), next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'), visibility }),
  z.object({ group_by: z.enum(['day', 'model']), data: z.array(usageGroupSchema), next_cursor: z.null(), visibility }),
]);

const usageDescription =
  'Newest first, `limit` rows per page (max 200) with an opaque `next_cursor`. Filters combine with AND; `from` is inclusive, `to` exclusive. ' +
  'Requests refused at admission (status `refused`: 402, 429, 403, 400/404, 503; cost 0) are listed only with `include_refused=true` or `status=refused`, the request log the console calls Activity. ' +
  'With `group_by=day|model` the database aggregates instead (requests, tokens, cost, cache savings per UTC day or per model, never counting refused requests; not paginated, at most 1000 groups).';
const tags = ['Usage'];

defineEndpoint({ method: 'get', path: '/users/{id}/usages', summary: 'Your usage history (every account you used)', description: usageDescription, tags, params: z.object({ id: z.string() }), query: userUsageQuery, response: usageResponse, errors: [404] });
defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/usages',
  summary: 'Usage of an organization',
  description: `${usageDescription} Owners, admins and billing members see every member's usage (filter with user_id); other members see their own.`,
  tags,
  params: z.object({ id: z.string() }),
  query: organizationUsageQuery,
  response: usageResponse,
  errors: [403, 404],
});
defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/members/{memberId}/usages',
  summary: "A member's usage of the organization",
  description: `${usageDescription} \`memberId\` is the member's user id. Needs usage:read-all unless it is you.`,
  tags,
  params: z.object({ id: z.string(), memberId: z.string() }),
  query: memberUsageQuery,
  response: usageResponse,
  errors: [403, 404],
});

const breakdown = { requests: z.number().int(), spend: z.number().describe('USD'), spend_micros: z.string(), total_tokens: z.number().int() };
const percentiles = z.object({ p50: z.number().int().nullable(), p95: z.number().int().nullable() });
const stats = {
  requests: z.number().int(),
  errors: z.number().int(),
  aborted: z.number().int().describe('Cancelled by the client (not errors)'),
  error_rate: z.number().describe('errors / requests'),
  spend: z.number().describe('USD'),
  spend_micros: z.string(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cached_tokens: z.number().int(),
  reasoning_tokens: z.number().int(),
  cache_hit_ratio: z.number().describe('cached_tokens / prompt_tokens'),
  cache_savings: z.number().describe('USD saved by prompt caching'),
  cache_savings_micros: z.string(),
  latency_ms: percentiles.describe('Over successful generations'),
  ttft_ms: percentiles.describe('Time to first token, over successful generations'),
};
defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/metrics',
  summary: 'Usage metrics of an organization',
  description:
    'Totals, a gap-free time series (`interval` hour or UTC day; at most 744 hours or 366 days) and breakdowns per model, per API key and per member (top 100 by spend each). Requests refused at admission are not counted. ' +
    'Members without usage:read-all get the same figures over their own usage (`visibility: own`).',
  tags,
  params: z.object({ id: z.string() }),
  query: metricsQuery,
  response: z.object({
    from: z.string(),
    to: z.string(),
    interval: z.enum(['hour', 'day']),
    visibility,
    totals: z.object(stats),
    series: z.array(z.object({ bucket: z.string().describe('Bucket start (UTC)'), ...stats })),
    by_model: z.array(z.object({ model: z.string(), ...stats })),
    by_key: z.array(z.object({ api_key_id: z.string().nullable().describe('null: the console or an account token'), ...breakdown })).describe('Top 100 API keys by spend'),
    by_member: z.array(z.object({ user_id: z.string().nullable().describe('null: a deleted user'), ...breakdown })).describe('Top 100 members by spend'),
  }),
  errors: [404],
});

defineEndpoint({
  method: 'get',
  path: '/generation',
  summary: 'One generation (OpenRouter-style record)',
  description: 'For the user who made it, or a member of its account with usage:read-all; 404 otherwise. Available a moment after the response ends.',
  tags,
  query: generationQuery,
  response: z.object({
    data: z.object({
      id: z.string(),
      created_at: z.string(),
      model: z.string(),
      provider_name: z.string(),
      upstream_model: z.string(),
      upstream_id: z.string().nullable(),
      account_id: z.string(),
      user_id: z.string().nullable(),
      api_key_id: z.string().nullable(),
      streamed: z.boolean(),
      cancelled: z.boolean(),
      status,
      http_status: httpStatus,
      finish_reason: z.string().nullable(),
      tokens_prompt: z.number().int(),
      tokens_completion: z.number().int(),
      native_tokens_cached: z.number().int(),
      native_tokens_cache_write: z.number().int(),
      native_tokens_reasoning: z.number().int(),
      total_cost: z.number().describe('USD'),
      total_cost_micros: z.string(),
      cache_discount: z.number().describe('USD saved by prompt caching'),
      provider_key: z.string().nullable().describe("The provider key that served, by its id in the routing configuration (key_env, or key-<n>); null for providers without keys"),
      attempts: z.number().int().describe('Upstream requests made, the serving one included: more than 1 means the request failed over'),
      attempt_log: z
        .array(z.object({ provider: z.string(), model: z.string(), status: z.number().int().nullable().describe("The upstream's HTTP status; null for a connection error or timeout") }))
        .nullable()
        .describe('Each upstream request in order, the serving one last, when the request failed over; null when it made one attempt or none'),
      unbilled_cost: z
        .number()
        .describe(
          "USD the upstream's reported usage costs beyond total_cost, absorbed by the operator: a charge never exceeds the request's reservation (prompt estimate + max output tokens), e.g. when the provider ignored max_tokens",
        ),
      unbilled_cost_micros: z.string(),
      provider_cost: z
        .number()
        .nullable()
        .describe("USD the provider itself reported the request cost (OpenRouter's usage.cost, rounded up to the micro-dollar); null when the provider does not report a cost. total_cost is what was charged, at this gateway's prices"),
      provider_cost_micros: z.string().nullable(),
      byok: z.boolean().describe("Served with the account's own provider key (BYOK): total_cost is the BYOK fee (BYOK_FEE_PERCENT of the list price)"),
      latency: z.number().int().describe('ms from request to the end of the response'),
      ttft: z.number().int().nullable().describe('ms to the first token'),
      error,
      origin: z.string().describe('HTTP-Referer'),
      app_title: z.string().nullable().describe('X-Title'),
      task_id: z.string().nullable().describe('X-Task-ID'),
      request_id: z.string().nullable(),
    }),
  }),
  errors: [404],
});
