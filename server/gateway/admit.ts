// Admission: everything that must pass before a provider is called, cheapest and most fundamental first.
// authenticate (401) → rate limit (429) → parse (400/413) → resolve model (404) → authorize model and
// capabilities (403/400) → provider configured (503) → convert the request (400) → reserve credit (402).
// For an API key with a small body the database is asked once, after everything else (admitApiKey); a
// refusal before that point is still reported in this order.
import { authenticateBearer, bearerFromHeader, type Principal } from '@/server/auth/authenticate-bearer';
import { hashSecret, isWellFormedSecret, TOKEN_PREFIX } from '@/server/auth/secret-token';
import type { CatalogModel } from '@/server/catalog/resolve-model';
import { AppError } from '@/server/errors';
import { newGenerationId } from '@/server/http/request-id';
import { reserveCredits } from '@/server/ledger/reserve';
import type { ProviderEntry } from '@/server/providers/registry';
import type { ChatRequest, ConvertContext, UpstreamRequest } from '@/server/providers/types';
import type { Runtime } from '@/server/runtime/runtime';
import { hasImages, MAX_BODY_BYTES, parseChatRequest } from './chat-request-schema';
import { reservationMicros } from './cost';
import { dispatchEarly } from './early-dispatch';
import type { UpstreamResponse } from './upstream-client';
import type { ChatTransport } from './transport';

export interface Admission {
  principal: Principal;
  req: ChatRequest;
  model: CatalogModel;
  provider: ProviderEntry;
  ctx: ConvertContext;
  upstreamRequest: UpstreamRequest | null;
  generationId: string;
  reservedMicros: bigint;
  tracking: { httpReferer?: string; xTitle?: string; taskId?: string };
  /** The provider request, already sent during admission (early-dispatch.ts); otherwise the runner sends it. */
  upstream?: Promise<UpstreamResponse>;
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
export async function admit(rt: Runtime, t: ChatTransport, authenticated?: Principal): Promise<Admission> {
  const token = authenticated ? null : bearerFromHeader(t.header('authorization'));
  if (token && isWellFormedSecret(token, TOKEN_PREFIX.apiKey)) {
    const declared = Number(t.header('content-length'));
    if (Number.isInteger(declared) && declared >= 0 && declared <= EARLY_BODY_MAX) return admitApiKey(rt, t, token);
  }

  const principal = authenticated ?? (await authenticateBearer(t.header('authorization')));
  await rt.rateLimiter.check(token && principal.kind === 'api_key' ? apiKeySubject(token) : principal.apiKey?.id ?? `user:${principal.userId}`);
  const p = await prepare(rt, t, (model) => authorizeModel(principal, model));

  const generationId = newGenerationId();
  const reservedMicros = reservationMicros(p.req, p.model);
  await reserveCredits({
    accountId: principal.accountId,
    generationId,
    amountMicros: reservedMicros,
    apiKey: principal.apiKey ? { id: principal.apiKey.id } : undefined,
    userId: principal.userId,
    authTokenId: principal.authTokenId,
    model: p.model.id,
    provider: p.model.provider,
    ttlMs: rt.leases.leaseMs, // renewed while it runs (handle-chat.ts)
  });
  return { principal, ...p, generationId, reservedMicros, tracking: tracking(t) };
}

/**
 * The hot path for API keys: everything that needs no database first, then ONE statement that
 * authenticates the key, checks its allowed models and reserves (ledger/reserve-for-api-key.ts). The
 * rate limit is counted by the key's hash, which identifies it as its id does.
 */
async function admitApiKey(rt: Runtime, t: ChatTransport, token: string): Promise<Admission> {
  const keyHash = hashSecret(token);
  let resolved: CatalogModel | undefined;
  let p: Prepared;
  try {
    await rt.rateLimiter.check(`key:${keyHash}`);
    p = await prepare(rt, t, (model) => void (resolved = model));
  } catch (err) {
    // Refused before the key was checked: answer in admission order all the same — 401 for a bad key
    // before anything else, then 403 for a model the key may not use before what is checked after it.
    const principal = await authenticateBearer(t.header('authorization'));
    if (resolved) authorizeModel(principal, resolved);
    throw err;
  }

  const generationId = newGenerationId();
  const reservedMicros = reservationMicros(p.req, p.model);
  const early = p.upstreamRequest && rt.warmKeys.claim(keyHash, reservedMicros) ? dispatchEarly(rt.upstream, p.provider.adapter, p.upstreamRequest, p.model.provider, t.signal) : null;
  try {
    const r = await rt.keyAdmissions.reserve({ keyHash, model: p.model.id, provider: p.model.provider, generationId, amountMicros: reservedMicros, ttlMs: rt.leases.leaseMs });
    if (!r.admitted) authorizeModel(r.principal, p.model); // throws: nothing was reserved
    else rt.warmKeys.remember(keyHash, r.headroomMicros);
    return { principal: r.principal, ...p, generationId, reservedMicros, tracking: tracking(t), upstream: early?.response };
  } catch (err) {
    rt.warmKeys.forget(keyHash);
    early?.cancel();
    throw err;
  }
}

const apiKeySubject = (token: string) => `key:${hashSecret(token)}`;

function authorizeModel(principal: Principal, model: CatalogModel): void {
  const allowed = principal.apiKey?.allowedModels;
  if (allowed && allowed.length > 0 && !allowed.includes(model.id)) {
    throw new AppError('forbidden', `This API key may not use ${model.id}; it is limited to: ${allowed.join(', ')}`, { model: model.id });
  }
}

function tracking(t: ChatTransport): Admission['tracking'] {
  return { httpReferer: t.header('http-referer') ?? t.header('referer'), xTitle: t.header('x-title'), taskId: t.header('x-task-id') };
}

type Prepared = Pick<Admission, 'req' | 'model' | 'provider' | 'ctx' | 'upstreamRequest'>;

/** Parse (400/413/415) → resolve model (404) → authorize it (403) → capabilities (400) → provider (503) → convert (400). */
async function prepare(rt: Runtime, t: ChatTransport, authorize: (model: CatalogModel) => void): Promise<Prepared> {
  const ct = t.header('content-type');
  if (ct && !/^application\/(json|[\w.+-]*\+json)\b/i.test(ct)) throw new AppError('unsupported_media_type', 'Content-Type must be application/json');
  const raw = await t.readBody(MAX_BODY_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('bad_request', 'Malformed JSON in request body');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new AppError('bad_request', 'The request body must be a JSON object');
  const req = parseChatRequest(json);

  const model = await rt.catalog.resolveOrThrow(req.model);
  authorize(model);
  if (!model.supportsImages && hasImages(req)) {
    throw new AppError('bad_request', `${model.id} does not accept image input (supportsImages is false). Remove the image_url parts or pick a model with supportsImages.`, { model: model.id, capability: 'supportsImages' });
  }
  const provider = rt.providers.get(model.provider);
  if (!provider) throw new AppError('service_unavailable', `No provider "${model.provider}" is available for ${model.id}`, { model: model.id });
  if (!provider.configured) {
    throw new AppError('service_unavailable', `${model.id} is not available on this server: the operator has not configured ${provider.missing}.`, { model: model.id, provider: model.provider });
  }

  const ctx: ConvertContext = {
    model: {
      id: model.id,
      provider: model.provider,
      upstreamModel: model.upstreamModel,
      contextLength: model.contextLength,
      maxOutputTokens: model.maxOutputTokens,
      supportsReasoning: model.supportsReasoning,
      supportsImages: model.supportsImages,
    },
    config: provider.config,
  };
  // Convert before reserving: a request the provider cannot take is refused without touching the ledger.
  const upstreamRequest = provider.adapter.local ? null : provider.adapter.convertRequest(req, ctx);
  return { req, model, provider, ctx, upstreamRequest };
}
