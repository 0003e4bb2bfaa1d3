// Every source of routing data → one immutable RoutingTable (routing-table.ts). Layers, lowest first, each
// replacing the one below by id (models and providers separately): the built-in catalog and provider
// variables < CUSTOM_PROVIDERS < the operators' admin entries < SWITCHBOARD_CONFIG. Runs at start and on
// every reload, so it is one pass over the entries with map lookups (thousands of models take milliseconds);
// problems that should not take the gateway down (an endpoint naming a provider that is gone) become
// warnings, not exceptions. Only CUSTOM_PROVIDERS being malformed throws, with its own message.
import { rawEnv, type Env } from '@/server/env';
import { parseCustomProviders } from '@/server/providers/custom-providers';
import { BUILTIN_PROVIDER_IDS, builtinProviders } from './builtin-providers';
import { compileProvider } from './compile-provider';
import { EMBEDDING_PROVIDER_TYPES, modelConfigSchema, type EntrySource, type ModelConfigEntry, type ProviderConfigEntry, type RoutingFile } from './config-schema';
import { convertCustomProviders } from './convert-custom-providers';
import { DEFAULT_MODELS } from './default-catalog';
import type { RoutingEndpoint, RoutingModel, RoutingProvider, RoutingTable } from './routing-table';

export interface RoutingSources {
  /** Builtin provider variables (OPENAI_API_KEY, OPENAI_BASE_URL, …) and CUSTOM_PROVIDERS: pass env(). */
  env: Env;
  /** Operators' entries from the database (routing-store.ts), keys already decrypted. */
  admin?: { providers: ProviderConfigEntry[]; models: ModelConfigEntry[] };
  /** SWITCHBOARD_CONFIG, parsed (or a test's inline config). */
  file?: RoutingFile | null;
  /** Reads key_env variables; default rawEnv from server/env.ts. */
  readVar?: (name: string) => string | undefined;
}

/** Highest first: the order in which aliases are claimed (the operator's own file before the shipped catalog). */
const SOURCE_RANK: Record<EntrySource, number> = { file: 0, admin: 1, custom_providers: 2, builtin: 3 };

/** The shipped catalog with the schema's defaults applied, once per process (it is constant data). */
let builtinModels: ModelConfigEntry[] | undefined;
function defaultModels(): ModelConfigEntry[] {
  builtinModels ??= DEFAULT_MODELS.map((m) => modelConfigSchema.parse(m));
  return builtinModels;
}

/** Provider ids a configuration file may name besides its own: built-ins, CUSTOM_PROVIDERS' and the admin's. */
export function knownProviderIds(s: Pick<RoutingSources, 'env' | 'admin'>): Set<string> {
  const ids = new Set(BUILTIN_PROVIDER_IDS);
  for (const p of parseCustomProviders(s.env.CUSTOM_PROVIDERS)) ids.add(p.id);
  for (const p of s.admin?.providers ?? []) ids.add(p.id);
  return ids;
}

interface Layered<T> {
  entry: T;
  source: EntrySource;
  keyVariable?: string;
}

function layer<T extends { id: string }>(into: Map<string, Layered<T>>, entries: readonly T[], source: EntrySource, what: string, warnings: string[]): void {
  const own = new Set<string>();
  for (const entry of entries) {
    if (own.has(entry.id)) warnings.push(`${source} ${what} "${entry.id}" is defined twice; the later entry is used`);
    own.add(entry.id);
    into.delete(entry.id); // a replaced entry takes its place in its own layer's order
    into.set(entry.id, { entry, source });
  }
}

export function buildRoutingTable(s: RoutingSources): RoutingTable {
  const readVar = s.readVar ?? rawEnv;
  const warnings: string[] = [];
  const custom = convertCustomProviders(parseCustomProviders(s.env.CUSTOM_PROVIDERS));

  const providerEntries = new Map<string, Layered<ProviderConfigEntry>>();
  for (const b of builtinProviders(s.env)) providerEntries.set(b.entry.id, { entry: b.entry, source: 'builtin', keyVariable: b.keyVariable });
  layer(providerEntries, custom.providers, 'custom_providers', 'provider', warnings);
  layer(providerEntries, s.admin?.providers ?? [], 'admin', 'provider', warnings);
  layer(providerEntries, s.file?.providers ?? [], 'file', 'provider', warnings);

  const providers = new Map<string, RoutingProvider>();
  for (const { entry, source, keyVariable } of providerEntries.values()) {
    providers.set(entry.id, compileProvider(entry, { source, readVar, warnings, keyVariable, credentialsDir: s.env.SWITCHBOARD_CREDENTIALS_DIR }));
  }

  const modelEntries = new Map<string, Layered<ModelConfigEntry>>();
  layer(modelEntries, defaultModels(), 'builtin', 'model', warnings);
  layer(modelEntries, custom.models, 'custom_providers', 'model', warnings);
  layer(modelEntries, s.admin?.models ?? [], 'admin', 'model', warnings);
  layer(modelEntries, s.file?.models ?? [], 'file', 'model', warnings);

  const compiled: CompiledModel[] = [];
  for (const { entry, source } of modelEntries.values()) {
    const model = compileModel(entry, source, providers, warnings);
    if (model) compiled.push({ model, aliases: entry.aliases, order: compiled.length });
  }

  const models = new Map<string, RoutingModel>();
  for (const { model } of compiled) models.set(model.id, model);
  claimAliases(compiled, models, warnings);

  const list = compiled.map((c) => c.model).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return Object.freeze({ models, list: Object.freeze(list), providers, warnings: Object.freeze(warnings) });
}

const micros = (usdPerMillion: number | undefined) => Math.round((usdPerMillion ?? 0) * 1e6);

function compileModel(entry: ModelConfigEntry, source: EntrySource, providers: ReadonlyMap<string, RoutingProvider>, warnings: string[]): RoutingModel | null {
  const endpoints: RoutingEndpoint[] = [];
  for (const e of entry.endpoints) {
    const provider = providers.get(e.provider);
    if (!provider) {
      warnings.push(`${source} model "${entry.id}": endpoint provider "${e.provider}" is not defined; the endpoint is left out`);
      continue;
    }
    if (entry.kind === 'embedding' && !EMBEDDING_PROVIDER_TYPES.has(provider.type)) {
      warnings.push(`${source} model "${entry.id}": provider "${e.provider}" (type ${provider.type}) has no embeddings API; the endpoint is left out`);
      continue;
    }
    endpoints.push(
      Object.freeze({
        provider,
        upstreamModel: e.upstream_model,
        contextLength: e.context_length ?? entry.context_length,
        maxOutputTokens: e.max_output_tokens ?? entry.max_output_tokens,
        entryLimits: Object.freeze({
          ...(e.context_length !== undefined ? { contextLength: e.context_length } : {}),
          ...(e.max_output_tokens !== undefined ? { maxOutputTokens: e.max_output_tokens } : {}),
        }),
        inputPrice: micros(e.pricing.input),
        outputPrice: micros(e.pricing.output),
        cacheReadPrice: micros(e.pricing.cache_read),
        cacheWritePrice: micros(e.pricing.cache_write),
        cacheWrite1hPrice: micros(e.pricing.cache_write_1h),
      }),
    );
  }
  if (endpoints.length === 0) {
    warnings.push(`${source} model "${entry.id}": no endpoint left; the model is left out`);
    return null;
  }
  return Object.freeze({
    id: entry.id,
    name: entry.name,
    description: entry.description,
    kind: entry.kind,
    contextLength: entry.context_length,
    maxOutputTokens: entry.max_output_tokens,
    supportsReasoning: entry.supports_reasoning,
    supportsImages: entry.supports_images,
    supportsPdf: entry.supports_pdf,
    supportsTools: entry.supports_tools,
    // Filled by claimAliases with the aliases this model really got.
    aliases: [] as string[],
    endpoints: Object.freeze(endpoints) as RoutingEndpoint[],
    enabled: entry.enabled,
    source,
  });
}

interface CompiledModel {
  model: RoutingModel;
  /** As the entry lists them; the model's own `aliases` gets the ones it wins. */
  aliases: readonly string[];
  /** Position in layer order, for "first wins" between entries of one layer. */
  order: number;
}

/**
 * Aliases resolve to their model in `models`. A model id always wins over an alias; between aliases the
 * higher layer wins (the operator's file over the shipped catalog), then the order of entries. Each loser
 * is a warning, and a model's `aliases` lists only the ones it got.
 */
function claimAliases(compiled: readonly CompiledModel[], models: Map<string, RoutingModel>, warnings: string[]): void {
  const byRank = [...compiled].sort((a, b) => SOURCE_RANK[a.model.source] - SOURCE_RANK[b.model.source] || a.order - b.order);
  for (const { model, aliases } of byRank) {
    const claimed = model.aliases;
    for (const alias of aliases) {
      const holder = models.get(alias);
      if (holder === model) continue; // its own id, or listed twice
      if (holder) {
        const what = holder.id === alias ? 'is the id of another model' : `is already an alias of "${holder.id}"`;
        warnings.push(`${model.source} model "${model.id}": alias "${alias}" ${what}; the alias is ignored`);
        continue;
      }
      models.set(alias, model);
      claimed.push(alias);
    }
    Object.freeze(claimed);
  }
}
