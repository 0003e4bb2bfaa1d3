// Which providers of the routing table an account may give its own key for (bring your own key). Only those
// whose upstream takes one API key as the whole credential: the gateway then sends that key instead of the
// operator's, and nothing else about the provider changes. The cloud providers need more than a key string.
import { AppError } from '@/server/errors';
import type { ProviderType } from '@/server/routing/config-schema';
import type { RoutingProvider, RoutingTable } from '@/server/routing/routing-table';

/** Why a provider type cannot take an account's own key; types absent here (and not keyless) can. */
const NOT_BYOK: Partial<Record<ProviderType, string>> = {
  bedrock: 'Amazon Bedrock signs each request with AWS credentials (an access key pair and a region, SigV4), not one API key',
  vertex: 'Vertex AI authenticates with a Google Cloud service account (OAuth tokens) for a project and region, not one API key',
  'azure-openai': 'Azure OpenAI keys belong to one Azure resource and its deployments, which are part of the operator’s configured endpoint',
  echo: 'the echo provider runs inside Switchboard and takes no key',
};

export function byokRefusal(type: ProviderType): string | undefined {
  return NOT_BYOK[type];
}

/** Provider ids of `table` that accept an account's own key, sorted. */
export function byokProviderIds(table: RoutingTable): string[] {
  return [...table.providers.values()].filter((p) => !byokRefusal(p.type)).map((p) => p.id).sort();
}

/** The provider `id` of the current routing table, if it accepts an account's own key; else a 400 saying why. */
export function byokProviderOrThrow(table: RoutingTable, id: string): RoutingProvider {
  const provider = table.providers.get(id);
  if (!provider) {
    throw new AppError('bad_request', `Unknown provider "${id}": use the id of a provider of this server that accepts your own key (${byokProviderIds(table).join(', ') || 'none'})`, {
      provider: id,
      providers: byokProviderIds(table),
    });
  }
  const refusal = byokRefusal(provider.type);
  if (refusal) throw new AppError('bad_request', `Provider "${id}" cannot use your own key: ${refusal}`, { provider: id, provider_type: provider.type });
  return provider;
}
