// chat.completion.chunk events → StreamDelta. OpenAI's stream is already in the shape we send, so this
// mostly validates and picks fields; the state it keeps is the finish reason, the usage (the last chunk,
// with `choices: []`, when stream_options.include_usage is on), a mid-stream error, [DONE] and the
// response id (the same `chatcmpl-…` on every chunk). With n > 1 every chunk names its choice by index;
// choices after the first keep their own finish reason and tool-call numbering.
import { z } from 'zod';
import { parseUnframedTail, UNFRAMED_TAIL_EVENT } from '../sse';
import type { FinishReason, MidStreamError, NormalizedUsage, SseEvent, StreamConverter, StreamDelta, ToolCallDelta } from '../types';
import { convertOpenAIStreamError, openAIErrorSchema } from './convert-error';
import { toolArgumentsSchema, toolArgumentsToString, type OpenAIDialect } from './convert-response';
import { convertOpenAIUsage, openAIUsageSchema } from './convert-usage';
import { mapOpenAIFinishReason } from './map-finish-reason';

const toolCallDeltaSchema = z.looseObject({
  index: z.number().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: toolArgumentsSchema }).nullish(),
});

const chunkSchema = z.looseObject({
  id: z.string().nullish(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().nullish(),
        delta: z.looseObject({ content: z.string().nullish(), refusal: z.string().nullish(), tool_calls: z.array(toolCallDeltaSchema).nullish() }).nullish(),
        logprobs: z.looseObject({}).nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: openAIUsageSchema.nullish(),
  error: z.union([openAIErrorSchema, z.string()]).nullish(),
});

const unframedErrorSchema = z.object({ error: z.union([openAIErrorSchema, z.string()]) });

type RawToolCallDelta = z.infer<typeof toolCallDeltaSchema>;

/**
 * Nearly every chunk of a stream is one choice whose delta carries only text (and the role, first). Those
 * are read here without the schema: it is the per-token hot path, and the schema's loose objects copy
 * every chunk. Anything else — tool calls, reasoning fields, a finish reason, usage, an error, another
 * shape — returns undefined and goes through chunkSchema as before.
 */
function readPlainTextChunk(json: unknown): { id: string | null; content: string; index: number } | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const chunk = json as { id?: unknown; choices?: unknown; usage?: unknown; error?: unknown };
  if (chunk.usage != null || chunk.error != null || (chunk.id != null && typeof chunk.id !== 'string')) return undefined;
  if (!Array.isArray(chunk.choices) || chunk.choices.length !== 1) return undefined;
  const choice = chunk.choices[0] as { index?: unknown; delta?: unknown; finish_reason?: unknown; logprobs?: unknown } | null;
  if (typeof choice !== 'object' || choice === null || (choice.index != null && !Number.isInteger(choice.index)) || choice.finish_reason != null || choice.logprobs != null) return undefined;
  const delta = choice.delta as Record<string, unknown> | null | undefined;
  if (typeof delta !== 'object' || delta === null) return undefined;
  for (const key in delta) {
    if (key === 'content' || key === 'role') continue;
    if (key === 'refusal' && delta.refusal == null) continue;
    return undefined;
  }
  if (delta.content != null && typeof delta.content !== 'string') return undefined;
  return { id: (chunk.id as string | undefined) ?? null, content: (delta.content as string | null | undefined) ?? '', index: (choice.index as number | null | undefined) ?? 0 };
}

const UNREADABLE_CHUNK: MidStreamError = { code: 'server_error', message: 'The upstream provider sent a stream chunk the gateway cannot read' };

export function createOpenAIStreamConverter(dialect: OpenAIDialect = {}): StreamConverter {
  const mapFinishReason = dialect.mapFinishReason ?? mapOpenAIFinishReason;
  const convertUsage = dialect.convertUsage ?? convertOpenAIUsage;
  let finishReason: FinishReason | null = null;
  let otherFinishReasons: Map<number, FinishReason> | undefined;
  let usage: NormalizedUsage | null = null;
  let error: MidStreamError | null = null;
  let done = false;
  let upstreamId: string | null = null;
  // Servers that omit a tool call's `index` (Gemini's compatibility layer, some proxies) still give each
  // call an id: a new id opens the next index, a fragment without one continues the last call. Per choice.
  const toolCalls = new Map<number, { indexById: Map<string, number>; lastIndex: number }>();

  function toolCallIndex(choice: number, call: RawToolCallDelta): number {
    let state = toolCalls.get(choice);
    if (!state) toolCalls.set(choice, (state = { indexById: new Map(), lastIndex: -1 }));
    const index = typeof call.index === 'number' ? call.index : call.id ? state.indexById.get(call.id) ?? state.lastIndex + 1 : Math.max(state.lastIndex, 0);
    if (call.id) state.indexById.set(call.id, index);
    state.lastIndex = index;
    return index;
  }

  function convertToolCall(choice: number, call: RawToolCallDelta): ToolCallDelta {
    const delta: ToolCallDelta = { index: toolCallIndex(choice, call), function: {} };
    if (call.id) {
      delta.id = call.id;
      delta.type = 'function';
    }
    if (call.function?.name) delta.function.name = call.function.name;
    const args = toolArgumentsToString(call.function?.arguments);
    if (args !== undefined) delta.function.arguments = args;
    return delta;
  }

  function push(event: SseEvent): StreamDelta[] {
    if (done) return []; // nothing after [DONE] is part of the answer
    if (event.event === UNFRAMED_TAIL_EVENT) {
      // An `{"error": …}` body after the stream's data lines, not framed as an event (sse.ts): its message is kept.
      const tail = unframedErrorSchema.safeParse(parseUnframedTail(event.data));
      if (tail.success) error ??= convertOpenAIStreamError(typeof tail.data.error === 'string' ? { message: tail.data.error } : tail.data.error);
      return [];
    }
    if (event.data === '[DONE]') {
      done = true;
      return [];
    }
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      error ??= UNREADABLE_CHUNK;
      return [];
    }
    const plain = readPlainTextChunk(json);
    if (plain) {
      upstreamId ??= plain.id || null;
      if (!plain.content) return [];
      return [plain.index === 0 ? { content: plain.content } : { choice: plain.index, content: plain.content }];
    }
    const parsed = chunkSchema.safeParse(json);
    if (!parsed.success) {
      error ??= UNREADABLE_CHUNK;
      return [];
    }
    const chunk = parsed.data;
    upstreamId ??= chunk.id || null;
    if (chunk.error) {
      error = convertOpenAIStreamError(typeof chunk.error === 'string' ? { message: chunk.error } : chunk.error);
      return [];
    }
    if (chunk.usage) usage = convertUsage(chunk.usage);

    // The usage chunk has no choice at all; other chunks one (several only if a server batches choices of n > 1).
    const deltas: StreamDelta[] = [];
    for (const choice of chunk.choices ?? []) {
      const delta = convertChoice(choice);
      if (delta) deltas.push(delta);
    }
    return deltas;
  }

  function convertChoice(choice: NonNullable<z.infer<typeof chunkSchema>['choices']>[number]): StreamDelta | null {
    const index = choice.index ?? 0;
    const mapped = mapFinishReason(choice.finish_reason);
    if (mapped && index === 0) finishReason = mapped;
    else if (mapped) (otherFinishReasons ??= new Map()).set(index, mapped);

    const delta: StreamDelta = index === 0 ? {} : { choice: index };
    if (choice.delta) {
      const reasoning = dialect.readReasoning?.(choice.delta);
      if (reasoning) delta.reasoning = reasoning;
      const details = dialect.readReasoningDetails?.(choice.delta);
      if (details?.length) delta.reasoning_details = details;
      // Same choice as the non-streaming converter: a structured-output refusal is shown as content.
      const content = choice.delta.content || choice.delta.refusal;
      if (content) delta.content = content;
      if (choice.delta.tool_calls?.length) delta.tool_calls = choice.delta.tool_calls.map((call) => convertToolCall(index, call));
    }
    if (choice.logprobs) delta.logprobs = choice.logprobs;
    return delta.reasoning !== undefined || delta.reasoning_details !== undefined || delta.content !== undefined || delta.tool_calls !== undefined || delta.logprobs !== undefined ? delta : null;
  }

  return {
    push,
    get finishReason() {
      return finishReason;
    },
    get otherFinishReasons() {
      return otherFinishReasons;
    },
    get usage() {
      return usage;
    },
    get error() {
      return error;
    },
    get done() {
      return done;
    },
    get upstreamId() {
      return upstreamId;
    },
  };
}
