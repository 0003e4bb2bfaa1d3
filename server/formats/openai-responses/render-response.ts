// The Responses API `response` object (platform.openai.com/docs/api-reference/responses/object): what a
// non-streaming call answers, what the stream's response.* events carry and what GET /responses/{id} returns.
import { microsToUsd } from '@/server/ledger/money';
import { customToolInput } from '@/server/providers/custom-tool-input';
import { RESPONSES_REASONING_FORMAT } from '@/server/providers/openai/convert-responses-input';
import type { AssistantMessage, FinishReason, MidStreamError, NormalizedUsage, ReasoningDetail } from '@/server/providers/types';
import type { FinalAnswer, RenderContext } from '@/server/gateway/wire-format';
import { customToolsOf } from './custom-tools';
import { responsesStateOf } from './parse-responses-request';
import { wrapReasoning } from './reasoning-envelope';

export type OutputItem = Record<string, unknown>;

/** resp_… from our generation id (gen-…): one id for the generation, its usage record and the stored response. */
export const responseIdOf = (generationId: string) => `resp_${generationId.replace(/^gen-/, '')}`;
const suffixOf = (ctx: RenderContext) => ctx.generationId.replace(/^gen-/, '');
export const messageItemId = (ctx: RenderContext) => `msg_${suffixOf(ctx)}`;
export const functionCallItemId = (ctx: RenderContext, index: number) => `fc_${suffixOf(ctx)}_${index}`;
export const customToolCallItemId = (ctx: RenderContext, index: number) => `ctc_${suffixOf(ctx)}_${index}`;

/** The names of the request's custom tools: a call of one of them is answered as a custom_tool_call item. */
export function customToolNames(ctx: RenderContext): ReadonlySet<string> {
  return new Set(customToolsOf(responsesStateOf(ctx.req)?.request).map((t) => t.name));
}

/** A custom tool's call as OpenAI answers it: its input as text, not JSON arguments. */
export const customToolCallItem = (id: string, callId: string, name: string, input: string, status = 'completed'): OutputItem => ({ id, type: 'custom_tool_call', status, call_id: callId, name, input });
export const reasoningItemId = (ctx: RenderContext, n: number) => `rs_${suffixOf(ctx)}_${n}`;

export function responsesUsage(u: NormalizedUsage, costMicros: bigint) {
  return {
    input_tokens: u.promptTokens,
    input_tokens_details: { cached_tokens: u.cachedTokens },
    output_tokens: u.completionTokens,
    output_tokens_details: { reasoning_tokens: u.reasoningTokens },
    total_tokens: u.promptTokens + u.completionTokens,
    /** Ours, as on chat completions: the exact charge in USD. */
    cost: microsToUsd(costMicros),
  };
}

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export function statusOf(reason: FinishReason, error?: MidStreamError): { status: ResponseStatus; incomplete_details: { reason: string } | null; error: { code: string; message: string } | null } {
  if (error || reason === 'error') return { status: 'failed', incomplete_details: null, error: { code: error?.code ?? 'server_error', message: error?.message ?? 'The generation failed' } };
  if (reason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, error: null };
  if (reason === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' }, error: null };
  return { status: 'completed', incomplete_details: null, error: null };
}

/** The response object around `output`: the request's settings echoed as OpenAI does. */
export function responseObject(ctx: RenderContext, fields: { status: ResponseStatus; output: OutputItem[]; usage: unknown; error?: unknown; incomplete_details?: unknown }): Record<string, unknown> {
  const request = responsesStateOf(ctx.req)?.request;
  return {
    id: responseIdOf(ctx.generationId),
    object: 'response',
    created_at: ctx.created,
    status: fields.status,
    error: fields.error ?? null,
    incomplete_details: fields.incomplete_details ?? null,
    instructions: request?.instructions ?? null,
    max_output_tokens: request?.max_output_tokens ?? null,
    model: ctx.model,
    output: fields.output,
    parallel_tool_calls: request?.parallel_tool_calls ?? true,
    previous_response_id: request?.previous_response_id ?? null,
    reasoning: { effort: request?.reasoning?.effort ?? null, summary: request?.reasoning?.summary ?? null },
    store: request?.store ?? false,
    temperature: request?.temperature ?? null,
    text: { format: request?.text?.format ?? { type: 'text' } },
    tool_choice: request?.tool_choice ?? 'auto',
    tools: request?.tools ?? [],
    top_p: request?.top_p ?? null,
    truncation: 'disabled',
    usage: fields.usage,
    user: request?.user ?? null,
    metadata: request?.metadata ?? {},
  };
}

/**
 * Reasoning details → reasoning items. OpenAI's own (format openai-responses-v1) become their items again,
 * by id; any other provider's are one item whose encrypted_content is our envelope (reasoning-envelope.ts).
 * `withEncrypted` false leaves encrypted_content out (OpenAI returns it only when `include` asks).
 */
export function reasoningItems(ctx: RenderContext, message: Pick<AssistantMessage, 'reasoning' | 'reasoning_details'>, withEncrypted: boolean): OutputItem[] {
  const items = new Map<string, { summary: string[]; encrypted: string }>();
  const foreign: ReasoningDetail[] = [];
  for (const d of message.reasoning_details ?? []) {
    if (d.format !== RESPONSES_REASONING_FORMAT || !d.id) {
      foreign.push(d);
      continue;
    }
    const item = items.get(d.id) ?? { summary: [], encrypted: '' };
    items.set(d.id, item);
    if (d.type === 'reasoning.summary') item.summary.push(d.summary);
    else if (d.type === 'reasoning.encrypted') item.encrypted += d.data;
  }
  const out: OutputItem[] = [...items].map(([id, item]) => ({
    id,
    type: 'reasoning',
    summary: item.summary.length ? [{ type: 'summary_text', text: item.summary.join('') }] : [],
    ...(withEncrypted && item.encrypted ? { encrypted_content: item.encrypted } : {}),
  }));
  const ownSummary = items.size === 0 ? message.reasoning : undefined;
  if (foreign.length > 0 || ownSummary) {
    out.push({
      id: reasoningItemId(ctx, 0),
      type: 'reasoning',
      summary: ownSummary ? [{ type: 'summary_text', text: ownSummary }] : [],
      ...(withEncrypted && foreign.length > 0 ? { encrypted_content: wrapReasoning(foreign) } : {}),
    });
  }
  return out;
}

export const messageItem = (id: string, text: string, status = 'completed'): OutputItem => ({
  id,
  type: 'message',
  status,
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});

/**
 * The status of the item the model was producing when the answer ended: `incomplete` when the response is not
 * completed (max_output_tokens or a content filter cut it, or it failed), as OpenAI marks a truncated message.
 * Items before it were finished.
 */
export const lastItemStatusOf = (reason: FinishReason, error?: MidStreamError): 'completed' | 'incomplete' => (statusOf(reason, error).status === 'completed' ? 'completed' : 'incomplete');

/** The output items of a whole answer, in the order a model produces them: reasoning, text, calls; the last one's status by `reason`. */
export function outputItems(ctx: RenderContext, message: AssistantMessage, withEncrypted: boolean, reason: FinishReason = 'stop', error?: MidStreamError): OutputItem[] {
  const items = reasoningItems(ctx, message, withEncrypted);
  if (message.content) items.push(messageItem(messageItemId(ctx), message.content));
  const custom = customToolNames(ctx);
  (message.tool_calls ?? []).forEach((call, i) =>
    items.push(
      custom.has(call.function.name)
        ? customToolCallItem(customToolCallItemId(ctx, i), call.id, call.function.name, customToolInput(call.function.arguments))
        : { id: functionCallItemId(ctx, i), type: 'function_call', status: 'completed', call_id: call.id, name: call.function.name, arguments: call.function.arguments },
    ),
  );
  const last = items.at(-1);
  if (last && last.type !== 'reasoning' && lastItemStatusOf(reason, error) === 'incomplete') items[items.length - 1] = { ...last, status: 'incomplete' };
  return items;
}

export function completeResponse(ctx: RenderContext, answer: FinalAnswer, withEncrypted: boolean): Record<string, unknown> {
  const { status, incomplete_details, error } = statusOf(answer.finishReason, answer.error);
  return responseObject(ctx, { status, incomplete_details, error, output: outputItems(ctx, answer.message, withEncrypted, answer.finishReason, answer.error), usage: responsesUsage(answer.usage, answer.costMicros) });
}
