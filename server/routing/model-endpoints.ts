// GET /api/v1/models/{author}/{slug}/endpoints: OpenRouter's view of one model's endpoints, from the compiled
// routing table (no database read), with each endpoint's live status from key health.
import { AppError } from '@/server/errors';
import type { KeyHealthReader, KeyState } from './runtime-routing';
import { chargedPrices, type RoutingEndpoint, type RoutingModel, type RoutingTable } from './routing-table';

export type EndpointStatus = KeyState | 'unconfigured' | 'disabled';

/** Best first: a provider is as usable as its most usable key. */
const STATE_RANK: Record<KeyState, number> = { healthy: 0, half_open: 1, cooling: 2, open: 3 };

/**
 * Exact USD per token as a decimal string, OpenRouter's form ("0.00000015"), from integer micro-dollars per
 * million tokens: micros / 10^12, written out without floating point (no "1.5e-7").
 */
export function usdPerToken(microsPerMillion: number): string {
  const scaled = BigInt(Math.round(microsPerMillion));
  const whole = scaled / 1_000_000_000_000n;
  const fraction = (scaled % 1_000_000_000_000n).toString().padStart(12, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

export function endpointStatus(model: RoutingModel, e: RoutingEndpoint, health: KeyHealthReader): EndpointStatus {
  if (!model.enabled || !e.provider.enabled) return 'disabled';
  if (!e.provider.configured) return 'unconfigured';
  // A provider that needs no key (echo, a local server) is as healthy as its endpoint can be known to be.
  if (e.provider.keys.length === 0) return 'healthy';
  return e.provider.keys.map((k) => health.view(k.ref).state).reduce((best, s) => (STATE_RANK[s] < STATE_RANK[best] ? s : best));
}

export function modelEndpoints(table: RoutingTable, health: KeyHealthReader, id: string) {
  const model = table.models.get(id);
  if (!model || !model.enabled) throw new AppError('not_found', `Model "${id}" not found. GET /api/v1/models lists the models.`, { model: id });
  return {
    data: {
      id: model.id,
      name: model.name,
      description: model.description,
      endpoints: model.endpoints.map((e) => ({
        provider: e.provider.id,
        provider_name: e.provider.name,
        name: `${e.provider.name} | ${model.id}`,
        upstream_model: e.upstreamModel,
        context_length: e.contextLength,
        max_completion_tokens: e.maxOutputTokens,
        pricing: {
          prompt: usdPerToken(e.inputPrice),
          completion: usdPerToken(e.outputPrice),
          // 0 in the table means "billed at the input price" (or, for 1-hour writes, as other writes): show what is charged.
          input_cache_read: usdPerToken(chargedPrices(e).cacheRead),
          input_cache_write: usdPerToken(chargedPrices(e).cacheWrite),
          input_cache_write_1h: usdPerToken(chargedPrices(e).cacheWrite1h),
        },
        status: endpointStatus(model, e, health),
      })),
    },
  };
}
