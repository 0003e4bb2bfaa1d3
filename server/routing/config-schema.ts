// The routing configuration's shape: what SWITCHBOARD_CONFIG holds (YAML or JSON), what the admin API
// takes and returns (/api/v1/admin/models, /api/v1/admin/providers) and what `catalog:import` reads. One
// schema for all three, so they cannot drift. Names are a public contract (README, OpenAPI): snake_case
// as in the file. Prices are USD per million tokens here; the compiled table (routing-table.ts) holds
// integer micro-dollars.
import { z } from 'zod';

export const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,40}$/;
/** `author/slug`, both halves lower-case-ish: what clients send as `model`. */
export const MODEL_ID = /^[a-z0-9][a-z0-9._-]{0,60}\/[a-zA-Z0-9][a-zA-Z0-9._:-]{0,120}$/;

/** Wire formats a provider can speak. `deepseek` and `echo` are the built-ins' own (see default-catalog.ts). */
export const PROVIDER_TYPES = ['openai', 'anthropic', 'gemini', 'openai-compatible', 'deepseek', 'echo', 'bedrock', 'vertex', 'azure-openai', 'mistral', 'xai', 'groq', 'openrouter'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

const envVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must name an environment variable');
/**
 * What a model does: `chat` models are served by the chat routes (/chat/completions, /messages, /responses),
 * `embedding` models only by /embeddings (server/embeddings). Each route refuses the other kind with a 400.
 */
export const MODEL_KINDS = ['chat', 'embedding'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];
/** Provider types with an embeddings API (OpenAI's shape, or Gemini's batchEmbedContents). */
export const EMBEDDING_PROVIDER_TYPES: ReadonlySet<ProviderType> = new Set<ProviderType>(['openai', 'openai-compatible', 'gemini']);

// A blank or non-numeric form field reaches the schema as null (JSON has no NaN): say what to type, not zod's
// "expected number, received null". Other wrong types keep zod's words ("expected number, received string").
const blank = (input: unknown) => input === null || (typeof input === 'number' && Number.isNaN(input));
const requiredNumber = (what: string) => z.number({ error: (issue) => (blank(issue.input) ? `enter ${what}` : undefined) });
const usdPerMillion = requiredNumber('a price in US dollars per million tokens (0 for free)')
  .min(0, 'a price cannot be negative')
  .max(100_000, 'a price above $100,000 per million tokens is surely a typo');
const tokenCount = () => requiredNumber('a number of tokens').int('a whole number of tokens').positive('a number of tokens above 0');

export const keyConfigSchema = z
  .object({
    /** Shown in health output, metrics and usage records; default: key_env, or `key-<n>` (1-based). */
    id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'key id: letters, digits, dot, dash, underscore').optional(),
    /** The environment variable that holds the key. */
    key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'key_env must name an environment variable').optional(),
    /** The key itself (the admin API stores it encrypted and never returns it). */
    key: z.string().min(1).max(4096).optional(),
    weight: z.number().positive('weight must be positive').max(1_000_000).default(1),
  })
  .strict()
  .refine((k) => (k.key_env === undefined) !== (k.key === undefined), { message: 'a key needs exactly one of key_env or key' });

/** The provider entry's fields (extendable: the OpenAPI document's variants derive from it); parse with providerConfigSchema. */
export const providerObjectSchema = z
  .object({
    id: z.string().regex(PROVIDER_ID, 'provider id: lower-case letters, digits and dashes (up to 41)'),
    type: z.enum(PROVIDER_TYPES),
    name: z.string().max(120).optional(),
    base_url: z.url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' }).optional(),
    keys: z.array(keyConfigSchema).max(100).default([]),
    headers: z.record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'header name'), z.string().max(8192)).default({}),
    /** openai-compatible: whether the server understands `stream_options` (for usage in streams). */
    supports_stream_options: z.boolean().default(true),
    enabled: z.boolean().default(true),
    /**
     * Milliseconds to the response headers before an attempt times out and the next endpoint is tried
     * (default 600000: a non-streaming reasoning answer can take minutes).
     */
    timeout_ms: z.number().int().min(100).max(3_600_000).optional(),
    // ---- cloud providers (each type reads its own; see README "Cloud providers") ----
    /** bedrock: the AWS region, e.g. us-east-1 (the endpoint is bedrock-runtime.<region>.amazonaws.com unless base_url). */
    region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'region: an AWS region such as us-east-1').optional(),
    /** bedrock: variables holding IAM credentials (default AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN). */
    access_key_id_env: envVarName.optional(),
    secret_access_key_env: envVarName.optional(),
    session_token_env: envVarName.optional(),
    /**
     * bedrock: where IAM credentials come from. `variables` (the default): the three variables above, read when the
     * configuration is loaded. `default`: the AWS SDK's default chain, refreshed before they expire — environment,
     * web identity (EKS IRSA), ECS task role, EC2 instance role, shared config and SSO.
     */
    aws_credentials: z
      .enum(['variables', 'default'])
      .optional()
      .describe(
        'bedrock: where IAM credentials come from. variables (default): access_key_id_env, secret_access_key_env and session_token_env. default: the AWS SDK default chain (EKS IRSA, ECS task role, EC2 instance role, shared config and SSO), renewed before they expire',
      ),
    /** vertex: the Google Cloud project and location (`global` or a region such as us-east5). */
    project: z.string().min(1).max(100).optional(),
    location: z.string().regex(/^[a-z0-9-]{1,40}$/, 'location: global or a region such as us-east5').optional(),
    /**
     * vertex: a service-account JSON key, as a file path or in an environment variable. Through the admin API
     * a file must lie in SWITCHBOARD_CREDENTIALS_DIR (admin-credentials-file.ts). Vertex API keys (express
     * mode, Gemini only) go in `keys`.
     */
    credentials_file: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe(
        'vertex: path of a service-account JSON key. Through the admin API only a regular file inside SWITCHBOARD_CREDENTIALS_DIR (after resolving .. and symlinks; a name is taken relative to it), stored as its real path; without SWITCHBOARD_CREDENTIALS_DIR refused (400): use credentials_env',
      ),
    credentials_env: envVarName.optional().describe('vertex: the environment variable holding a service-account JSON key'),
    /** azure-openai: the `api-version` query parameter (absent with Azure's v1 API, `base_url` ending in /openai/v1). */
    api_version: z.string().min(1).max(40).optional(),
    /** azure-openai with Microsoft Entra ID client credentials instead of an api-key. */
    tenant_id: z.string().min(1).max(100).optional(),
    client_id: z.string().min(1).max(100).optional(),
    client_secret_env: envVarName.optional(),
    token_url: z.url({ protocol: /^https?$/, error: 'token_url must be an http(s) URL' }).optional(),
  })
  .strict();

/** A provider entry as the file, the admin API and CUSTOM_PROVIDERS give it, with the checks across fields. */
export const providerConfigSchema = providerObjectSchema.superRefine((entry, ctx) => {
  // bedrock: the endpoint and the signature both need a region; a base_url alone names its own host.
  if (entry.type === 'bedrock' && entry.region === undefined && entry.base_url === undefined) {
    ctx.addIssue({ code: 'custom', path: ['region'], message: 'a bedrock provider needs a region (e.g. us-east-1) or a base_url' });
  }
});

/**
 * A bedrock provider that signs (no Bedrock API keys) with neither a region nor a base_url naming one
 * (bedrock-runtime.<region>.…): its requests are signed for us-east-1, a guess. The admin API refuses such a new
 * entry; a file's or a stored one is built as before, with a warning (a proxy in us-east-1 works that way).
 */
export function bedrockRegionGuessed(entry: Pick<ProviderConfigEntry, 'type' | 'region' | 'base_url' | 'keys'>): boolean {
  return entry.type === 'bedrock' && entry.region === undefined && entry.base_url !== undefined && !entry.keys?.length && bedrockRegionOfHost(entry.base_url) === null;
}

export const BEDROCK_REGION_GUESSED = 'this base_url does not name an AWS region (bedrock-runtime.<region>.…): set region (e.g. us-east-1) for the signature, or use Bedrock API keys';

/** The region a Bedrock endpoint's host names (`bedrock-runtime.<region>.…`, VPC endpoints included), or null. */
export function bedrockRegionOfHost(baseUrl: string): string | null {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return null;
  }
  return /bedrock-runtime(?:-fips)?\.([a-z]{2}(?:-[a-z]+)+-\d+)\./.exec(host)?.[1] ?? null;
}

export const pricingSchema = z
  .object({
    input: usdPerMillion,
    output: usdPerMillion,
    cache_read: usdPerMillion.optional(),
    /** Writes to the 5-minute cache (Anthropic) or the provider's only one; absent = the input price. */
    cache_write: usdPerMillion.optional(),
    /** Writes to Anthropic's 1-hour cache (`ttl: "1h"`); absent = the cache_write price. */
    cache_write_1h: usdPerMillion.optional(),
  })
  .strict();

export const endpointConfigSchema = z
  .object({
    provider: z.string().regex(PROVIDER_ID, 'endpoint provider: a provider id'),
    upstream_model: z
      .string()
      .min(1, "enter the provider's own model id")
      .max(200)
      .describe("The provider's own model id (vertex: gemini-…, claude-…@…, or a Model Garden publisher/model such as meta/llama-3.3-70b-instruct-maas for the OpenAI-compatible endpoint)"),
    pricing: pricingSchema,
    /** Defaults to the model's. */
    context_length: tokenCount().optional(),
    max_output_tokens: tokenCount().optional(),
  })
  .strict();

export const modelConfigSchema = z
  .object({
    id: z.string().regex(MODEL_ID, 'model id: author/slug, e.g. acme/fast'),
    name: z.string().min(1, 'enter a name').max(200),
    description: z.string().max(2000).default(''),
    kind: z.enum(MODEL_KINDS).default('chat'),
    context_length: tokenCount().max(100_000_000),
    max_output_tokens: tokenCount().max(100_000_000),
    supports_reasoning: z.boolean().default(false),
    supports_images: z.boolean().default(false),
    /** Takes PDF documents (`{"type":"file"}` parts); without it such a request is answered 400. */
    supports_pdf: z.boolean().default(false),
    supports_tools: z.boolean().default(true),
    aliases: z.array(z.string().min(1).max(200)).max(50).default([]),
    endpoints: z.array(endpointConfigSchema).min(1, 'a model needs at least one endpoint').max(50),
    enabled: z.boolean().default(true),
  })
  .strict();

export const routingFileSchema = z
  .object({
    providers: z.array(providerConfigSchema).default([]),
    models: z.array(modelConfigSchema).default([]),
  })
  .strict();

export type KeyConfig = z.infer<typeof keyConfigSchema>;
export type ProviderConfigEntry = z.infer<typeof providerConfigSchema>;
export type EndpointConfig = z.infer<typeof endpointConfigSchema>;
export type ModelConfigEntry = z.infer<typeof modelConfigSchema>;
export type RoutingFile = z.infer<typeof routingFileSchema>;
/** The input side (defaults not yet applied), for writing configurations in code (default-catalog.ts, tests). */
export type RoutingFileInput = z.input<typeof routingFileSchema>;

/** Where an entry of the compiled table came from; `file` entries are read-only in the admin API. */
export type EntrySource = 'builtin' | 'custom_providers' | 'admin' | 'file';
