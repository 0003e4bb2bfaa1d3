// catalog:export: the routing table as a YAML file in SWITCHBOARD_CONFIG's shape (what catalog:import and
// SWITCHBOARD_CONFIG read), each entry from its source as configured and marked with a comment naming the
// source. Secrets are never printed: a variable's name (key_env) is, a literal or stored key is left out and a
// comment says which key id was left out (catalog:import keeps stored keys the file does not list).
import { Document, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Env } from '@/server/env';
import { parseCustomProviders } from '@/server/providers/custom-providers';
import { builtinProviders } from './builtin-providers';
import type { EntrySource, KeyConfig, ModelConfigEntry, ProviderConfigEntry } from './config-schema';
import { convertCustomProviders } from './convert-custom-providers';
import type { CurrentRouting } from './current-routing';
import { modelDto, OUTPUT_ONLY_FIELDS } from './routing-dto';
import type { StoredKey } from './routing-store';

export const ALL_SOURCES: readonly EntrySource[] = ['builtin', 'custom_providers', 'admin', 'file'];

interface Exported<T> {
  entry: T;
  source: EntrySource;
  note?: string;
}

type ExportedKey = Omit<KeyConfig, 'key'>;

/** Keys as they may be printed: variables by name; any key itself left out, and named in the note. */
function printableKeys(keys: readonly (KeyConfig | StoredKey)[], builtin: boolean): { keys: ExportedKey[]; left: string[] } {
  const out: ExportedKey[] = [];
  const left: string[] = [];
  keys.forEach((k, i) => {
    const id = k.id ?? k.key_env ?? `key-${i + 1}`;
    if (k.key_env) out.push({ id, key_env: k.key_env, weight: k.weight });
    // A built-in's key comes from its variable, whose name is the key's id (builtin-providers.ts).
    else if (builtin) out.push({ id, key_env: id, weight: k.weight });
    else left.push('key_hint' in k && k.key_hint ? `${id} (${k.key_hint})` : id);
  });
  return { keys: out, left };
}

function providerEntry(entry: ProviderConfigEntry | (Omit<ProviderConfigEntry, 'keys'> & { keys: StoredKey[] }), source: EntrySource): Exported<object> {
  const { keys, left } = printableKeys(entry.keys, source === 'builtin');
  const note = left.length ? `keys not exported (secrets): ${left.join(', ')}` : undefined;
  return { entry: { ...entry, keys }, source, note };
}

/** The entry without the admin API's output-only fields (a ModelDto carries them). */
function modelEntry(m: ModelConfigEntry): object {
  const entry: Record<string, unknown> = { ...m };
  for (const field of OUTPUT_ONLY_FIELDS) delete entry[field];
  return entry;
}

export function exportCatalog(p: { current: CurrentRouting; env: Env; sources?: readonly EntrySource[]; now?: Date }): string {
  const { table, file, stored } = p.current;
  const sources = new Set(p.sources ?? ALL_SOURCES);
  const configured: Record<EntrySource, Map<string, ProviderConfigEntry | (Omit<ProviderConfigEntry, 'keys'> & { keys: StoredKey[] })>> = {
    builtin: new Map(builtinProviders(p.env).map((b) => [b.entry.id, b.entry])),
    custom_providers: new Map(convertCustomProviders(parseCustomProviders(p.env.CUSTOM_PROVIDERS)).providers.map((e) => [e.id, e])),
    admin: new Map(stored.providers.map((e) => [e.id, e])),
    file: new Map((file?.providers ?? []).map((e) => [e.id, e])),
  };
  const providers: Exported<object>[] = [];
  for (const p2 of [...table.providers.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    const entry = configured[p2.source].get(p2.id);
    if (sources.has(p2.source) && entry) providers.push(providerEntry(entry, p2.source));
  }
  const models: Exported<object>[] = [];
  const storedModels = new Map(stored.models.map((m) => [m.id, m]));
  const fileModels = new Map((file?.models ?? []).map((m) => [m.id, m]));
  for (const m of table.list) {
    if (!sources.has(m.source)) continue;
    const own = m.source === 'admin' ? storedModels.get(m.id) : m.source === 'file' ? fileModels.get(m.id) : undefined;
    models.push({ entry: modelEntry(own ?? modelDto(m)), source: m.source });
  }
  if (sources.has('admin')) {
    // Operators' entries the table left out (an endpoint's provider is gone…): exported, and said so.
    for (const s of stored.providers) if (!table.providers.has(s.id)) providers.push({ ...providerEntry(s, 'admin'), note: 'not in the routing table now (see catalog:list)' });
    for (const s of stored.models) if (!table.models.has(s.id)) models.push({ entry: modelEntry(s), source: 'admin', note: 'not in the routing table now (see catalog:list)' });
  }
  return render(providers, models, p.now ?? new Date(), [...sources]);
}

function render(providers: Exported<object>[], models: Exported<object>[], now: Date, sources: EntrySource[]): string {
  const doc = new Document({ providers: providers.map((p) => p.entry), models: models.map((m) => m.entry) });
  doc.commentBefore = [
    ` Switchboard routing catalog, exported ${now.toISOString()} (sources: ${sources.join(', ')}).`,
    ' The shape of SWITCHBOARD_CONFIG and of `npm run cli -- catalog:import FILE`. Keys themselves are never',
    ' exported: variables are named (key_env); stored keys are listed in comments and kept by catalog:import.',
  ].join('\n');
  const annotate = (seq: YAMLSeq, list: Exported<object>[]) =>
    list.forEach((item, i) => {
      (seq.items[i] as YAMLMap).commentBefore = ` source: ${item.source}${item.note ? `; ${item.note}` : ''}`;
    });
  annotate(doc.get('providers') as YAMLSeq, providers);
  annotate(doc.get('models') as YAMLSeq, models);
  return doc.toString({ lineWidth: 0 });
}
