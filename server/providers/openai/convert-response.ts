// A 2xx chat.completion body → ConvertedResponse. Also home of OpenAIDialect: the few places where an
// OpenAI-compatible server differs from OpenAI, so the openai-compatible adapter reuses these converters
// instead of copying them.
import { z } from 'zod';
import { AppError } from '@/server/errors';
import { EMPTY_USAGE, type AssistantMessage, type ConvertedChoice, type ConvertedResponse, type FinishReason, type NormalizedUsage, type ReasoningDetail, type ToolCall } from '../types';
import { convertOpenAIUsage, openAIUsageSchema, type OpenAIUsage } from './convert-usage';
import { mapOpenAIFinishReason } from './map-finish-reason';

export interface OpenAIDialect {
  /** Reasoning text a server puts next to `content` (DeepSeek's `reasoning_content`); OpenAI has none. */
  readReasoning?(messageOrDelta: Record<string, unknown>): string | undefined;
  /** OpenRouter-style `reasoning_details` next to `content` (OpenRouter as an upstream); OpenAI has none. */
  readReasoningDetails?(messageOrDelta: Record<string, unknown>): ReasoningDetail[] | undefined;
  convertUsage?(usage: OpenAIUsage): NormalizedUsage;
  mapFinishReason?(reason: string | null | undefined): FinishReason | null;
}

/** Some compatible servers send arguments as an object; clients expect OpenAI's JSON string. */
export const toolArgumentsSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).nullish();

export function toolArgumentsToString(args: z.infer<typeof toolArgumentsSchema>): string | undefined {
  if (args == null) return undefined;
  return typeof args === 'string' ? args : JSON.stringify(args);
}

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string(), arguments: toolArgumentsSchema }),
});

const responseSchema = z.looseObject({
  id: z.string().nullish(),
  choices: z.array(
    z.looseObject({
      index: z.number().nullish(),
      message: z.looseObject({
        content: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z.array(toolCallSchema).nullish(),
      }),
      /** Only when asked for (`logprobs: true`): passed on as OpenAI shaped it. */
      logprobs: z.looseObject({}).nullish(),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: openAIUsageSchema.nullish(),
});

type RawChoice = z.infer<typeof responseSchema>['choices'][number];

function convertMessage(message: RawChoice['message'], dialect: OpenAIDialect): AssistantMessage {
  const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: toolArgumentsToString(call.function.arguments) ?? '' },
  }));
  const reasoning = dialect.readReasoning?.(message);
  const reasoningDetails = dialect.readReasoningDetails?.(message);

  return {
    role: 'assistant',
    // A structured-output refusal comes in `refusal` with content null; our message has no such field,
    // and an empty answer would hide why, so the refusal text becomes the content.
    content: message.content ?? message.refusal ?? null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...(reasoningDetails?.length ? { reasoning_details: reasoningDetails } : {}),
  };
}

export function convertOpenAIResponse(body: unknown, dialect: OpenAIDialect = {}): ConvertedResponse {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) throw new AppError('upstream_error', 'The upstream provider sent a response the gateway cannot read');
  const { id, choices, usage } = parsed.data;
  const mapFinishReason = (c: RawChoice) => (dialect.mapFinishReason ?? mapOpenAIFinishReason)(c.finish_reason) ?? 'stop';
  const choice = choices.find((c) => (c.index ?? 0) === 0);
  if (!choice) throw new AppError('upstream_error', 'The upstream provider sent a response without a choice');

  const converted: ConvertedResponse = {
    message: convertMessage(choice.message, dialect),
    finishReason: mapFinishReason(choice),
    usage: usage ? (dialect.convertUsage ?? convertOpenAIUsage)(usage) : { ...EMPTY_USAGE },
  };
  if (id) converted.upstreamId = id;
  if (choice.logprobs) converted.logprobs = choice.logprobs;
  // The others, when the request asked for n > 1 (only then does an upstream send them).
  const others: ConvertedChoice[] = choices
    .filter((c) => (c.index ?? 0) > 0)
    .sort((a, b) => a.index! - b.index!)
    .map((c) => ({ index: c.index!, message: convertMessage(c.message, dialect), finishReason: mapFinishReason(c), ...(c.logprobs ? { logprobs: c.logprobs } : {}) }));
  if (others.length > 0) converted.otherChoices = others;
  return converted;
}
