// The admin API's and the CLI's view of models and providers: the configuration file's shape (so a GET can be
// edited and PUT back, and catalog:export writes a file catalog:import reads), plus output-only fields saying
// where an entry comes from. Keys are never shown: a variable's name, or for a stored key its hint and
// `stored: true`.
import type { EntrySource, ModelConfigEntry, ProviderConfigEntry } from './config-schema';
import type { KeyHealthReader, KeyState } from './runtime-routing';
import { providerSettingsOf, type RoutingEndpoint, type RoutingModel, type RoutingProvider, type RoutingTable } from './routing-table';
import type { StoredKey, StoredProvider } from './routing-store';

/** Fields the API returns that are not part of an entry; a PUT or POST body may carry them back (ignored). */
export const OUTPUT_ONLY_FIELDS = ['source', 'read_only', 'active', 'configured', 'missing', 'health'] as const;

interface EntryStatus {
  source: EntrySource;
  /** Entries from SWITCHBOARD_CONFIG: edit the file instead. */
  read_only: boolean;
  /** In the compiled table now; false for an operator's entry the table left out (see the list's warnings). */
  active: boolean;
}

export type ModelDto = ModelConfigEntry & EntryStatus;

export type KeyDto = { id: string; weight: number; key_env?: string; key_hint?: string; stored?: true };
export type ProviderDto = Omit<ProviderConfigEntry, 'keys'> &
  EntryStatus & {
    keys: KeyDto[];
    /** Has a usable key, or needs none; otherwise `missing` says what to set. */
    configured: boolean;
    missing?: string;
    /** Live state of each usable key, by key id (this instance's view, shared through Redis when set); {} in the CLI. */
    health: Record<string, KeyState>;
  };

const usdPerMillion = (micros: number) => micros / 1_000_000;

function status(source: EntrySource, active: boolean): EntryStatus {
  return { source, read_only: source === 'file', active };
}

export function modelDto(m: RoutingModel): ModelDto {
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    kind: m.kind,
    context_length: m.contextLength,
    max_output_tokens: m.maxOutputTokens,
    supports_reasoning: m.supportsReasoning,
    supports_images: m.supportsImages,
    supports_pdf: m.supportsPdf,
    supports_tools: m.supportsTools,
    aliases: [...m.aliases],
    endpoints: m.endpoints.map((e) => ({
      provider: e.provider.id,
      upstream_model: e.upstreamModel,
      pricing: {
        input: usdPerMillion(e.inputPrice),
        output: usdPerMillion(e.outputPrice),
        // 0 in the table means "billed at the input price", which is what leaving the field out says.
        ...(e.cacheReadPrice ? { cache_read: usdPerMillion(e.cacheReadPrice) } : {}),
        ...(e.cacheWritePrice ? { cache_write: usdPerMillion(e.cacheWritePrice) } : {}),
        ...(e.cacheWrite1hPrice ? { cache_write_1h: usdPerMillion(e.cacheWrite1hPrice) } : {}),
      },
      // Only limits the endpoint sets itself: the model's own apply to the others, and a GET sent back as a
      // PUT must not pin them on the endpoint (a later change of the model's limits would not reach it).
      ...endpointLimits(e),
    })),
    enabled: m.enabled,
    ...status(m.source, true),
  };
}

function endpointLimits(e: RoutingEndpoint): { context_length?: number; max_output_tokens?: number } {
  // An endpoint built outside compileModel (none today) carries no entryLimits: show what is in force.
  const own = e.entryLimits ?? { contextLength: e.contextLength, maxOutputTokens: e.maxOutputTokens };
  return {
    ...(own.contextLength !== undefined ? { context_length: own.contextLength } : {}),
    ...(own.maxOutputTokens !== undefined ? { max_output_tokens: own.maxOutputTokens } : {}),
  };
}

/**
 * The keys of a provider that is not an operator's entry, as an entry names them: a built-in's is its variable
 * (whose name is the key's id, builtin-providers.ts), shown as key_env whether it is set or not; other keys
 * read from a variable show it as key_env; a literal key only its id. A GET sent back as a PUT (the override of
 * a built-in, the console's switch) then keeps reading the same variables.
 */
function compiledKeysDto(p: RoutingProvider): KeyDto[] {
  if (p.source === 'builtin' && p.keyVariable) return [{ id: p.keyVariable, key_env: p.keyVariable, weight: 1 }];
  return p.keys.map((k) => (k.keyEnv ? { id: k.id, weight: k.weight, key_env: k.keyEnv } : { id: k.id, weight: k.weight }));
}

/** An operator's stored model that the compiled table does not hold (e.g. every endpoint's provider is gone). */
export function inactiveModelDto(m: ModelConfigEntry): ModelDto {
  return { ...m, ...status('admin', false) };
}

function storedKeyDto(k: StoredKey): KeyDto {
  return k.key_env ? { id: k.id, weight: k.weight, key_env: k.key_env } : { id: k.id, weight: k.weight, key_hint: k.key_hint ?? '…', stored: true };
}

/**
 * A provider of the compiled table. The table keeps only usable keys and not where they came from, so the
 * operator's stored entry (when the table's provider is it) supplies the keys as configured.
 */
export function providerDto(p: RoutingProvider, stored: StoredProvider | undefined, health?: KeyHealthReader): ProviderDto {
  const own = p.source === 'admin' ? stored : undefined;
  // An operator's entry reads back as it was written (its base_url only if it set one: a Bedrock or Vertex
  // host derived from region or location must not be pinned by a GET → PUT), with its non-secret settings,
  // so a round trip keeps them. Other sources show the compiled provider and the settings it kept.
  const baseUrl = own ? own.base_url : /^https?:/.test(p.baseUrl) ? p.baseUrl : undefined; // echo's base URL is an in-process marker
  return {
    id: p.id,
    type: p.type,
    name: p.name,
    ...(baseUrl !== undefined ? { base_url: baseUrl } : {}),
    keys: own ? own.keys.map(storedKeyDto) : compiledKeysDto(p),
    headers: own ? { ...own.headers } : { ...p.headers },
    supports_stream_options: own ? own.supports_stream_options : true,
    ...(own ? providerSettingsOf(own) : (p.settings ?? {})),
    enabled: p.enabled,
    ...status(p.source, true),
    configured: p.configured,
    ...(p.missing ? { missing: p.missing } : {}),
    health: health ? Object.fromEntries(p.keys.map((k) => [k.id, health.view(k.ref).state])) : {},
  };
}

export function inactiveProviderDto(p: StoredProvider): ProviderDto {
  return { ...p, keys: p.keys.map(storedKeyDto), ...status('admin', false), configured: false, health: {} };
}

/**
 * A stored provider as the audit log records it: the entry with each key as its variable's name or its
 * hint (never the encrypted secret), and header values left out (they may carry credentials).
 */
export function providerAuditView(p: StoredProvider) {
  return { ...p, keys: p.keys.map(storedKeyDto), headers: Object.keys(p.headers ?? {}) };
}

/** Every model of the table once (sorted by id), then the operator's entries it left out. */
export function listModelDtos(table: RoutingTable, stored: ModelConfigEntry[]): ModelDto[] {
  const out = table.list.map(modelDto);
  const shown = new Set(table.list.map((m) => m.id));
  for (const m of stored) if (!shown.has(m.id)) out.push(inactiveModelDto(m));
  return out;
}

export function listProviderDtos(table: RoutingTable, stored: StoredProvider[], health?: KeyHealthReader): ProviderDto[] {
  const byId = new Map(stored.map((p) => [p.id, p]));
  const out = [...table.providers.values()].sort((a, b) => a.id.localeCompare(b.id)).map((p) => providerDto(p, byId.get(p.id), health));
  for (const p of stored) if (!table.providers.has(p.id)) out.push(inactiveProviderDto(p));
  return out;
}
