import { z } from 'zod';
import { AppError } from '@/server/errors';
import type { ConvertedResponse, ReasoningDetail, ToolCall } from '@/server/providers/types';
import { anthropicUsageSchema, convertUsage } from './convert-usage';
import { mapFinishReason } from './map-finish-reason';

/**
 * The `format` we stamp on reasoning_details we produce, and the one we accept back
 * (convert-request.ts): a signature is only valid for the provider that minted it.
 */
export const REASONING_FORMAT = 'anthropic-claude-v1';

/**
 * A content block, minimally: only the fields we read. Block types we do not translate (server_tool_use,
 * web_search_tool_result, …) still parse and are skipped, so a new block type never fails a response.
 */
export const contentBlockSchema = z.object({
  type: z.string(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
  data: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
});

export type AnthropicContentBlock = z.infer<typeof contentBlockSchema>;

const messageSchema = z.object({
  id: z.string().optional(),
  content: z.array(contentBlockSchema),
  stop_reason: z.string().nullish(),
  stop_sequence: z.string().nullish(),
  usage: anthropicUsageSchema,
});

/** A 2xx non-streaming Messages API body → the OpenAI-shaped assistant message. */
export function convertResponse(body: unknown): ConvertedResponse {
  const parsed = messageSchema.safeParse(body);
  if (!parsed.success) throw new AppError('upstream_error', 'Anthropic returned a response that is not a Messages API message');
  const message = parsed.data;

  const texts: string[] = [];
  const thoughts: string[] = [];
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case 'text':
        texts.push(block.text ?? '');
        break;
      case 'thinking':
        thoughts.push(block.thinking ?? '');
        details.push({ type: 'reasoning.text', text: block.thinking ?? '', signature: block.signature ?? null, format: REASONING_FORMAT, index: details.length });
        break;
      case 'redacted_thinking':
        details.push({ type: 'reasoning.encrypted', data: block.data ?? '', format: REASONING_FORMAT, index: details.length });
        break;
      case 'tool_use':
        toolCalls.push({ id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: JSON.stringify(block.input ?? {}) } });
        break;
    }
  }

  return {
    message: {
      role: 'assistant',
      // OpenAI sends null, not "", when the model only called tools.
      content: texts.length > 0 ? texts.join('') : null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      // Claude 5.x omit thinking text unless asked (display "omitted"): signed blocks with "" text are reasoning_details, not reasoning.
      ...(details.length > 0 ? { reasoning: thoughts.join('') || null, reasoning_details: details } : {}),
    },
    finishReason: mapFinishReason(message.stop_reason),
    ...(message.stop_reason === 'stop_sequence' && message.stop_sequence != null ? { stopSequence: message.stop_sequence } : {}),
    usage: convertUsage(message.usage),
    ...(message.id ? { upstreamId: message.id } : {}),
  };
}
