// Admission for POST /api/v1/embeddings, in the chat path's order and with its pieces (gateway/admit.ts):
// authenticate (401) → rate limit (429; the key's own limits, checked again with the reservation) → parse (400/413/415) → resolve model (404) → authorize it (403) →
// kind and endpoints (400/503) → convert for the primary endpoint (400) → reserve the worst case (402).
// Two round trips for an API key (authenticate, reserve): embeddings are not on the latency-critical path
// the one-statement admission (admitApiKey) was built for.
import { authenticateBearer, bearerFromHeader, type Principal } from '@/server/auth/authenticate-bearer';
import { AppError } from '@/server/errors';
import { authorizationHeader, authorizeModel, rateLimitSubject, readJsonObject, type AdmissionTrace } from '@/server/gateway/admit';
import { contextFor, keyOrder, type PreparedAttempt, type RouteTargets } from '@/server/gateway/open-route';
import { applyAccountPolicy, byokCharge } from '@/server/gateway/account-policy';
import type { ChatTransport } from '@/server/gateway/transport';
import { newGenerationId } from '@/server/http/request-id';
import { tokenCostMicros } from '@/server/ledger/money';
import { reserveCredits } from '@/server/ledger/reserve';
import { planRoute, resolveModelOrThrow, type RouteCandidate } from '@/server/routing/plan-route';
import type { RoutingKey, RoutingModel } from '@/server/routing/routing-table';
import type { Runtime } from '@/server/runtime/runtime';
import { embeddingsConverterFor } from './embeddings-converters';
import { parseEmbeddingsRequest, type EmbeddingsRequest } from './embeddings-request-schema';
import { worstCaseEmbeddingTokens } from './estimate-embedding-tokens';

export interface EmbeddingsAdmission {
  principal: Principal;
  req: EmbeddingsRequest;
  /** The model asked for (authorized and reserved for). */
  model: RoutingModel;
  route: RouteTargets;
  generationId: string;
  /** The worst-case input tokens at the most expensive allowed candidate's input price (BYOK-priced). */
  reservedMicros: bigint;
  /** Refused after reserving (the key's rate limits, the account's policy or its saved key): answered, and settled as a refusal. */
  refused?: unknown;
  /** The key's rate-limit subject when it has a token limit: its input tokens are counted (as chat's). */
  tokenSubject?: string;
  tracking: { httpReferer?: string; xTitle?: string; taskId?: string };
}

/**
 * @param trace filled in as admission goes, as the chat path's (gateway/admit.ts): what a refusal's record
 *   needs (gateway/record-refusal.ts), the principal once the credential is checked and the model asked for.
 */
export async function admitEmbeddings(rt: Runtime, t: ChatTransport, authenticated?: Principal, trace: AdmissionTrace = {}): Promise<EmbeddingsAdmission> {
  const authorization = authorizationHeader(t);
  const principal = authenticated ?? (await authenticateBearer(authorization));
  trace.principal = principal;
  trace.streamed = false;
  // The key's own rate limits, as on the chat path (gateway/admit.ts): counted against the limits remembered
  // from its last admission, checked again below against those the reservation reads.
  const subject = rateLimitSubject(authenticated ? null : bearerFromHeader(authorization), principal);
  const counted = await rt.rateLimiter.checkKnown(subject, rt.rateLimiter.limitsOf(subject));
  const raw = await readJsonObject(t);
  if (typeof raw.model === 'string') trace.model = raw.model;
  const req = parseEmbeddingsRequest(raw);

  await rt.routing.ready;
  const table = rt.routing.table();
  const model = resolveModelOrThrow(table, req.model);
  trace.model = model.id;
  trace.provider = model.endpoints[0]?.provider.id;
  authorizeModel(principal, model);
  const plan = planRoute(table, req, {
    kind: 'embedding',
    keyUsable: (ref) => rt.health.isUsable(ref),
    nextAvailableAt: (refs) => rt.health.nextAvailableAt(refs),
    stats: rt.endpointStats,
  });
  const taskId = t.header('x-task-id') ?? req.user;
  const affinity = taskId ? `${model.id}\u0000${taskId}` : undefined;
  // Converted before reserving: a request the primary endpoint cannot take is refused without touching the ledger.
  const primary = plan.candidates[0]!;
  const keys = keyOrder(primary, rt.health, affinity);
  const first = prepareEmbeddingsAttempt(primary, keys[0], req);
  const route: RouteTargets = { candidates: plan.candidates, affinity, first, firstKeys: keys[0] ? (keys as RoutingKey[]) : undefined, trace: t.trace };

  const tokens = worstCaseEmbeddingTokens(req);
  const candidates = plan.candidates.map((c) => {
    const amountMicros = tokenCostMicros(tokens, c.endpoint.inputPrice);
    return { provider: c.endpoint.provider.id, amountMicros, byokAmountMicros: byokCharge(amountMicros, rt.byokFeeBps) };
  });
  let listMicros = 0n;
  for (const c of candidates) if (c.amountMicros > listMicros) listMicros = c.amountMicros;
  const generationId = newGenerationId();
  const grant = await reserveCredits({
    accountId: principal.accountId,
    generationId,
    amountMicros: listMicros,
    candidates,
    apiKey: principal.apiKey ? { id: principal.apiKey.id } : undefined,
    userId: principal.userId,
    authTokenId: principal.authTokenId,
    model: model.id,
    modelAliases: model.aliases,
    provider: primary.endpoint.provider.id,
    ttlMs: rt.leases.leaseMs, // renewed while the request runs (handle-embeddings.ts holds the lease)
  });
  const reservedMicros = grant.reservedMicros;
  const limits = { rpm: grant.policy.rateLimitRpm, tpm: grant.policy.rateLimitTpm };
  if (principal.kind === 'api_key' || principal.apiKey) rt.rateLimiter.learn(subject, limits);
  let refused: unknown;
  try {
    rt.rateLimiter.checkAgainFresh(counted, limits);
    // The organization's provider allow-list and the account's own keys (as for chat, gateway/account-policy.ts).
    if (!grant.policy.plain && applyAccountPolicy(route, grant.policy, rt.byokFeeBps, model.id)) {
      const keys = keyOrder(route.candidates[0]!, rt.health, affinity);
      route.first = prepareEmbeddingsAttempt(route.candidates[0]!, keys[0], req);
      route.firstKeys = keys[0] ? (keys as RoutingKey[]) : undefined;
    }
  } catch (err) {
    refused = err;
  }
  return {
    principal,
    req,
    model,
    route,
    generationId,
    reservedMicros,
    refused,
    tokenSubject: limits.tpm ? subject : undefined,
    tracking: { httpReferer: t.header('http-referer') ?? t.header('referer'), xTitle: t.header('x-title'), taskId: t.header('x-task-id') },
  };
}

/** One endpoint's and key's upstream request (the failover loop calls it per attempt, open-route.ts). */
export function prepareEmbeddingsAttempt(candidate: RouteCandidate, key: RoutingKey | undefined, req: EmbeddingsRequest): PreparedAttempt {
  const ctx = contextFor(candidate, key);
  const provider = candidate.endpoint.provider;
  const converter = embeddingsConverterFor(provider.type);
  // The routing table leaves such endpoints out (build-routing-table.ts); kept as a clear 400 all the same.
  if (!converter) throw new AppError('bad_request', `Provider ${provider.id} (type ${provider.type}) has no embeddings API`, { model: candidate.model.id, provider: provider.id });
  const request = converter.convertRequest(req, ctx);
  if (Object.keys(provider.headers).length > 0) request.headers = { ...request.headers, ...provider.headers };
  return { candidate, key, ctx, request };
}
