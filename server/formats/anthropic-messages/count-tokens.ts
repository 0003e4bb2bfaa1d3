// POST /api/v1/messages/count_tokens: how many input tokens a Messages request would cost, without a
// generation (nothing is reserved or charged). Where the model is served by Anthropic, Anthropic's own
// /v1/messages/count_tokens answers with the endpoint's key; otherwise — or when Anthropic cannot be asked —
// a real tokenizer estimates it (count-tokens-locally.ts).
import { authenticateBearer, type Principal } from '@/server/auth/authenticate-bearer';
import { AppError } from '@/server/errors';
import type { CancelSignal } from '@/server/http/cancel-signal';
import { contextFor, keyOrder } from '@/server/gateway/open-route';
import { UpstreamHttpError } from '@/server/gateway/upstream-errors';
import type { RequestTrace } from '@/server/observability/request-trace';
import { anthropicHeaders, anthropicUrl } from '@/server/providers/anthropic/convert-native-request';
import { resolveModelOrThrow } from '@/server/routing/plan-route';
import type { RoutingModel } from '@/server/routing/routing-table';
import type { Runtime } from '@/server/runtime/runtime';
import { convertMessagesRequest } from './convert-messages-request';
import { countTokensLocally } from './count-tokens-locally';
import { parseCountTokensRequest } from './messages-request-schema';

export interface CountTokensInput {
  /** `Authorization` (or `x-api-key` as a Bearer value: admit.ts authorizationHeader). */
  authorization: string | undefined;
  /** The body as /messages reads it (admit.ts readJsonObject), read once the caller is authenticated. */
  readBody(): Promise<Record<string, unknown>>;
  /** The client's `anthropic-beta` and `anthropic-version` headers, forwarded to Anthropic. */
  beta?: string;
  version?: string;
  signal: CancelSignal;
  /** The request's server span when tracing is on: the call to Anthropic is its child, and carries its `traceparent`. */
  trace?: RequestTrace;
}

/** Fields of a generation that Anthropic's count_tokens refuses ("Extra inputs are not permitted"). */
const GENERATION_ONLY = ['max_tokens', 'stream', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'metadata', 'service_tier'];

export async function countMessageTokens(rt: Runtime, input: CountTokensInput): Promise<{ input_tokens: number }> {
  const principal = await authenticateBearer(input.authorization);
  await rt.rateLimiter.check(principal.apiKey?.id ?? `user:${principal.userId}`);
  // In /messages' order: 401 and 429 before anything is said about the body (415, 413, 400).
  const body = await input.readBody();
  const req = convertMessagesRequest(parseCountTokensRequest(body), body, { beta: input.beta, version: input.version });

  await rt.routing.ready;
  const model = resolveModelOrThrow(rt.routing.table(), req.model);
  authorizeModel(principal, model);
  const fromAnthropic = await askAnthropic(rt, model, body, input);
  return { input_tokens: fromAnthropic ?? (await countTokensLocally(req)) };
}

function authorizeModel(principal: Principal, model: RoutingModel): void {
  const allowed = principal.apiKey?.allowedModels ?? [];
  if (allowed.length > 0 && !allowed.includes(model.id) && !model.aliases.some((a) => allowed.includes(a))) {
    throw new AppError('forbidden', `This API key may not use ${model.id}; it is limited to: ${allowed.join(', ')}`, { model: model.id });
  }
}

/**
 * Anthropic's count, or null when the model has no usable Anthropic endpoint or Anthropic could not answer
 * (down, rate limited, our key refused): an estimate then serves the client better than an error. A request
 * Anthropic finds invalid is the client's 400.
 */
async function askAnthropic(rt: Runtime, model: RoutingModel, body: Record<string, unknown>, input: CountTokensInput): Promise<number | null> {
  const endpoint = model.endpoints.find((e) => e.provider.adapter.id === 'anthropic' && e.provider.configured && e.provider.enabled);
  if (!endpoint) return null;
  const candidate = { model, endpoint };
  const key = keyOrder(candidate, rt.health)[0];
  const ctx = contextFor(candidate, key);
  const upstreamBody: Record<string, unknown> = { ...body, model: endpoint.upstreamModel };
  for (const field of GENERATION_ONLY) delete upstreamBody[field];
  const request = { url: anthropicUrl(ctx.config.baseUrl, 'messages/count_tokens'), method: 'POST' as const, headers: { ...anthropicHeaders(ctx, input.beta, input.version), ...endpoint.provider.headers }, body: JSON.stringify(upstreamBody) };
  const span = input.trace?.attempt({ provider: endpoint.provider.id, key: key?.id ?? null, model: model.id, url: request.url });
  let res;
  try {
    res = await rt.upstream.send(span ? span.inject(request) : request, input.signal, endpoint.provider.timeoutMs);
  } catch {
    span?.end(null, input.signal.aborted ? 'aborted' : 'network');
    return null;
  }
  const text = await res.body.text().catch(() => '');
  if (res.statusCode >= 200 && res.statusCode < 300) {
    span?.end(res.statusCode);
    const count = (() => {
      try {
        return (JSON.parse(text) as { input_tokens?: unknown }).input_tokens;
      } catch {
        return undefined;
      }
    })();
    return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null;
  }
  const failure = endpoint.provider.adapter.convertError(res.statusCode, text, res.headers);
  // Recorded like a generation's failed attempt (switchboard.failover_reason); what follows is the local estimate or the client's 400.
  span?.end(res.statusCode, failure.kind);
  if (failure.kind === 'bad_request' || failure.kind === 'context_length_exceeded') throw new UpstreamHttpError(failure, res.statusCode, endpoint.provider.id);
  return null;
}
