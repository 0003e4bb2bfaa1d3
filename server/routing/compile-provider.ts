// One provider entry (file, admin, CUSTOM_PROVIDERS or built-in) → the table's RoutingProvider: its adapter,
// its usable keys (values read now), and whether it can serve at all (`configured`, else what is `missing`).
import { anthropicAdapter } from '@/server/providers/anthropic';
import { buildBedrockAdapter } from '@/server/providers/bedrock';
import { echoAdapter } from '@/server/providers/echo';
import { geminiAdapter } from '@/server/providers/gemini';
import { openaiAdapter } from '@/server/providers/openai';
import { azureOpenAIAdapter, buildAzureOpenAIAdapter } from '@/server/providers/azure-openai';
import { createOpenAICompatibleAdapter, deepseekAdapter } from '@/server/providers/openai-compatible';
import { openrouterAdapter } from '@/server/providers/openai-compatible/openrouter-dialect';
import { groqAdapter, mistralAdapter, xaiAdapter } from '@/server/providers/openai-compatible/service-profiles';
import type { ProviderAdapter } from '@/server/providers/types';
import { buildVertexAdapter } from '@/server/providers/vertex/build-vertex-adapter';
import { checkAdminCredentialsFile } from './admin-credentials-file';
import { ECHO_BASE_URL, PUBLIC_BASE_URLS } from './builtin-providers';
import { BEDROCK_REGION_GUESSED, bedrockRegionGuessed, type EntrySource, type KeyConfig, type ProviderConfigEntry, type ProviderType } from './config-schema';
import { providerSettingsOf, type RoutingKey, type RoutingProvider } from './routing-table';

// Adapters hold no per-provider state (base URL and key come with each request's ProviderConfig, headers are
// added by the gateway), so two openai-compatible instances serve every such provider: a reload allocates none.
const compatibleAdapters = {
  withStreamOptions: createOpenAICompatibleAdapter({ supportsStreamOptions: true }),
  withoutStreamOptions: createOpenAICompatibleAdapter({ supportsStreamOptions: false }),
};

/**
 * What a provider type that carries per-provider state builds from its entry: cloud credentials and token
 * caches live in the adapter instance (a reload builds a new one). `credentials` replaces the key-based
 * "configured" check (a provider signed with IAM credentials or a service account has no keys); `baseUrl`
 * is the default endpoint when the entry gives none (a region's or location's host).
 */
export interface BuiltAdapter {
  adapter: ProviderAdapter;
  credentials?: { configured: boolean; missing?: string };
  baseUrl?: string;
}

/** Provider types built per entry (bedrock, vertex, azure-openai…): type → factory. */
const ADAPTER_FACTORIES: Partial<Record<ProviderType, (entry: ProviderConfigEntry, readVar: (name: string) => string | undefined) => BuiltAdapter>> = {
  bedrock: buildBedrockAdapter,
  vertex: buildVertexAdapter,
  'azure-openai': (entry, readVar) => buildAzureOpenAIAdapter(entry, readVar),
  // provider-factories-end
};

export function adapterFor(type: ProviderType, supportsStreamOptions: boolean): ProviderAdapter {
  switch (type) {
    case 'openai':
      return openaiAdapter;
    case 'anthropic':
      return anthropicAdapter;
    case 'gemini':
      return geminiAdapter;
    case 'deepseek':
      return deepseekAdapter;
    case 'echo':
      return echoAdapter;
    // azure-openai is built per entry (ADAPTER_FACTORIES); this keyed v1-API instance is never reached from there.
    case 'azure-openai':
      return azureOpenAIAdapter;
    case 'mistral':
      return mistralAdapter;
    case 'xai':
      return xaiAdapter;
    case 'groq':
      return groqAdapter;
    case 'openrouter':
      return openrouterAdapter;
    case 'openai-compatible':
      return supportsStreamOptions ? compatibleAdapters.withStreamOptions : compatibleAdapters.withoutStreamOptions;
    default:
      throw new Error(`provider type ${type} is built by its ADAPTER_FACTORIES entry`);
  }
}

/** A key's id as health output and usage records show it: as configured, else its variable, else `key-<n>`. */
export function keyIdOf(key: KeyConfig, index: number): string {
  return key.id ?? key.key_env ?? `key-${index + 1}`;
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');

export interface CompileProviderOptions {
  source: EntrySource;
  readVar: (name: string) => string | undefined;
  warnings: string[];
  /** Built-ins only: the variable an unconfigured one needs (OPENAI_API_KEY), named in the 503. */
  keyVariable?: string;
  /** SWITCHBOARD_CREDENTIALS_DIR: where admin entries may read a credentials_file. */
  credentialsDir?: string;
}

/**
 * An admin entry's credentials_file, checked again at every build (admin-credentials-file.ts): outside the
 * directory it is never opened, and the provider is not configured, saying why.
 */
function confineAdminCredentialsFile(entry: ProviderConfigEntry, o: CompileProviderOptions): { entry: ProviderConfigEntry; problem?: string } {
  if (o.source !== 'admin' || entry.credentials_file === undefined) return { entry };
  const verdict = checkAdminCredentialsFile(entry.credentials_file, o.credentialsDir);
  if (verdict.ok) return { entry: { ...entry, credentials_file: verdict.realPath } };
  const { credentials_file: _refused, ...rest } = entry;
  return { entry: rest, problem: verdict.problem };
}

export function compileProvider(entry: ProviderConfigEntry, o: CompileProviderOptions): RoutingProvider {
  const keys: RoutingKey[] = [];
  const unsetVariables: string[] = [];
  const seen = new Set<string>();
  entry.keys.forEach((k, i) => {
    const id = keyIdOf(k, i);
    if (seen.has(id)) {
      o.warnings.push(`${o.source} provider "${entry.id}": key id "${id}" is used twice; the second key is left out (give each key its own id)`);
      return;
    }
    seen.add(id);
    // A variable set to blanks is as good as unset (env.ts treats its own variables the same way).
    const apiKey = k.key ?? (k.key_env !== undefined ? o.readVar(k.key_env)?.trim() || undefined : undefined);
    if (apiKey === undefined) {
      if (k.key_env !== undefined) unsetVariables.push(k.key_env);
      return;
    }
    keys.push(Object.freeze({ id, ref: `${entry.id}/${id}`, apiKey, weight: k.weight, ...(k.key_env !== undefined ? { keyEnv: k.key_env } : {}) }));
  });

  if (bedrockRegionGuessed(entry)) o.warnings.push(`${o.source} provider "${entry.id}": ${BEDROCK_REGION_GUESSED}; signing for us-east-1 meanwhile`);
  const confined = confineAdminCredentialsFile(entry, o);
  const built = ADAPTER_FACTORIES[entry.type]?.(confined.entry, o.readVar);
  if (built && confined.problem) built.credentials = { configured: false, missing: confined.problem };
  const publicUrl = PUBLIC_BASE_URLS[entry.type];
  const baseUrl = stripSlash(entry.type === 'echo' ? ECHO_BASE_URL : (entry.base_url ?? built?.baseUrl ?? publicUrl ?? ''));
  const keyed = configuredState(entry, { baseUrl, publicUrl, usableKeys: keys.length, unsetVariables, keyVariable: o.keyVariable });
  // Cloud credentials: usable with them, or with a key where the type also takes keys (a Bedrock API key).
  const { configured, missing } = built?.credentials && !(keys.length > 0) ? (baseUrl ? built.credentials : keyed) : keyed;

  return Object.freeze({
    id: entry.id,
    type: entry.type,
    name: entry.name ?? entry.id,
    adapter: built?.adapter ?? adapterFor(entry.type, entry.supports_stream_options),
    baseUrl,
    headers: Object.freeze({ ...entry.headers }),
    keys: Object.freeze(keys) as RoutingKey[],
    configured,
    ...(missing === undefined ? {} : { missing }),
    ...(o.keyVariable === undefined ? {} : { keyVariable: o.keyVariable }),
    enabled: entry.enabled,
    source: o.source,
    ...(entry.timeout_ms === undefined ? {} : { timeoutMs: entry.timeout_ms }),
    settings: Object.freeze(providerSettingsOf(entry)),
  });
}

interface ConfiguredFacts {
  baseUrl: string;
  publicUrl: string | undefined;
  usableKeys: number;
  unsetVariables: string[];
  keyVariable?: string;
}

/**
 * Usable = has a key with a value; or needs none: echo, an openai-compatible server given no keys (a local
 * Ollama or vLLM), a built-in type pointed away from its public API (a proxy or self-hosted server). Keys
 * that were listed but whose variables are all unset mean the operator expects a key: not usable, and the
 * 503 names the variables.
 */
function configuredState(entry: ProviderConfigEntry, f: ConfiguredFacts): { configured: boolean; missing?: string } {
  if (entry.type === 'echo') return { configured: true };
  if (!f.baseUrl) return { configured: false, missing: `a base_url for provider "${entry.id}"` };
  if (f.usableKeys > 0) return { configured: true };
  if (entry.keys.length > 0) {
    return { configured: false, missing: f.unsetVariables.length ? f.unsetVariables.join(' or ') : `a key for provider "${entry.id}"` };
  }
  if (entry.type === 'openai-compatible') return { configured: true };
  if (f.publicUrl !== undefined && f.baseUrl !== stripSlash(f.publicUrl)) return { configured: true };
  return { configured: false, missing: f.keyVariable ?? `a key for provider "${entry.id}"` };
}
