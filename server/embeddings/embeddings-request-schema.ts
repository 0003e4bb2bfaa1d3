// POST /api/v1/embeddings: OpenAI's request shape (platform.openai.com/docs/api-reference/embeddings/create).
// `input` is a string, an array of strings, an array of token ids or an array of token-id arrays; OpenAI's
// limits apply (at most 2048 inputs, none empty). Token arrays go only to endpoints speaking OpenAI's shape.
import { z } from 'zod';
import { AppError, badRequestFromZod } from '@/server/errors';
import { chatRequestSchema } from '@/server/gateway/chat-request-schema';

/** OpenAI's limit on inputs per request (and what the embeddings reservation is sized for). */
export const MAX_EMBEDDING_INPUTS = 2048;

const tokenId = z.number().int().min(0).max(10_000_000);
const text = z.string().min(1, 'an input string may not be empty');
const tokens = z.array(tokenId).min(1, 'a token array may not be empty');

export const embeddingsRequestSchema = z.object({
  model: z.string().min(1).max(200),
  input: z.union([
    text,
    z.array(text).min(1, 'input may not be an empty array').max(MAX_EMBEDDING_INPUTS),
    tokens,
    z.array(tokens).min(1, 'input may not be an empty array').max(MAX_EMBEDDING_INPUTS),
  ]),
  /** Fewer dimensions than the model's own (OpenAI text-embedding-3 models; Gemini's outputDimensionality). */
  dimensions: z.number().int().min(1).max(65_536).optional(),
  /** `base64`: each embedding as the base64 of its little-endian float32 values (what the OpenAI SDKs ask for by default). */
  encoding_format: z.enum(['float', 'base64']).default('float'),
  user: z.string().max(256).optional(),
  /** OpenRouter's provider preferences, as on chat completions (routing/plan-route.ts). */
  provider: chatRequestSchema.shape.provider,
});

/** The validated request with its inputs normalized: texts, or token-id arrays, one per embedding. */
export interface EmbeddingsRequest {
  model: string;
  input: { kind: 'text'; texts: string[] } | { kind: 'tokens'; tokens: number[][] };
  dimensions?: number;
  encoding_format: 'float' | 'base64';
  user?: string;
  provider?: z.output<typeof embeddingsRequestSchema>['provider'];
}

export function parseEmbeddingsRequest(json: unknown): EmbeddingsRequest {
  const r = embeddingsRequestSchema.safeParse(json);
  if (!r.success) {
    const input = (json as { input?: unknown } | null)?.input;
    // The union's issues would list all four shapes; the common mistakes deserve one sentence each.
    if (input === '' || (Array.isArray(input) && (input.length === 0 || input.some((x) => x === '' || (Array.isArray(x) && x.length === 0))))) {
      throw new AppError('bad_request', 'input may not be empty: send a non-empty string or a non-empty array of non-empty strings', { param: 'input' });
    }
    if (Array.isArray(input) && input.length > MAX_EMBEDDING_INPUTS) {
      throw new AppError('bad_request', `input has ${input.length} items; at most ${MAX_EMBEDDING_INPUTS} are allowed per request`, { param: 'input' });
    }
    throw badRequestFromZod(r.error);
  }
  const { input, ...rest } = r.data;
  const normalized: EmbeddingsRequest['input'] =
    typeof input === 'string'
      ? { kind: 'text', texts: [input] }
      : typeof input[0] === 'string'
        ? { kind: 'text', texts: input as string[] }
        : typeof input[0] === 'number'
          ? { kind: 'tokens', tokens: [input as number[]] }
          : { kind: 'tokens', tokens: input as number[][] };
  return { ...rest, input: normalized };
}

/** How many embeddings the request asks for. */
export const inputCount = (req: EmbeddingsRequest) => (req.input.kind === 'text' ? req.input.texts.length : req.input.tokens.length);
