// The `type: vertex` provider factory (registered in server/routing/compile-provider.ts): reads the
// service-account key once per routing-table build and gives the adapter its own token cache.
import type { BuiltAdapter } from '@/server/routing/compile-provider';
import type { ProviderConfigEntry } from '@/server/routing/config-schema';
import { createAccessTokenCache } from './access-token-cache';
import { createServiceAccountTokenSource } from './google-token-source';
import { createVertexAdapter } from './index';
import { readServiceAccount } from './service-account';
import { vertexBaseUrl } from './vertex-url';

export function buildVertexAdapter(entry: ProviderConfigEntry, readVar: (name: string) => string | undefined): BuiltAdapter {
  const account = readServiceAccount(entry, readVar);
  // The key names its project; `project` in the entry wins (a key of one project may call another's models).
  const project = entry.project ?? (account.ok ? account.account.project_id : undefined);
  const missing = [
    ...(account.ok ? [] : [account.missing]),
    ...(project ? [] : [`project for provider "${entry.id}"`]),
    ...(entry.location ? [] : [`location for provider "${entry.id}" (global or a region such as us-east5)`]),
  ];
  const source = account.ok ? createServiceAccountTokenSource(account.account) : () => Promise.reject(new Error('no usable service-account key'));
  const adapter = createVertexAdapter({
    providerId: entry.id,
    project: project ?? '',
    location: entry.location ?? 'global',
    explicitBaseUrl: entry.base_url !== undefined,
    tokens: createAccessTokenCache(source),
  });
  // With `keys` (express-mode API keys) and no service account the provider serves Gemini on the global
  // host; the keys make it configured (compile-provider.ts), and other models answer 503 saying why.
  return {
    adapter,
    credentials: missing.length === 0 ? { configured: true } : { configured: false, missing: missing.join('; ') },
    baseUrl: vertexBaseUrl(entry.location ?? 'global'),
  };
}
