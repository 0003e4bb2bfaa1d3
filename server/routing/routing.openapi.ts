import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { providerInputDocSchema } from './admin-input';
import { modelConfigSchema, providerObjectSchema } from './config-schema';

const entryStatus = {
  source: z.enum(['builtin', 'custom_providers', 'admin', 'file']).describe('Where the entry in force comes from; precedence builtin < custom_providers < admin < file'),
  read_only: z.boolean().describe('true for SWITCHBOARD_CONFIG entries: edit the file instead (writes are a 409)'),
  active: z.boolean().describe("In the compiled table now; false for an operator's entry the table left out (see warnings)"),
};

const modelDtoSchema = modelConfigSchema.extend(entryStatus).meta({ id: 'RoutingModel' });

const keyDtoSchema = z.object({
  id: z.string(),
  weight: z.number(),
  key_env: z.string().optional().describe('The variable holding the key'),
  key_hint: z.string().optional().describe('A stored key, masked: its first 3 and last 4 characters when it has 20 or more ("sk-…abcd"), else "…"'),
  stored: z.literal(true).optional().describe('The key itself is stored (encrypted); it is never returned. Send the key back as { id, weight, stored: true } to keep it'),
});

const providerDtoSchema = providerObjectSchema
  .extend({
    keys: z.array(keyDtoSchema).describe("Operators' entries: as configured. Other sources: a built-in's key variable (key_env, set or not), else the usable keys (id, weight, and key_env for one read from a variable)"),
    ...entryStatus,
    configured: z.boolean().describe('Has a usable key, or needs none'),
    missing: z.string().optional().describe('What to set when not configured'),
    health: z.record(z.string(), z.enum(['healthy', 'cooling', 'open', 'half_open'])).describe('Live state of each usable key, by key id'),
  })
  .describe(
    "The entry as configured, cloud settings included (region, project, location, api_version, credentials_file's path, the variables holding credentials, timeout_ms), so a GET sent back as a PUT keeps them; secrets never (a stored key is its hint and `stored: true`). An operator's entry shows base_url only if it set one",
  )
  .meta({ id: 'RoutingProvider' });

const writeResult = (dto: z.ZodType) => z.object({ data: dto, warnings: z.array(z.string()).describe("The routing table's warnings about this entry after the write") });
const deleteResult = (dto: z.ZodType) =>
  z.object({ deleted: z.literal(true), id: z.string(), current: dto.nullable().describe('What serves this id now (a builtin that came back), or null') });

const ADMIN = 'Only operators (ADMIN_EMAILS, or `npm run cli -- user:admin --email E`) with a personal API key or an auth token; everyone else gets 403. ';
const RELOAD = 'This instance applies the change at once, every other instance within 5 seconds. ';
const modelId = z.object({ id: z.string().describe('The model id, URL-encoded: acme%2Ffast') });
const providerId = z.object({ id: z.string().describe('The provider id, e.g. openai-a') });
const modelBody = modelConfigSchema.describe('A model in the configuration file\'s shape (SWITCHBOARD_CONFIG). Output-only fields (source, read_only, active) are ignored, so a GET can be edited and sent back');
const providerBody = providerInputDocSchema.describe(
  "A provider in the configuration file's shape. A literal `key` is stored encrypted (AES-256-GCM with ENCRYPTION_KEY; on PostgreSQL without ENCRYPTION_KEY it is refused with a 400: use key_env) and never returned. " +
    'A key sent as { id, weight, stored: true } keeps the secret stored under that id (edit weights without re-sending secrets). Output-only fields are ignored. ' +
    'A vertex credentials_file must be a regular file inside SWITCHBOARD_CREDENTIALS_DIR once .. and symlinks are resolved (400 otherwise, and always when that variable is unset: use credentials_env)',
);

for (const [plural, tag, dto, body, idParam] of [
  ['models', 'Admin: models', modelDtoSchema, modelBody, modelId],
  ['providers', 'Admin: providers', providerDtoSchema, providerBody, providerId],
] as const) {
  defineEndpoint({
    method: 'get',
    path: `/admin/${plural}`,
    summary: `List every ${plural.slice(0, -1)} of the routing table, with its source`,
    description: ADMIN + "Builtin, CUSTOM_PROVIDERS, operators' and SWITCHBOARD_CONFIG entries, as in force on this instance; then operators' entries the table left out (active: false).",
    tags: [tag],
    response: z.object({ data: z.array(dto), warnings: z.array(z.string()).describe("The routing table's build warnings") }),
    errors: [403],
  });
  defineEndpoint({
    method: 'post',
    path: `/admin/${plural}`,
    summary: `Add a ${plural.slice(0, -1)} (an id no source has yet)`,
    description: ADMIN + RELOAD + 'An id that already exists is a 409 (PUT replaces); one defined in SWITCHBOARD_CONFIG is a 409 too (read-only here).' +
      (plural === 'models' ? ' An endpoint naming an unknown provider is a 400 naming it.' : ''),
    tags: [tag],
    body,
    status: 201,
    response: writeResult(dto),
    errors: [403, 409],
  });
  defineEndpoint({
    method: 'get',
    path: `/admin/${plural}/{id}`,
    summary: `One ${plural.slice(0, -1)}`,
    description: ADMIN,
    tags: [tag],
    params: idParam,
    response: z.object({ data: dto }),
    errors: [403, 404],
  });
  defineEndpoint({
    method: 'put',
    path: `/admin/${plural}/{id}`,
    summary: `Create (201) or replace (200) the operators' ${plural.slice(0, -1)} with this id`,
    description: ADMIN + RELOAD + "The body's id may be left out, or must equal the path's. A builtin's id gives an entry that overrides it (to hide a builtin, PUT it with enabled: false). SWITCHBOARD_CONFIG's ids are a 409.",
    tags: [tag],
    params: idParam,
    body,
    response: writeResult(dto),
    errors: [403, 409],
  });
  defineEndpoint({
    method: 'delete',
    path: `/admin/${plural}/{id}`,
    summary: `Delete the operators' ${plural.slice(0, -1)} with this id`,
    description:
      ADMIN + RELOAD + 'A builtin with the same id then serves it again (`current`). Builtin and SWITCHBOARD_CONFIG entries cannot be deleted (409).' +
      (plural === 'providers' ? " A provider that operators' models still route to is a 409 listing them (unless a builtin of that id takes its place)." : ''),
    tags: [tag],
    params: idParam,
    response: deleteResult(dto),
    errors: [403, 404, 409],
  });
}

const keyStateSchema = z.enum(['healthy', 'cooling', 'open', 'half_open']);

defineEndpoint({
  method: 'get',
  path: '/admin/key-health',
  summary: 'Live health of every provider key',
  description:
    ADMIN +
    "This server's view (shared between instances through Redis when REDIS_URL is set), as `npm run cli -- upstream:health` shows it: each provider of the routing table with each usable key's state, " +
    'when a cooldown or open circuit ends, consecutive failures and the last error; then keys the health state tracks outside the table (type, enabled and configured null).',
  tags: ['Admin: providers'],
  response: z.object({
    source: z.literal('server'),
    at: z.string(),
    providers: z.array(
      z.object({
        id: z.string(),
        type: z.string().nullable(),
        enabled: z.boolean().nullable(),
        configured: z.boolean().nullable(),
        missing: z.string().nullable().describe('Why an unconfigured provider is skipped'),
        keys: z.array(
          z.object({
            id: z.string(),
            ref: z.string().describe('<provider>/<key>'),
            weight: z.number().nullable(),
            state: keyStateSchema,
            until: z.string().nullable().describe('When a cooldown or open circuit ends'),
            seconds_left: z.number().int().nullable(),
            consecutive_failures: z.number().int().nullable(),
            last_error: z.string().nullable(),
          }),
        ),
      }),
    ),
  }),
  errors: [403],
});

defineEndpoint({
  method: 'get',
  path: '/models/{author}/{slug}/endpoints',
  summary: "A model's endpoints with provider, prices, context length and current health (OpenRouter's path)",
  description: 'The id\'s two halves: GET /models/acme/fast/endpoints. Aliases with a slash resolve to their model. Prices are USD per token, as strings.',
  tags: ['Models'],
  auth: false,
  params: z.object({ author: z.string(), slug: z.string() }),
  response: z.object({
    data: z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      endpoints: z.array(
        z.object({
          provider: z.string().describe('Provider id (what `provider.order` names)'),
          provider_name: z.string(),
          name: z.string(),
          upstream_model: z.string(),
          context_length: z.number().int(),
          max_completion_tokens: z.number().int(),
          pricing: z.object({ prompt: z.string(), completion: z.string(), input_cache_read: z.string(), input_cache_write: z.string(), input_cache_write_1h: z.string().describe("Writes to Anthropic's 1-hour prompt cache (cache_control ttl \"1h\")") }).describe('USD per token'),
          status: z
            .enum(['healthy', 'cooling', 'open', 'half_open', 'unconfigured', 'disabled'])
            .describe('healthy if any key of the provider is usable; else the best key state (half_open, cooling, open); unconfigured: no key set; disabled by an operator'),
        }),
      ),
    }),
  }),
  errors: [404],
});
