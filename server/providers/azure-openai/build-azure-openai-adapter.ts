// The factory behind `type: azure-openai` (server/routing/compile-provider.ts ADAPTER_FACTORIES): one adapter
// per provider entry, holding that entry's api-version and, with Entra ID, its token cache. Takes the entry's
// fields as plain values so this folder does not depend on the routing layer.
import { createAzureOpenAIAdapter } from './create-azure-openai-adapter';
import { createEntraTokenSource, entraTokenUrl } from './entra-token-source';
import type { ProviderAdapter } from '../types';

export interface AzureOpenAIEntry {
  id: string;
  api_version?: string;
  tenant_id?: string;
  client_id?: string;
  client_secret_env?: string;
  token_url?: string;
}

export interface BuiltAzureAdapter {
  adapter: ProviderAdapter;
  /** Only with Entra ID fields: whether the client credentials are complete (else keys decide, as for any provider). */
  credentials?: { configured: boolean; missing?: string };
}

export function buildAzureOpenAIAdapter(entry: AzureOpenAIEntry, readVar: (name: string) => string | undefined): BuiltAzureAdapter {
  const entraFields = entry.tenant_id ?? entry.client_id ?? entry.client_secret_env ?? entry.token_url;
  if (entraFields === undefined) return { adapter: createAzureOpenAIAdapter({ apiVersion: entry.api_version }) };

  const secret = entry.client_secret_env ? readVar(entry.client_secret_env)?.trim() || undefined : undefined;
  const tokenUrl = entry.token_url ?? (entry.tenant_id ? entraTokenUrl(entry.tenant_id) : undefined);
  const missing = [
    entry.client_id ? null : `client_id for provider "${entry.id}"`,
    tokenUrl ? null : `tenant_id (or token_url) for provider "${entry.id}"`,
    entry.client_secret_env ? (secret ? null : entry.client_secret_env) : `client_secret_env for provider "${entry.id}"`,
  ].filter((m): m is string => m !== null);
  if (missing.length > 0 || !tokenUrl || !entry.client_id || !secret) {
    // Incomplete client credentials: not usable, and the 503 names what is missing.
    return { adapter: createAzureOpenAIAdapter({ apiVersion: entry.api_version }), credentials: { configured: false, missing: missing.join(' and ') } };
  }
  const entra = createEntraTokenSource({ provider: entry.id, tokenUrl, clientId: entry.client_id, clientSecret: secret });
  return { adapter: createAzureOpenAIAdapter({ apiVersion: entry.api_version, entra }), credentials: { configured: true } };
}
