// What the paying account's policy and keys change about a route, once admission has read them (in the same
// statement that reserved: ledger/reserve.ts): the organization's provider allow-list drops candidates, and
// a provider the account brought its own key for (BYOK) is called with that key only — never with the
// operator's, not even when the account's key is refused (open-route.ts answers that at once, `byok: true`).
import { decryptSecret, SecretBoxError } from '@/server/crypto/secret-box';
import { AppError } from '@/server/errors';
import type { AccountPolicy, ReservationCandidate } from '@/server/ledger/reserve';
import type { ChatRequest } from '@/server/providers/types';
import type { RouteCandidate } from '@/server/routing/plan-route';
import type { RoutingKey } from '@/server/routing/routing-table';
import { reservationMicros } from './cost';
import type { RouteTargets } from './open-route';

/** BYOK_FEE_PERCENT in basis points (1 % = 100). */
export type FeeBps = number;

/** What a BYOK request is charged: the fee's share of the list price, rounded up to the micro-dollar. */
export function byokCharge(listMicros: bigint, feeBps: FeeBps): bigint {
  if (listMicros <= 0n || feeBps <= 0) return 0n;
  const n = listMicros * BigInt(feeBps);
  return (n + 9_999n) / 10_000n;
}

/**
 * Each candidate's worst case at list price and with the account's own key: the reservation statement holds
 * the largest over the candidates the organization allows, BYOK-priced where the account has a key.
 */
export function reservationCandidates(req: ChatRequest, candidates: readonly RouteCandidate[], feeBps: FeeBps): ReservationCandidate[] {
  return candidates.map((c) => {
    const amountMicros = reservationMicros(req, c.endpoint);
    return { provider: c.endpoint.provider.id, amountMicros, byokAmountMicros: byokCharge(amountMicros, feeBps) };
  });
}

/**
 * Applies the policy to the route in place. Returns whether the primary attempt changed (the caller then
 * prepares it again). Throws (403/503) when nothing is left to call; the caller must then release the
 * reservation it holds.
 */
export function applyAccountPolicy(route: RouteTargets, policy: AccountPolicy, feeBps: FeeBps, model: string): boolean {
  const primary = route.candidates[0];
  let candidates = route.candidates;
  const allowed = policy.allowedProviders;
  if (allowed) candidates = candidates.filter((c) => allowed.includes(c.endpoint.provider.id));
  if (candidates.length === 0) {
    throw new AppError('forbidden', `No provider your organization allows serves ${model}. Allowed providers: ${allowed!.join(', ')}.`, { model, reason: 'organization_policy', allowed_providers: allowed });
  }
  const byok = policy.byokKeys;
  if (byok) {
    const own = new Map<string, RoutingKey>();
    candidates = candidates.map((c) => {
      const provider = c.endpoint.provider;
      const encrypted = byok[provider.id];
      if (encrypted === undefined) return c;
      let key = own.get(provider.id);
      if (!key) own.set(provider.id, (key = byokKey(provider.id, encrypted, feeBps)));
      return { model: c.model, endpoint: { ...c.endpoint, provider: { ...provider, keys: [key], configured: true } } };
    });
  }
  route.candidates = candidates;
  return candidates[0] !== primary;
}

function byokKey(provider: string, encrypted: string, feeBps: FeeBps): RoutingKey {
  let apiKey: string;
  try {
    apiKey = decryptSecret(encrypted);
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    throw new AppError(
      'service_unavailable',
      `Your saved ${provider} key cannot be read on this server (it was encrypted with another ENCRYPTION_KEY). Save it again with PUT …/provider-keys/${provider}.`,
      { provider, byok: true },
    );
  }
  // open-route.ts keeps no health state for it: the account's key must not share cooldowns with anyone's.
  return { id: 'byok', ref: `byok/${provider}`, apiKey, weight: 1, byok: { feeBps } };
}
