// The compiled routing table: an immutable snapshot built from every source (built-in catalog and
// provider variables, CUSTOM_PROVIDERS, the operators' admin entries in the database, SWITCHBOARD_CONFIG)
// by build-routing-table.ts. The chat path reads it synchronously: resolving a model, its endpoints and
// their keys is a few map lookups, no database round trip. A reload builds a new table and swaps the
// reference; requests in flight keep the table (and the adapters, keys and prices) they started with.
import type { ProviderAdapter, ProviderConfig } from '@/server/providers/types';
import type { EntrySource, ModelKind, ProviderConfigEntry, ProviderType } from './config-schema';

/** Integer micro-dollars per million tokens ($0.15/M = 150_000), the names computeCost reads. */
export interface Pricing {
  inputPrice: number;
  outputPrice: number;
  /** 0 = billed at inputPrice. */
  cacheReadPrice: number;
  /** 0 = billed at inputPrice. Writes to the 5-minute cache (Anthropic) or the provider's only cache. */
  cacheWritePrice: number;
  /** Writes to the 1-hour cache (Anthropic's `ttl: "1h"`). 0 = billed as other cache writes. */
  cacheWrite1hPrice: number;
}

/** The prices a generation is billed at, each fallback applied (what /models shows and computeCost charges). */
export function chargedPrices(m: Pricing): { input: number; output: number; cacheRead: number; cacheWrite: number; cacheWrite1h: number } {
  const cacheWrite = m.cacheWritePrice || m.inputPrice;
  return { input: m.inputPrice, output: m.outputPrice, cacheRead: m.cacheReadPrice || m.inputPrice, cacheWrite, cacheWrite1h: m.cacheWrite1hPrice || cacheWrite };
}

export interface RoutingKey {
  /** As configured (or key_env, or `key-<n>`): what health output, metrics and usage records show. */
  id: string;
  /** `<provider id>/<key id>`: the key's identity in health state, shared across instances. */
  ref: string;
  /** Undefined when its variable is unset (such a key is skipped; a provider with none left is unconfigured). */
  apiKey: string | undefined;
  weight: number;
  /** The paying account's own key (BYOK, gateway/account-policy.ts): charged at the fee; no shared health state. */
  byok?: { feeBps: number };
  /** The variable the value was read from (the entry's key_env), for the admin API's read; absent for a literal key. */
  keyEnv?: string;
}

export interface RoutingProvider {
  id: string;
  type: ProviderType;
  name: string;
  adapter: ProviderAdapter;
  /** No trailing slash. */
  baseUrl: string;
  /** Sent with every request to this provider (after the adapter's own). */
  headers: Record<string, string>;
  /** Usable keys (with a value), by weight. Empty for a provider that needs none (echo, a local server). */
  keys: RoutingKey[];
  /**
   * Usable: it has a key, or its base URL differs from the public default (a local or self-hosted server
   * may need no key). Otherwise its endpoints are skipped, and a model with no other endpoint gets a 503
   * naming `missing`.
   */
  configured: boolean;
  missing?: string;
  /** A built-in's key variable (builtin-providers.ts), set or not: the admin API shows it as the key's key_env. */
  keyVariable?: string;
  enabled: boolean;
  source: EntrySource;
  /** Time to the response headers before an attempt counts as timed out and the next endpoint is tried. */
  timeoutMs?: number;
  /**
   * The entry's other settings, for the admin API's read (cloud fields: region, project, location,
   * api_version, credentials_file, the variables holding credentials…). None is a secret: they name
   * variables and files, never their contents.
   */
  settings?: ProviderSettings;
}

/** Fields of a provider entry that the compiled provider does not otherwise keep, and that hold no secret. */
export const PROVIDER_SETTING_FIELDS = [
  'timeout_ms',
  'region',
  'access_key_id_env',
  'secret_access_key_env',
  'session_token_env',
  'aws_credentials',
  'project',
  'location',
  'credentials_file',
  'credentials_env',
  'api_version',
  'tenant_id',
  'client_id',
  'client_secret_env',
  'token_url',
] as const;
export type ProviderSettings = Partial<Pick<ProviderConfigEntry, (typeof PROVIDER_SETTING_FIELDS)[number]>>;

/** The settings an entry sets (absent fields left out, so a read shows only what was configured). */
export function providerSettingsOf(entry: ProviderSettings): ProviderSettings {
  const out: Record<string, unknown> = {};
  for (const field of PROVIDER_SETTING_FIELDS) if (entry[field] !== undefined) out[field] = entry[field];
  return out as ProviderSettings;
}

export interface RoutingEndpoint extends Pricing {
  provider: RoutingProvider;
  upstreamModel: string;
  /** In force: the endpoint's own limit, else the model's. */
  contextLength: number;
  maxOutputTokens: number;
  /**
   * The limits the endpoint's entry sets itself (absent: the model's apply), for the admin API's read: a GET
   * shows the entry as configured, so sending it back does not pin the model's limits on the endpoint.
   */
  entryLimits?: { contextLength?: number; maxOutputTokens?: number };
}

export interface RoutingModel {
  id: string;
  name: string;
  description: string;
  /** Which routes serve it: chat ones, or /embeddings. */
  kind: ModelKind;
  contextLength: number;
  maxOutputTokens: number;
  supportsReasoning: boolean;
  supportsImages: boolean;
  /** Takes PDF documents (file parts). */
  supportsPdf: boolean;
  supportsTools: boolean;
  aliases: string[];
  /** Default order; the first is the primary. */
  endpoints: RoutingEndpoint[];
  enabled: boolean;
  source: EntrySource;
}

export interface RoutingTable {
  /** Enabled and disabled models by id and by alias. */
  readonly models: ReadonlyMap<string, RoutingModel>;
  /** Every model once, sorted by id. */
  readonly list: readonly RoutingModel[];
  readonly providers: ReadonlyMap<string, RoutingProvider>;
  /** Problems that did not stop the build (an endpoint naming an unknown provider…), for logs and the admin API. */
  readonly warnings: readonly string[];
}

/** The config an adapter's converters get for one endpoint and one key. */
export function providerConfigFor(provider: RoutingProvider, key: RoutingKey | undefined): ProviderConfig {
  return { baseUrl: provider.baseUrl, apiKey: key?.apiKey };
}
