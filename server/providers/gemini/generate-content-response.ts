// Minimal zod schemas for what Gemini (v1beta, Google AI) sends back: a GenerateContentResponse, either as a
// whole 2xx body or as one `data:` chunk of `streamGenerateContent?alt=sse`, and the google.rpc error body.
// Only the fields the converters read are declared; zod drops the rest (safetyRatings, citationMetadata…).
import { z } from 'zod';

export const geminiPartSchema = z.object({
  text: z.string().optional(),
  /** true on thought-summary parts (only sent when thinkingConfig.includeThoughts is true). */
  thought: z.boolean().optional(),
  /** Opaque, base64: on thought parts, on the first functionCall of a turn, or on a (possibly empty) text part. */
  thoughtSignature: z.string().optional(),
  functionCall: z
    .object({
      // The Gemini API leaves `id` empty today; we use it when present and generate one otherwise.
      id: z.string().optional(),
      name: z.string(),
      args: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
export type GeminiResponsePart = z.infer<typeof geminiPartSchema>;

export const geminiUsageMetadataSchema = z.object({
  promptTokenCount: z.number().optional(),
  cachedContentTokenCount: z.number().optional(),
  candidatesTokenCount: z.number().optional(),
  toolUsePromptTokenCount: z.number().optional(),
  thoughtsTokenCount: z.number().optional(),
  totalTokenCount: z.number().optional(),
});
export type GeminiUsageMetadata = z.infer<typeof geminiUsageMetadataSchema>;

export const generateContentResponseSchema = z.object({
  candidates: z
    .array(
      z.object({
        // Absent when the candidate was blocked before producing anything (finishReason SAFETY…).
        content: z.object({ parts: z.array(geminiPartSchema).optional(), role: z.string().optional() }).optional(),
        finishReason: z.string().optional(),
        index: z.number().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.object({ blockReason: z.string().optional() }).optional(),
  usageMetadata: geminiUsageMetadataSchema.optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
});
export type GenerateContentResponse = z.infer<typeof generateContentResponseSchema>;

/** google.rpc.Status as Google's JSON APIs send it, both as a non-2xx body and as an SSE `data:` line. */
export const googleRpcErrorSchema = z.object({
  error: z.object({
    code: z.number().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
    details: z.array(z.record(z.string(), z.unknown())).optional(),
  }),
});
export type GoogleRpcError = z.infer<typeof googleRpcErrorSchema>['error'];
