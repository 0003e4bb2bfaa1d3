// Operator-defined OpenAI-compatible providers (Ollama, vLLM, Groq, OpenRouter…), configured without code
// changes through CUSTOM_PROVIDERS: a JSON array, or the path of a JSON file holding one. The short form of
// SWITCHBOARD_CONFIG: the routing table (server/routing/convert-custom-providers.ts) makes each provider an
// openai-compatible provider and each of its models a model "<provider id>/<model id>".
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

const price = z.number().min(0).max(10_000).default(0); // USD per million tokens

export const customProviderSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,40}$/, 'provider id: lower-case letters, digits and dashes'),
  baseUrl: z.string().url(),
  apiKey: z.string().optional(),
  /** Name of an environment variable holding the key (keeps secrets out of the JSON). */
  apiKeyEnv: z.string().optional(),
  headers: z.record(z.string(), z.string()).default({}),
  supportsStreamOptions: z.boolean().default(true),
  models: z
    .array(
      z.object({
        id: z.string().min(1).max(120),
        name: z.string().optional(),
        upstreamModel: z.string().optional(),
        contextLength: z.number().int().positive().default(32_768),
        maxOutputTokens: z.number().int().positive().default(4_096),
        inputPrice: price,
        outputPrice: price,
        cacheReadPrice: price,
        supportsReasoning: z.boolean().default(false),
        supportsImages: z.boolean().default(false),
        supportsPdf: z.boolean().default(false),
        supportsTools: z.boolean().default(true),
        /** `embedding`: served by /api/v1/embeddings (the server's OpenAI-shaped /embeddings) instead of chat. */
        kind: z.enum(['chat', 'embedding']).default('chat'),
      }),
    )
    .min(1),
});
export type CustomProvider = z.infer<typeof customProviderSchema>;

const RESERVED = new Set(['openai', 'anthropic', 'google', 'gemini', 'deepseek', 'mistral', 'xai', 'groq', 'openrouter', 'switchboard', 'echo']);

/**
 * CUSTOM_PROVIDERS' value → the providers, validated. Reads the file it names on every call, keeping nothing:
 * the routing table is built at start and on reloads, never per request.
 */
export function parseCustomProviders(raw: string | undefined): CustomProvider[] {
  if (!raw) return [];
  const text = raw.trim().startsWith('[') ? raw : existsSync(raw) ? readFileSync(raw, 'utf8') : null;
  if (text === null) throw new Error(`CUSTOM_PROVIDERS: neither a JSON array nor an existing file: ${raw}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`CUSTOM_PROVIDERS is not valid JSON: ${(err as Error).message}`);
  }
  const result = z.array(customProviderSchema).safeParse(json);
  if (!result.success) throw new Error(`CUSTOM_PROVIDERS: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  for (const p of result.data) if (RESERVED.has(p.id)) throw new Error(`CUSTOM_PROVIDERS: "${p.id}" is a built-in provider id`);
  return result.data;
}
