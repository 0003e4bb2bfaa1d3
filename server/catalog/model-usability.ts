// Whether a model can be used by an account on this server, and if not, why — in words the console shows
// next to the model (Models page, playground picker, key dialog) instead of offering it as if it worked.
// The same rules as the chat path: the model is enabled, one of its endpoints has an enabled and configured
// provider (or one the account brought its own key for), and the organization's allowed_models /
// allowed_providers settings admit it (gateway/account-policy.ts, ledger/reserve.ts).
import type { RoutingModel } from '@/server/routing/routing-table';

export type UnusableReason = 'model_disabled' | 'provider_disabled' | 'provider_not_configured' | 'organization_policy';

export interface ModelUsability {
  usable: boolean;
  reason: UnusableReason | null;
  /** One sentence for people; null when usable. */
  message: string | null;
}

/** The account's side: its organization's allow-lists (null = all) and the providers it holds its own key for. */
export interface AccountModelPolicy {
  allowedModels: readonly string[] | null;
  allowedProviders: readonly string[] | null;
  byokProviders: readonly string[];
}

export const OPEN_POLICY: AccountModelPolicy = { allowedModels: null, allowedProviders: null, byokProviders: [] };

const usable: ModelUsability = { usable: true, reason: null, message: null };
const unusable = (reason: UnusableReason, message: string): ModelUsability => ({ usable: false, reason, message });

export function modelUsability(m: RoutingModel, policy: AccountModelPolicy = OPEN_POLICY): ModelUsability {
  if (!m.enabled) return unusable('model_disabled', 'Disabled on this server by its operator.');
  const enabled = m.endpoints.filter((e) => e.provider.enabled);
  if (enabled.length === 0) return unusable('provider_disabled', 'Its provider is switched off on this server.');
  const served = enabled.filter((e) => e.provider.configured || policy.byokProviders.includes(e.provider.id));
  if (served.length === 0) {
    const missing = enabled.map((e) => e.provider.missing).find(Boolean);
    return unusable('provider_not_configured', `Its provider is not configured on this server${missing ? ` (${missing} is not set)` : ''}.`);
  }
  const models = policy.allowedModels;
  if (models && models.length > 0 && !models.includes(m.id) && !m.aliases.some((a) => models.includes(a))) {
    return unusable('organization_policy', "Not allowed by your organization's model policy.");
  }
  const providers = policy.allowedProviders;
  if (providers && providers.length > 0 && !served.some((e) => providers.includes(e.provider.id))) {
    return unusable('organization_policy', `Not served by a provider your organization allows (${providers.join(', ')}).`);
  }
  return usable;
}
