// Admission: everything that must pass before a provider is called, cheapest and most fundamental first.
// authenticate (401) → rate limit (429) → parse (400/413) → resolve model (404) → authorize model and
// capabilities (403/400) → provider configured (503) → convert the request (400) → reserve credit (402).
import { authenticateBearer, type Principal } from '@/server/auth/authenticate-bearer';
import { resolveModelOrThrow, type CatalogModel } from '@/server/catalog/resolve-model';
import { AppError } from '@/server/errors';
import { newGenerationId } from '@/server/http/request-id';
import { reserveCredits } from '@/server/ledger/reserve';
import { providerRegistry, type ProviderEntry } from '@/server/providers/registry';
import type { ChatRequest, ConvertContext, UpstreamRequest } from '@/server/providers/types';
import { hasImages, MAX_BODY_BYTES, parseChatRequest } from './chat-request-schema';
import { reservationMicros } from './cost';
import { checkRateLimit } from './rate-limit';
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
}

/**
 * @param authenticated a principal the caller already authenticated (the console's playground, signed in
 *   with a session); otherwise the Bearer credential of the request is used.
 */
export async function admit(t: ChatTransport, authenticated?: Principal): Promise<Admission> {
  const principal = authenticated ?? (await authenticateBearer(t.header('authorization')));
  await checkRateLimit(principal.apiKey?.id ?? `user:${principal.userId}`);

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

  const model = await resolveModelOrThrow(req.model);
  const allowed = principal.apiKey?.allowedModels;
  if (allowed && allowed.length > 0 && !allowed.includes(model.id)) {
    throw new AppError('forbidden', `This API key may not use ${model.id}; it is limited to: ${allowed.join(', ')}`, { model: model.id });
  }
  if (!model.supportsImages && hasImages(req)) {
    throw new AppError('bad_request', `${model.id} does not accept image input (supportsImages is false). Remove the image_url parts or pick a model with supportsImages.`, { model: model.id, capability: 'supportsImages' });
  }
  const provider = providerRegistry().get(model.provider);
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

  const generationId = newGenerationId();
  const reservedMicros = reservationMicros(req, model);
  await reserveCredits({
    accountId: principal.accountId,
    generationId,
    amountMicros: reservedMicros,
    apiKey: principal.apiKey ? { id: principal.apiKey.id, limitReset: principal.apiKey.limitReset } : undefined,
    userId: principal.userId,
    authTokenId: principal.authTokenId,
    model: model.id,
    provider: model.provider,
  });

  return {
    principal,
    req,
    model,
    provider,
    ctx,
    upstreamRequest,
    generationId,
    reservedMicros,
    tracking: { httpReferer: t.header('http-referer') ?? t.header('referer'), xTitle: t.header('x-title'), taskId: t.header('x-task-id') },
  };
}
