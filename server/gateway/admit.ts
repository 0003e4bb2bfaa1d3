// Admission: everything that must pass before a provider is called, cheapest and most fundamental first.
// authenticate (401) → rate limit (429) → parse (400/413) → resolve model (404) → authorize model and
// capabilities (403/400) → provider configured (503) → convert the request (400) → reserve credit (402).
// For an API key with a small body the database is asked once, after everything else (admitApiKey); a
// refusal before that point is still reported in this order.
import { authenticateBearer, bearerFromHeader, type Principal } from '@/server/auth/authenticate-bearer';
import { refusedPrincipalOf } from '@/server/auth/refused-principal';
import { hashSecret, isWellFormedSecret, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { AppError } from '@/server/errors';
import { contentCodingsOf, decodeBody, gatewayCodingOrThrow } from '@/server/http/read-body';
import { newGenerationId } from '@/server/http/request-id';
import { reserveCredits, type AccountPolicy, type ReservationCandidate } from '@/server/ledger/reserve';
import type { ChatRequest } from '@/server/providers/types';
import { planRoute, resolveModelOrThrow, type RouteCandidate } from '@/server/routing/plan-route';
import type { RoutingKey, RoutingModel } from '@/server/routing/routing-table';
import type { Runtime } from '@/server/runtime/runtime';
import { hasFiles, hasImages, MAX_BODY_BYTES } from './chat-request-schema';
import { applyAccountPolicy, reservationCandidates } from './account-policy';
import { dispatchEarly } from './early-dispatch';
import { keyOrder, openRoute, prepareAttempt, type Route, type ServedRoute } from './open-route';
import type { KnownCheck } from './rate-limit';
import type { ChatTransport } from './transport';
import type { WireFormat } from './wire-format';

export interface Admission {
  principal: Principal;
  req: ChatRequest;
  /** The model asked for (the one authorized and reserved for; a fallback may serve). */
  model: RoutingModel;
  /** The endpoints to try, in order, with the primary attempt converted (routing/plan-route.ts, open-route.ts). */
  route: Route;
  generationId: string;
  /** Covers the most expensive candidate endpoint. */
  reservedMicros: bigint;
  tracking: { httpReferer?: string; xTitle?: string; taskId?: string };
  /** The route, already opened during admission (early-dispatch.ts); otherwise the runner opens it. */
  upstream?: Promise<ServedRoute>;
  /**
   * Refused after the reservation was made (a key's rate limit lowered or still holding, the organization's
   * provider allow-list, the account's saved key unreadable): the use case answers with it and settles the
   * reservation as a refusal (status REFUSED), at no charge.
   */
  refused?: unknown;
  /** The rate limiter's subject, when the key has a token limit (its tokens are counted after the answer). */
  tokenSubject?: string;
}

/**
 * What admission learned before it refused, for the refusal's record (record-refusal.ts): filled in as
 * admission goes, so it costs nothing and asks the database nothing.
 */
export interface AdmissionTrace {
  principal?: Principal;
  /** The model asked for: its id once resolved, else as the client wrote it. */
  model?: string;
  provider?: string;
  streamed?: boolean;
}

/**
 * Request bodies up to this size take the one-round-trip path for API keys: read and validated before the
 * key is checked (in the same statement as the reservation). Larger or undeclared (chunked) bodies are
 * read only after authentication, as before, so an unauthenticated client cannot make us buffer much.
 */
const EARLY_BODY_MAX = 256 * 1024;

/**
 * @param authenticated a principal the caller already authenticated (the console's playground, signed in
 *   with a session); otherwise the Bearer credential of the request is used.
 */
export async function admit(rt: Runtime, t: ChatTransport, format: WireFormat, authenticated?: Principal, trace: AdmissionTrace = {}): Promise<Admission> {
  const token = authenticated ? null : bearerFromHeader(authorizationHeader(t));
  if (token && isWellFormedSecret(token, TOKEN_PREFIX.apiKey)) {
    const declared = Number(t.header('content-length'));
    // Not a compressed body: 256 KiB of gzip may decode to the full limit, for a client not yet authenticated.
    const early = Number.isInteger(declared) && declared >= 0 && declared <= EARLY_BODY_MAX && contentCodingsOf(t.header('content-encoding')).length === 0;
    if (early) return admitApiKey(rt, t, format, token, trace);
  }

  const principal = authenticated ?? (await authenticateBearer(authorizationHeader(t)));
  trace.principal = principal;
  const subject = rateLimitSubject(token, principal);
  const known = rt.rateLimiter.limitsOf(subject);
  const counted = await rt.rateLimiter.checkKnown(subject, known);
  const p = await prepare(rt, t, format, (model) => authorizeModel(principal, model), trace);
  keepAllowedFallbacks(principal, p);

  const generationId = newGenerationId();
  const candidates = reservationCandidates(p.req, p.route.candidates, rt.byokFeeBps);
  const grant = await reserveCredits({
    accountId: principal.accountId,
    generationId,
    amountMicros: largest(candidates),
    candidates,
    apiKey: principal.apiKey ? { id: principal.apiKey.id } : undefined,
    userId: principal.userId,
    authTokenId: principal.authTokenId,
    model: p.model.id,
    modelAliases: p.model.aliases,
    provider: primaryProvider(p),
    ttlMs: rt.leases.leaseMs, // renewed while it runs (handle-chat.ts)
  });
  const a: Admission = { principal, ...p, generationId, reservedMicros: grant.reservedMicros, tracking: tracking(t) };
  afterReservation(rt, a, grant.policy, subject, counted);
  return a;
}

/**
 * What the reservation statement told about the account: a key's own rate limits (checked again against the
 * counts taken before they were known), the organization's provider allow-list and the account's own provider
 * keys (applied to the route). A refusal here is recorded on the admission, as the reservation must be settled
 * (as a refusal, at no charge: handle-chat.ts).
 */
function afterReservation(rt: Runtime, a: Admission, policy: AccountPolicy, subject: string, counted: KnownCheck): void {
  const limits = { rpm: policy.rateLimitRpm, tpm: policy.rateLimitTpm };
  if (a.principal.kind === 'api_key' || a.principal.apiKey) rt.rateLimiter.learn(subject, limits);
  // Tokens are counted for keys with a token limit only, from the request that made it known on.
  if (limits.tpm) a.tokenSubject = subject;
  try {
    // Always (two comparisons): a limit lowered since the counts were taken, or counts over the remembered
    // limits let through to learn the current ones (checkKnown) — refused here if those still hold.
    rt.rateLimiter.checkAgainFresh(counted, limits);
    // Fallback models (`models`) the organization does not allow are dropped, as the key's own are
    // (keepAllowedFallbacks); the requested model itself was checked by the statement.
    if (policy.allowedModels) keepFallbacksIn(policy.allowedModels, a);
    // A plain account has no provider policy and no keys of its own: its route stays as planned.
    if (!policy.plain && applyAccountPolicy(a.route, policy, rt.byokFeeBps, a.model.id)) preparePrimary(rt, a.route);
  } catch (err) {
    a.refused = err;
  }
}

/** The route's primary changed (policy): its key order and converted request are made again. */
function preparePrimary(rt: Runtime, route: Route): void {
  Object.assign(route, firstThatCarries(rt, route.candidates, route.req, route.affinity));
}

/**
 * The primary is the first endpoint whose format can carry the request (a Claude-on-Vertex endpoint takes no image
 * URL, an old Azure api-version no streamed usage…): the ones before it are dropped, as failover skips them, so
 * the next endpoint serves instead of the request being refused. None can: the first one's error (a 400).
 */
function firstThatCarries(rt: Runtime, all: RouteCandidate[], req: ChatRequest, affinity: string | undefined): Pick<Route, 'candidates' | 'first' | 'firstKeys'> {
  let refusal: unknown;
  for (let i = 0; i < all.length; i++) {
    const keys = keyOrder(all[i]!, rt.health, affinity);
    try {
      const first = prepareAttempt(all[i]!, keys[0], req);
      return { candidates: i === 0 ? all : all.slice(i), first, firstKeys: keys[0] ? (keys as RoutingKey[]) : undefined };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      refusal ??= err;
    }
  }
  throw refusal;
}

/**
 * The hot path for API keys: everything that needs no database first, then ONE statement that
 * authenticates the key, checks its allowed models and reserves (ledger/reserve-for-api-key.ts). The
 * rate limit is counted by the key's hash, which identifies it as its id does.
 */
async function admitApiKey(rt: Runtime, t: ChatTransport, format: WireFormat, token: string, trace: AdmissionTrace): Promise<Admission> {
  const keyHash = hashSecret(token);
  const subject = apiKeySubject(token);
  const known = rt.rateLimiter.limitsOf(subject);
  let resolved: RoutingModel | undefined;
  let p: Prepared;
  let counted: KnownCheck;
  try {
    counted = await rt.rateLimiter.checkKnown(subject, known);
    p = await prepare(rt, t, format, (model) => void (resolved = model), trace);
  } catch (err) {
    // Refused before the key was checked: answer in admission order all the same — 401 for a bad key
    // before anything else, then 403 for a model the key may not use before what is checked after it.
    const principal = await authenticateBearer(authorizationHeader(t));
    trace.principal = principal;
    if (resolved) authorizeModel(principal, resolved);
    throw err;
  }

  const generationId = newGenerationId();
  const candidates = reservationCandidates(p.req, p.route.candidates, rt.byokFeeBps);
  const amountMicros = largest(candidates);
  // Not with fallback models: the key's permissions for them are known only after admission.
  const onlyPrimaryModel = p.route.candidates.every((c) => c.model === p.model);
  // Nor for counts over the key's remembered limits, let through only to learn its current ones.
  const warmGeneration = rt.warmKeys.generation; // a change seen while the statement runs: it may have read the state before it
  const early = p.route.first?.request && onlyPrimaryModel && !counted.recheck && rt.warmKeys.claim(keyHash, amountMicros) ? dispatchEarly((signal) => openRoute(rt, p.route, signal), t.signal) : null;
  try {
    const r = await rt.keyAdmissions.reserve({
      keyHash,
      model: p.model.id,
      modelAliases: p.model.aliases,
      provider: primaryProvider(p),
      generationId,
      amountMicros,
      candidates,
      ttlMs: rt.leases.leaseMs,
    });
    trace.principal = r.principal;
    if (!r.admitted) {
      authorizeModel(r.principal, p.model); // throws: nothing was reserved
      throw new AppError('forbidden', `This API key may not use ${p.model.id}`, { model: p.model.id });
    }
    rt.warmKeys.remember(keyHash, r.headroomMicros, r.policy.plain, warmGeneration);
    keepAllowedFallbacks(r.principal, p);
    const a: Admission = { principal: r.principal, ...p, generationId, reservedMicros: r.reservedMicros, tracking: tracking(t), upstream: early?.response };
    afterReservation(rt, a, r.policy, subject, counted);
    // Dispatched early for an account that was plain a moment ago and now has a policy or its own keys (set
    // within the last minute): the route may have changed, so that request is aborted and the route opened anew.
    if ((a.refused || !r.policy.plain) && early) {
      early.cancel();
      a.upstream = undefined;
    }
    return a;
  } catch (err) {
    rt.warmKeys.forget(keyHash);
    early?.cancel();
    trace.principal ??= refusedPrincipalOf(err);
    throw err;
  }
}

/**
 * `Authorization: Bearer <key>`, or the key alone in `x-api-key` (what Anthropic's SDKs and Claude Code send
 * with an API key; accepted on every gateway route so a client needs no special case).
 */
export function authorizationHeader(t: Pick<ChatTransport, 'header'>): string | undefined {
  const authorization = t.header('authorization');
  if (authorization) return authorization;
  const apiKey = t.header('x-api-key');
  return apiKey ? `Bearer ${apiKey.trim()}` : undefined;
}

const apiKeySubject = (token: string) => `key:${hashSecret(token)}`;

/** Whom the rate limit counts: an API key by its hash (as the one-round-trip path does), else the key id or the user. */
export function rateLimitSubject(token: string | null, principal: Principal): string {
  return token && principal.kind === 'api_key' ? apiKeySubject(token) : (principal.apiKey?.id ?? `user:${principal.userId}`);
}

/** 403 unless the principal's API key may use the model (a key without allowed models may use every one). */
export function authorizeModel(principal: Principal, model: RoutingModel): void {
  const allowed = principal.apiKey?.allowedModels;
  if (allowed && allowed.length > 0 && !allowsModel(allowed, model)) {
    throw new AppError('forbidden', `This API key may not use ${model.id}; it is limited to: ${allowed.join(', ')}`, { model: model.id });
  }
}

/** A key's allowed models name a model by its id or any alias (keys made before a model was renamed). */
const allowsModel = (allowed: readonly string[], model: RoutingModel) => allowed.includes(model.id) || model.aliases.some((a) => allowed.includes(a));

/** Fallback models the key may not use are dropped (the requested one was authorized); the primary never is. */
function keepAllowedFallbacks(principal: Principal, p: Prepared): void {
  const allowed = principal.apiKey?.allowedModels;
  if (!allowed || allowed.length === 0) return;
  keepFallbacksIn(allowed, p);
}

/**
 * Drops the candidates of fallback models not in `allowed` (by id or alias). The requested model's own
 * endpoints stay (it was authorized before): whatever comes first, a fallback is never kept unchecked.
 */
function keepFallbacksIn(allowed: readonly string[], p: Prepared): void {
  p.route.candidates = p.route.candidates.filter((c) => c.model.id === p.model.id || allowsModel(allowed, c.model));
}

/** The most any candidate could cost at list price (the statement reserves the largest allowed one, BYOK-priced). */
function largest(candidates: readonly ReservationCandidate[]): bigint {
  let max = 0n;
  for (const c of candidates) if (c.amountMicros > max) max = c.amountMicros;
  return max;
}

const primaryProvider = (p: Prepared) => p.route.candidates[0]!.endpoint.provider.id;

function tracking(t: ChatTransport): Admission['tracking'] {
  return { httpReferer: t.header('http-referer') ?? t.header('referer'), xTitle: t.header('x-title'), taskId: t.header('x-task-id') };
}

type Prepared = Pick<Admission, 'req' | 'model' | 'route'>;

/** Parse (400/413/415) → resolve model (404) → authorize it (403) → capabilities (400) → endpoints (503/404) → convert (400). */
async function prepare(rt: Runtime, t: ChatTransport, format: WireFormat, authorize: (model: RoutingModel) => void, trace: AdmissionTrace): Promise<Prepared> {
  const raw = await readJsonObject(t);
  if (typeof raw.model === 'string') trace.model = raw.model;
  trace.streamed = raw.stream === true;
  const req = await format.parse(raw, (name) => t.header(name));

  await rt.routing.ready; // resolved after the first load: a microtask, no I/O
  const table = rt.routing.table();
  const model = resolveModelOrThrow(table, req.model);
  trace.model = model.id;
  trace.provider = model.endpoints[0]?.provider.id;
  authorize(model);
  const images = hasImages(req);
  if (!model.supportsImages && images) {
    throw new AppError('bad_request', `${model.id} does not accept image input (supportsImages is false). Remove the image_url parts or pick a model with supportsImages.`, { model: model.id, capability: 'supportsImages' });
  }
  const files = hasFiles(req);
  if (!model.supportsPdf && files) {
    throw new AppError('bad_request', `${model.id} does not accept PDF input (supportsPdf is false). Remove the file parts or pick a model with supportsPdf.`, { model: model.id, capability: 'supportsPdf' });
  }
  const plan = planRoute(table, req, { keyUsable: (ref) => rt.health.isUsable(ref), nextAvailableAt: (refs) => rt.health.nextAvailableAt(refs), stats: rt.endpointStats });
  // A fallback model that cannot take this request (images, documents) is not a candidate.
  const candidates: RouteCandidate[] = images || files ? plan.candidates.filter((c) => (!images || c.model.supportsImages) && (!files || c.model.supportsPdf)) : plan.candidates;
  const taskId = t.header('x-task-id') ?? req.prompt_cache_key ?? req.user;
  const affinity = taskId ? `${model.id}\u0000${taskId}` : undefined;
  // Convert before reserving: a request no endpoint can take is refused without touching the ledger.
  return { req, model, route: { ...firstThatCarries(rt, candidates, req, affinity), req, affinity, trace: t.trace } };
}

/**
 * The request body as a JSON object: 415 for another content type or a content coding we do not decode, 413
 * over the limit (the decoded size for a gzip, deflate or br body), 400 for anything but an object. Used by
 * every gateway route (chat, messages, responses, embeddings, count_tokens).
 */
export async function readJsonObject(t: Pick<ChatTransport, 'header' | 'readBody'>): Promise<Record<string, unknown>> {
  const ct = t.header('content-type');
  if (ct && !/^application\/(json|[\w.+-]*\+json)\b/i.test(ct)) throw new AppError('unsupported_media_type', 'Content-Type must be application/json');
  const coding = gatewayCodingOrThrow(t.header('content-encoding'));
  const received = await t.readBody(MAX_BODY_BYTES);
  const raw = coding ? await decodeBody(received, coding, MAX_BODY_BYTES) : received;
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('bad_request', 'Malformed JSON in request body');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new AppError('bad_request', 'The request body must be a JSON object');
  return json as Record<string, unknown>;
}
