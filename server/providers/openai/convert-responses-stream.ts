// Responses API stream events → OpenAI chat-shaped deltas. The stream is typed events (response.created,
// response.output_item.added/.done, response.output_text.delta, response.function_call_arguments.delta,
// response.reasoning_summary_text.delta, response.completed/incomplete/failed, error) with no [DONE]:
// the terminal response.* event ends it. Event types we do not translate are skipped, as OpenAI adds some
// with new features (hosted tools, async tool calls) that a chat client has no use for.
import type { FinishReason, MidStreamError, NormalizedUsage, SseEvent, StreamConverter, StreamDelta } from '../types';
import { customToolArguments, customToolArgumentsStream } from '../custom-tool-input';
import { convertOpenAIStreamError, openAIErrorSchema } from './convert-error';
import { RESPONSES_REASONING_FORMAT } from './convert-responses-input';
import { outputItemSchema, responseObjectSchema, responsesFailure, responsesFinishReason, SUMMARY_PART_SEPARATOR } from './convert-responses-response';
import { convertResponsesUsage } from './convert-usage';

/** What we remember about each output item, by its output_index. */
type Item =
  /** `custom`: a custom_tool_call, whose input streams as text and becomes {"input": …} arguments. */
  | { kind: 'tool'; index: number; sentArguments: boolean; custom?: boolean }
  | { kind: 'reasoning'; id?: string; summaryDetail?: number; lastSummaryPart?: number }
  | { kind: 'other' };

type Data = Record<string, unknown>;

const UNREADABLE_EVENT: MidStreamError = { code: 'server_error', message: 'The upstream provider sent a stream event the gateway cannot read' };

/**
 * Indexes: tool calls get Chat Completions' sequential index (0, 1, …), not the output_index, which also
 * counts reasoning and message items. reasoning_details get a sequential index per detail — a reasoning
 * item's summary, then its encrypted content — the numbering convert-responses-response.ts uses, so a
 * client joining fragments by index rebuilds what a non-streaming call returns.
 */
export function createResponsesStreamConverter(): StreamConverter {
  const items = new Map<number, Item>();
  let nextTool = 0;
  let nextDetail = 0;
  let finishReason: FinishReason | null = null;
  let usage: NormalizedUsage | null = null;
  let error: MidStreamError | null = null;
  let done = false;
  let upstreamId: string | null = null;

  function addItem(outputIndex: number, value: unknown): StreamDelta[] {
    const parsed = outputItemSchema.safeParse(value);
    const item = parsed.success ? parsed.data : undefined;
    if (item?.type === 'function_call' || item?.type === 'custom_tool_call') {
      const index = nextTool++;
      items.set(outputIndex, { kind: 'tool', index, sentArguments: false, custom: item.type === 'custom_tool_call' });
      return [{ tool_calls: [{ index, id: item.call_id ?? item.id ?? '', type: 'function', function: { name: item.name ?? '', arguments: '' } }] }];
    }
    items.set(outputIndex, item?.type === 'reasoning' ? { kind: 'reasoning', id: item.id ?? undefined } : { kind: 'other' });
    return [];
  }

  function summaryDelta(item: Item | undefined, part: number, text: string): StreamDelta[] {
    if (item?.kind !== 'reasoning' || !text) return [];
    // A new summary part of the same item starts a new paragraph, as the non-streaming join does.
    const separator = item.lastSummaryPart !== undefined && item.lastSummaryPart !== part ? SUMMARY_PART_SEPARATOR : '';
    item.lastSummaryPart = part;
    item.summaryDetail ??= nextDetail++;
    const summary = separator + text;
    return [{ reasoning: summary, reasoning_details: [{ type: 'reasoning.summary', summary, format: RESPONSES_REASONING_FORMAT, index: item.summaryDetail, ...(item.id ? { id: item.id } : {}) }] }];
  }

  function finishItem(outputIndex: number, value: unknown): StreamDelta[] {
    const item = items.get(outputIndex);
    const parsed = outputItemSchema.safeParse(value);
    if (!item || !parsed.success) return [];
    // The encrypted reasoning is complete only in the done event (the added event may carry a partial one).
    if (item.kind === 'reasoning' && parsed.data.encrypted_content) {
      const id = parsed.data.id ?? item.id;
      return [{ reasoning_details: [{ type: 'reasoning.encrypted', data: parsed.data.encrypted_content, format: RESPONSES_REASONING_FORMAT, index: nextDetail++, ...(id ? { id } : {}) }] }];
    }
    if (item.kind === 'tool' && item.custom) {
      const args = item.sentArguments ? customToolArgumentsStream.close : customToolArguments(parsed.data.input ?? '');
      return [{ tool_calls: [{ index: item.index, function: { arguments: args } }] }];
    }
    // A call whose arguments never streamed: send them whole ('{}' for none) so the client can parse them.
    if (item.kind === 'tool' && !item.sentArguments) return [{ tool_calls: [{ index: item.index, function: { arguments: parsed.data.arguments || '{}' } }] }];
    return [];
  }

  function finishResponse(value: unknown): void {
    const parsed = responseObjectSchema.safeParse(value);
    done = true;
    if (!parsed.success) {
      error ??= UNREADABLE_EVENT;
      return;
    }
    const response = parsed.data;
    upstreamId ??= response.id ?? null;
    if (response.usage) usage = convertResponsesUsage(response.usage);
    if (response.status === 'failed') error = responsesFailure(response);
    else finishReason = responsesFinishReason(response, nextTool > 0) ?? 'stop';
  }

  function push(event: SseEvent): StreamDelta[] {
    if (done) return [];
    let data: Data;
    try {
      const json: unknown = JSON.parse(event.data);
      data = typeof json === 'object' && json !== null ? (json as Data) : {};
    } catch {
      error ??= UNREADABLE_EVENT;
      return [];
    }
    const outputIndex = typeof data.output_index === 'number' ? data.output_index : -1;
    const text = typeof data.delta === 'string' ? data.delta : '';
    switch (data.type ?? event.event) {
      case 'response.created':
      case 'response.in_progress': {
        const parsed = responseObjectSchema.safeParse(data.response);
        if (parsed.success) upstreamId ??= parsed.data.id ?? null;
        return [];
      }
      case 'response.output_item.added':
        return addItem(outputIndex, data.item);
      case 'response.output_text.delta':
      case 'response.refusal.delta': // shown as content, as the non-streaming converter does
        return text ? [{ content: text }] : [];
      case 'response.function_call_arguments.delta': {
        const item = items.get(outputIndex);
        if (item?.kind !== 'tool' || item.custom || !text) return [];
        item.sentArguments = true;
        return [{ tool_calls: [{ index: item.index, function: { arguments: text } }] }];
      }
      case 'response.custom_tool_call_input.delta': {
        const item = items.get(outputIndex);
        if (item?.kind !== 'tool' || !item.custom || !text) return [];
        const opening = item.sentArguments ? '' : customToolArgumentsStream.open;
        item.sentArguments = true;
        return [{ tool_calls: [{ index: item.index, function: { arguments: opening + customToolArgumentsStream.fragment(text) } }] }];
      }
      case 'response.reasoning_summary_text.delta':
        return summaryDelta(items.get(outputIndex), typeof data.summary_index === 'number' ? data.summary_index : 0, text);
      case 'response.output_item.done':
        return finishItem(outputIndex, data.item);
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        finishResponse(data.response);
        return [];
      case 'error': {
        // {type: "error", code, message, param}; some relays nest the same fields under `error`.
        const parsed = openAIErrorSchema.safeParse(typeof data.error === 'object' && data.error !== null ? data.error : { ...data, type: undefined });
        error = convertOpenAIStreamError(parsed.success ? parsed.data : {});
        return [];
      }
      default:
        return [];
    }
  }

  return {
    push,
    get finishReason() {
      return finishReason;
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
