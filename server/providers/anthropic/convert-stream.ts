import type { FinishReason, MidStreamError, NormalizedUsage, SseEvent, StreamConverter, StreamDelta } from '@/server/providers/types';
import { parseUnframedTail, UNFRAMED_TAIL_EVENT } from '../sse';
import { convertStreamError } from './convert-error';
import { contentBlockSchema, REASONING_FORMAT } from './convert-response';
import { type AnthropicUsage, anthropicUsageSchema, convertUsage, mergeUsage } from './convert-usage';
import { mapFinishReason } from './map-finish-reason';

/** What we remember about each open Anthropic content block, keyed by Anthropic's block index. */
type Block =
  | { kind: 'text' }
  | { kind: 'reasoning'; index: number }
  | { kind: 'tool'; index: number; sentArguments: boolean }
  | { kind: 'ignored' };

/** The spec's converter plus the upstream message id (from message_start), for usage metadata. */
export interface AnthropicStreamConverter extends StreamConverter {
  readonly upstreamId: string | null;
}

type Data = Record<string, unknown>;

const asRecord = (value: unknown): Data => (typeof value === 'object' && value !== null ? (value as Data) : {});
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Translates Anthropic's Messages stream (message_start, content_block_start/delta/stop, message_delta,
 * message_stop, ping, error) into OpenAI-shaped deltas.
 *
 * Indexes: tool calls get OpenAI's sequential tool index (0, 1, …), not Anthropic's block index, which also
 * counts text and thinking blocks. reasoning_details get a sequential index per thinking/redacted block,
 * the same numbering convert-response.ts uses, so a client that concatenates fragments by index rebuilds
 * exactly the details a non-streaming call would have returned (text first, then the signature).
 */
export function createStreamConverter(): AnthropicStreamConverter {
  const blocks = new Map<number, Block>();
  let nextToolIndex = 0;
  let nextReasoningIndex = 0;
  let rawUsage: AnthropicUsage | null = null;
  let finishReason: FinishReason | null = null;
  let stopSequence: string | null = null;
  let error: MidStreamError | null = null;
  let done = false;
  let upstreamId: string | null = null;

  function takeUsage(value: unknown): void {
    const parsed = anthropicUsageSchema.safeParse(value);
    if (parsed.success) rawUsage = mergeUsage(rawUsage, parsed.data);
  }

  function startBlock(index: number, value: unknown): StreamDelta[] {
    const parsed = contentBlockSchema.safeParse(value);
    const block = parsed.success ? parsed.data : { type: 'unknown' };
    switch (block.type) {
      case 'text':
        blocks.set(index, { kind: 'text' });
        return block.text ? [{ content: block.text }] : [];
      case 'thinking': {
        const reasoningIndex = nextReasoningIndex++;
        blocks.set(index, { kind: 'reasoning', index: reasoningIndex });
        if (!block.thinking) return [];
        return [{ reasoning: block.thinking, reasoning_details: [{ type: 'reasoning.text', text: block.thinking, format: REASONING_FORMAT, index: reasoningIndex }] }];
      }
      case 'redacted_thinking': {
        // The encrypted payload arrives whole in the start event; there are no deltas for it.
        const reasoningIndex = nextReasoningIndex++;
        blocks.set(index, { kind: 'reasoning', index: reasoningIndex });
        return [{ reasoning_details: [{ type: 'reasoning.encrypted', data: block.data ?? '', format: REASONING_FORMAT, index: reasoningIndex }] }];
      }
      case 'tool_use': {
        const toolIndex = nextToolIndex++;
        blocks.set(index, { kind: 'tool', index: toolIndex, sentArguments: false });
        return [{ tool_calls: [{ index: toolIndex, id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: '' } }] }];
      }
      default:
        // server_tool_use, web_search_tool_result, …: Anthropic runs those itself; nothing for the client.
        blocks.set(index, { kind: 'ignored' });
        return [];
    }
  }

  function blockDelta(index: number, delta: Data): StreamDelta[] {
    const block = blocks.get(index);
    if (!block) return [];
    const type = asString(delta.type);
    if (block.kind === 'text' && type === 'text_delta') {
      const text = asString(delta.text);
      return text ? [{ content: text }] : [];
    }
    if (block.kind === 'reasoning' && type === 'thinking_delta') {
      const thinking = asString(delta.thinking);
      if (!thinking) return [];
      return [{ reasoning: thinking, reasoning_details: [{ type: 'reasoning.text', text: thinking, format: REASONING_FORMAT, index: block.index }] }];
    }
    if (block.kind === 'reasoning' && type === 'signature_delta') {
      // text '' so that concatenating by index leaves the text intact and picks up the signature.
      const signature = asString(delta.signature) ?? '';
      return [{ reasoning_details: [{ type: 'reasoning.text', text: '', signature, format: REASONING_FORMAT, index: block.index }] }];
    }
    if (block.kind === 'tool' && type === 'input_json_delta') {
      const fragment = asString(delta.partial_json);
      // Anthropic opens with partial_json "" — nothing to forward.
      if (!fragment) return [];
      block.sentArguments = true;
      return [{ tool_calls: [{ index: block.index, function: { arguments: fragment } }] }];
    }
    return []; // citations_delta and other additions carry nothing OpenAI-shaped
  }

  function stopBlock(index: number): StreamDelta[] {
    const block = blocks.get(index);
    // A tool without parameters streams no JSON at all; '' would make the client's JSON.parse throw,
    // and the non-streaming path says "{}" for the same call.
    if (block?.kind === 'tool' && !block.sentArguments) return [{ tool_calls: [{ index: block.index, function: { arguments: '{}' } }] }];
    return [];
  }

  function takeError(value: unknown): void {
    const upstreamError = asRecord(value);
    error = convertStreamError({ type: asString(upstreamError.type), message: asString(upstreamError.message) });
  }

  function push(event: SseEvent): StreamDelta[] {
    if (event.event === UNFRAMED_TAIL_EVENT) {
      // An error body after the events, not framed as one (sse.ts): its message is kept; anything else is noise.
      const tail = parseUnframedTail(event.data);
      if (tail?.type === 'error' && !done) takeError(tail.error);
      return [];
    }
    let data: Data;
    try {
      data = asRecord(JSON.parse(event.data));
    } catch {
      error = { code: 'server_error', message: 'Anthropic sent a malformed stream event' };
      return [];
    }
    const index = typeof data.index === 'number' ? data.index : -1;
    switch (data.type ?? event.event) {
      case 'message_start': {
        const message = asRecord(data.message);
        upstreamId = asString(message.id) ?? upstreamId;
        takeUsage(message.usage);
        return [];
      }
      case 'content_block_start':
        return startBlock(index, data.content_block);
      case 'content_block_delta':
        return blockDelta(index, asRecord(data.delta));
      case 'content_block_stop':
        return stopBlock(index);
      case 'message_delta': {
        const delta = asRecord(data.delta);
        const stopReason = asString(delta.stop_reason);
        if (stopReason) finishReason = mapFinishReason(stopReason);
        if (stopReason === 'stop_sequence') stopSequence = asString(delta.stop_sequence) ?? null;
        takeUsage(data.usage);
        return [];
      }
      case 'message_stop':
        done = true;
        return [];
      case 'error':
        takeError(data.error);
        return [];
      default:
        return []; // ping, and event types Anthropic may add later (its docs ask clients to ignore them)
    }
  }

  return {
    push,
    get finishReason() {
      return finishReason;
    },
    get stopSequence() {
      return stopSequence;
    },
    get usage(): NormalizedUsage | null {
      return rawUsage ? convertUsage(rawUsage) : null;
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
