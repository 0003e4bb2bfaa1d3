// Admin API bodies (and catalog:import entries) into validated entries, with the configuration file's own
// schemas (config-schema.ts), so the API takes exactly what the file takes. Two additions, both so that a
// GET can be edited and sent back: output-only fields (source, read_only…) are ignored, and a key given as
// `{ "id": "key-1", "stored": true }` (what a GET shows for a stored key) keeps the secret stored under
// that id, so an operator can change weights without sending secrets again.
import { z } from 'zod';
import { AppError, badRequestFromZod } from '@/server/errors';
import { checkRoutingFile } from './check-routing-file';
import { BEDROCK_REGION_GUESSED, bedrockRegionGuessed, keyConfigSchema, modelConfigSchema, providerConfigSchema, providerObjectSchema, type ModelConfigEntry, type ProviderConfigEntry } from './config-schema';
import { OUTPUT_ONLY_FIELDS } from './routing-dto';
import type { ProviderInput, ProviderKeyInput } from './routing-store';

function entryObject(raw: unknown, what: string, pathId?: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new AppError('bad_request', `The body must be a JSON object: the ${what} in the configuration file's shape`);
  const entry: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const field of OUTPUT_ONLY_FIELDS) delete entry[field];
  if (pathId !== undefined) {
    if (entry.id === undefined) entry.id = pathId;
    else if (entry.id !== pathId) throw new AppError('bad_request', `id: the body's id "${String(entry.id)}" differs from the path's "${pathId}"`, { id: pathId });
  }
  return entry;
}

function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw badRequestFromZod(r.error);
  return r.data;
}

/** A model entry; `pathId` is the id of PUT /admin/models/{id} (the body's may be left out, or must match). */
export function parseModelInput(raw: unknown, pathId?: string): ModelConfigEntry {
  return parseOrThrow(modelConfigSchema, entryObject(raw, 'model', pathId));
}

const KEPT_PLACEHOLDER = 'SWITCHBOARD_KEPT_KEY';

/** A provider entry; keys may name stored secrets to keep (see the top of this file). */
export function parseProviderInput(raw: unknown, pathId?: string): ProviderInput {
  const entry = entryObject(raw, 'provider', pathId);
  const kept = new Set<number>();
  if (Array.isArray(entry.keys)) {
    entry.keys = entry.keys.map((k: unknown, i) => {
      if (typeof k !== 'object' || k === null) return k;
      const { stored, ...rest } = k as Record<string, unknown>;
      delete rest.key_hint; // output-only, like `stored`
      if (stored !== true || rest.key !== undefined || rest.key_env !== undefined) return rest;
      if (typeof rest.id !== 'string') throw new AppError('bad_request', `keys.${i}.id: a stored key to keep is named by its id`);
      kept.add(i);
      // Validated like any key (id, weight, no stray fields); swapped back for the keep marker below.
      return { ...rest, key_env: KEPT_PLACEHOLDER };
    });
  }
  const provider = parseOrThrow(providerConfigSchema, entry);
  if (bedrockRegionGuessed(provider)) throw new AppError('bad_request', `region: ${BEDROCK_REGION_GUESSED}`, { field: 'region' });
  const keys: ProviderKeyInput[] = provider.keys.map((k, i) => (kept.has(i) ? { id: k.id!, weight: k.weight, keep: true } : k));
  return { ...provider, keys };
}

/**
 * What the file's schema cannot see, checked as for SWITCHBOARD_CONFIG (check-routing-file.ts): an endpoint
 * naming an unknown provider, an openai-compatible provider without base_url, repeated key ids or aliases.
 * The first problem is the 400, named by its field within the entry (`endpoints[1].provider: …`).
 */
export function checkEntryOrThrow(entry: { provider: ProviderInput } | { model: ModelConfigEntry }, knownProviders: ReadonlySet<string>): void {
  const providers: ProviderConfigEntry[] =
    'provider' in entry ? [{ ...entry.provider, keys: entry.provider.keys.map((k) => ('keep' in k ? { id: k.id, key_env: KEPT_PLACEHOLDER, weight: k.weight } : k)) }] : [];
  const problem = checkRoutingFile({ providers, models: 'model' in entry ? [entry.model] : [] }, knownProviders)[0];
  if (!problem) return;
  // Dotted like the schema's messages (formatZodIssues): one spelling of a field across the API.
  const field = problem.path.slice(2).join('.');
  throw new AppError('bad_request', field ? `${field}: ${problem.message}` : problem.message, { field });
}

/** For the OpenAPI document: the provider body as it is accepted (a key may be a stored one to keep). */
export const providerInputDocSchema = providerObjectSchema.extend({
  keys: z
    .array(
      z.union([
        keyConfigSchema,
        z
          .object({ id: z.string(), weight: z.number().positive().default(1), stored: z.literal(true) })
          .describe('Keeps the secret stored under this id (as a GET shows it); only the weight changes'),
      ]),
    )
    .default([]),
});
