// Which endpoints may serve a request, in the order to try them: the requested model's endpoints, then
// those of its fallback `models`, filtered and ordered by OpenRouter's `provider` preferences. Keys are
// chosen later, attempt by attempt (open-route.ts), because health changes while a request fails over.
// Pure and synchronous over the compiled table: a few lookups and a short array, no I/O.
import { AppError } from '@/server/errors';
import type { ModelKind } from './config-schema';
import type { EndpointStats } from './endpoint-stats';
import type { RoutingEndpoint, RoutingModel, RoutingTable } from './routing-table';

export interface ProviderPreferences {
  order?: string[];
  only?: string[];
  ignore?: string[];
  allow_fallbacks?: boolean;
  sort?: 'price' | 'latency' | 'throughput';
}

export interface RouteCandidate {
  model: RoutingModel;
  endpoint: RoutingEndpoint;
}

export interface RoutePlan {
  /** The model the client asked for (capabilities and key permissions are checked against it). */
  model: RoutingModel;
  /** At least one; the first is the primary. */
  candidates: RouteCandidate[];
}

export interface PlanOptions {
  /** Whether a provider key may get traffic now (KeyHealth.isUsable; no side effect). */
  keyUsable: (ref: string) => boolean;
  /** When the soonest of these keys is usable again (epoch ms), for the 503's Retry-After. */
  nextAvailableAt: (refs: string[]) => number | null;
  stats?: EndpointStats;
  now?: number;
  /** The kind of model the route serves (default chat): another kind, asked for or as a fallback, is a 400. */
  kind?: ModelKind;
}

/** The enabled model `id` (or alias), or a 404 naming it. */
export function resolveModelOrThrow(table: RoutingTable, id: string): RoutingModel {
  const m = table.models.get(id);
  if (!m || !m.enabled) {
    throw new AppError('not_found', `Model "${id}" not found. Use a provider/model-name id from GET /api/v1/models, e.g. "openai/gpt-4o-mini".`, { model: id });
  }
  return m;
}

/** A chat route asked for an embedding model, or /embeddings for a chat model. */
function wrongKind(m: RoutingModel, kind: ModelKind, field: string): AppError {
  const message =
    m.kind === 'embedding'
      ? `${field}: ${m.id} is an embedding model; send it to POST /api/v1/embeddings.`
      : `${field}: ${m.id} is a chat model; POST /api/v1/embeddings takes embedding models (kind "embedding" in GET /api/v1/models).`;
  return new AppError('bad_request', message, { model: m.id, kind: m.kind, expected_kind: kind });
}

type Removal = { model: string; provider: string; by: string };

export function planRoute(table: RoutingTable, request: { model: string; models?: string[]; provider?: ProviderPreferences }, options: PlanOptions): RoutePlan {
  const model = resolveModelOrThrow(table, request.model);
  const kind = options.kind ?? 'chat';
  if (model.kind !== kind) throw wrongKind(model, kind, 'model');
  const prefs = request.provider ?? {};
  const models = [model];
  request.models?.forEach((id, i) => {
    const m = table.models.get(id);
    if (!m || !m.enabled) throw new AppError('bad_request', `models[${i}]: model "${id}" not found (fallback models must be ids from GET /api/v1/models)`, { model: id });
    if (m.kind !== kind) throw wrongKind(m, kind, `models[${i}]`);
    if (!models.includes(m)) models.push(m);
  });

  const candidates: RouteCandidate[] = [];
  const removed: Removal[] = [];
  const cooling: string[] = [];
  for (const m of models) {
    for (const endpoint of endpointsFor(m, prefs, removed, options)) {
      const p = endpoint.provider;
      if (p.keys.length > 0 && !p.keys.some((k) => options.keyUsable(k.ref))) {
        removed.push({ model: m.id, provider: p.id, by: 'cooling down' });
        for (const k of p.keys) cooling.push(k.ref);
        continue;
      }
      candidates.push({ model: m, endpoint });
    }
  }
  if (candidates.length > 0) return { model, candidates };
  throw noEndpointLeft(model, removed, cooling, options);
}

/** One model's endpoints, filtered (enabled, configured, only, ignore) and ordered (order, allow_fallbacks, sort). */
function endpointsFor(m: RoutingModel, prefs: ProviderPreferences, removed: Removal[], options: PlanOptions): RoutingEndpoint[] {
  let list: RoutingEndpoint[] = [];
  for (const e of m.endpoints) {
    const p = e.provider;
    const by = !p.enabled
      ? 'disabled by the operator'
      : !p.configured
        ? `not configured (${p.missing ?? 'no key'})`
        : prefs.only && !prefs.only.includes(p.id)
          ? 'provider.only'
          : prefs.ignore?.includes(p.id)
            ? 'provider.ignore'
            : null;
    if (by) removed.push({ model: m.id, provider: p.id, by });
    else list.push(e);
  }
  if (prefs.order?.length) {
    const rank = (e: RoutingEndpoint) => {
      const i = prefs.order!.indexOf(e.provider.id);
      return i < 0 ? Number.MAX_SAFE_INTEGER : i;
    };
    const ordered = list.filter((e) => rank(e) !== Number.MAX_SAFE_INTEGER).sort((a, b) => rank(a) - rank(b));
    const rest = list.filter((e) => rank(e) === Number.MAX_SAFE_INTEGER);
    if (prefs.allow_fallbacks === false) {
      for (const e of rest) removed.push({ model: m.id, provider: e.provider.id, by: 'provider.order with allow_fallbacks: false' });
      list = ordered;
    } else list = [...ordered, ...rest];
  } else if (prefs.allow_fallbacks === false && list.length > 1) {
    for (const e of list.slice(1)) removed.push({ model: m.id, provider: e.provider.id, by: 'allow_fallbacks: false' });
    list = list.slice(0, 1);
  }
  if (prefs.sort && list.length > 1) {
    const sort = prefs.sort;
    const score = (e: RoutingEndpoint) => (sort === 'price' ? e.inputPrice + e.outputPrice : options.stats ? options.stats.score(e, sort) : 0);
    list = list.map((e, i) => ({ e, i, s: score(e) })).sort((a, b) => a.s - b.s || a.i - b.i).map((x) => x.e);
  }
  return list;
}

function noEndpointLeft(model: RoutingModel, removed: Removal[], cooling: string[], options: PlanOptions): AppError {
  const metadata = { model: model.id, removed };
  if (cooling.length > 0) {
    const at = options.nextAvailableAt(cooling);
    const seconds = Math.max(1, Math.ceil(((at ?? (options.now ?? Date.now()) + 1000) - (options.now ?? Date.now())) / 1000));
    return new AppError('service_unavailable', `Every provider key for ${model.id} is cooling down after errors or rate limits; retry in ${seconds} s.`, metadata, { 'retry-after': String(seconds) });
  }
  const unconfigured = removed.filter((r) => r.by.startsWith('not configured'));
  if (unconfigured.length === removed.length) {
    const missing = unconfigured.map((r) => r.by.slice('not configured ('.length, -1)).join(', ');
    return new AppError('service_unavailable', `${model.id} is not available on this server: the operator has not configured ${missing}.`, { ...metadata, provider: unconfigured[0]?.provider });
  }
  const why = removed.map((r) => `${r.provider} (${r.model}) removed by ${r.by}`).join('; ');
  return new AppError('not_found', `No endpoint is left for ${model.id}: ${why}. Relax the provider preferences or pick another model.`, metadata);
}
