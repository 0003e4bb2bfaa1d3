// A stream in Anthropic's event order and shapes (platform.claude.com/docs/en/build-with-claude/streaming):
// message_start (empty content), then per content block content_block_start → content_block_delta* →
// content_block_stop, then message_delta (stop_reason, usage) and message_stop. Blocks never interleave:
// a new block opens whenever the kind of delta changes (text, one thinking block, one tool call), and the
// open one is closed first. Pings while waiting; a failure after the stream began is an `error` event.
import type { FinalUsage, FinishDetails, RenderContext, StreamRenderer } from '@/server/gateway/wire-format';
import { estimatePromptTokens, measurePrompt } from '@/server/providers/estimate-tokens';
import type { ChatRequest, FinishReason, MidStreamError, ReasoningDetail, StreamDelta, ToolCallDelta } from '@/server/providers/types';
import { countTokensIfLoaded } from './count-tokens-locally';
import { midStreamErrorType } from './messages-errors';
import { detailMeta, isAnthropicDetail, sealDetail } from './reasoning-envelope';
import { stopReasonOf, usageOf } from './render-messages-response';

export const PING = 'event: ping\ndata: {"type":"ping"}\n\n';

const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

type Open =
  | { kind: 'text' }
  /** `key` names the reasoning it continues; `seal` the foreign detail's fields, written as the signature at its end. */
  | { kind: 'thinking'; key: string; seal?: Record<string, unknown> }
  | { kind: 'tool'; toolIndex: number };

/**
 * Prompts up to this much text are counted with the tokenizer for message_start (≈ 1 ms per 8 KB; a 450 KB
 * prompt took 60 ms, too long to hold every stream's first byte and the event loop for a figure the
 * message_delta event corrects). Larger ones are estimated from their size.
 */
const TOKENIZED_TEXT_BYTES = 64 * 1024;

/** Whether message_start counts this prompt with the tokenizer: its text and tools, without reading any document. */
export function tokenizedAtStart(req: Pick<ChatRequest, 'messages' | 'tools'>): boolean {
  let bytes = 0;
  for (const t of req.tools ?? []) bytes += JSON.stringify(t.function).length;
  for (const m of req.messages) {
    if (typeof m.content === 'string') bytes += Buffer.byteLength(m.content);
    else for (const p of m.content ?? []) if (p.type === 'text') bytes += Buffer.byteLength(p.text);
    if (bytes > TOKENIZED_TEXT_BYTES) return false;
  }
  return true;
}

/**
 * message_start's input_tokens: nothing has reported usage yet (message_delta carries the upstream's figures,
 * whole), so the prompt is counted here, with the tokenizer (count-tokens-locally.ts) when it is small.
 */
function promptTokensAtStart(req: ChatRequest): number {
  return (tokenizedAtStart(req) ? countTokensIfLoaded(req) : undefined) ?? estimatePromptTokens(measurePrompt(req.messages));
}

export function createMessagesStreamRenderer(ctx: RenderContext): StreamRenderer {
  let index = -1;
  let open: Open | null = null;
  let sawToolUse = false;

  const close = (): string => {
    if (!open) return '';
    let out = '';
    if (open.kind === 'thinking' && open.seal) out += event('content_block_delta', { index, delta: { type: 'signature_delta', signature: sealDetail(open.seal) } });
    open = null;
    return out + event('content_block_stop', { index });
  };
  const start = (next: Open, block: Record<string, unknown>): string => {
    const out = close();
    index++;
    open = next;
    return out + event('content_block_start', { index, content_block: block });
  };
  const blockDelta = (delta: Record<string, unknown>) => event('content_block_delta', { index, delta });
  /** A whole block at once (redacted thinking has no deltas). */
  const whole = (block: Record<string, unknown>): string => {
    const out = start({ kind: 'text' }, block);
    return out + close();
  };

  const thinking = (key: string, text: string, seal?: Record<string, unknown>): string => {
    let out = '';
    if (open?.kind !== 'thinking' || open.key !== key) out += start({ kind: 'thinking', key, ...(seal ? { seal } : {}) }, { type: 'thinking', thinking: '', signature: '' });
    if (text) out += blockDelta({ type: 'thinking_delta', thinking: text });
    return out;
  };

  const detail = (d: ReasoningDetail): string => {
    if (isAnthropicDetail(d)) {
      if (d.type === 'reasoning.encrypted') return whole({ type: 'redacted_thinking', data: d.data });
      if (d.type === 'reasoning.text') {
        let out = thinking(`anthropic:${d.index}`, d.text);
        // Anthropic's signature closes its thinking block: the client must get it byte for byte.
        if (d.signature) out += blockDelta({ type: 'signature_delta', signature: d.signature });
        return out;
      }
    }
    if (d.type === 'reasoning.encrypted') return whole({ type: 'redacted_thinking', data: sealDetail(d) });
    const key = `${d.format}:${d.index}:${d.id ?? ''}`;
    const text = d.type === 'reasoning.text' ? d.text : d.summary;
    const out = thinking(key, text, detailMeta(d));
    if (open?.kind === 'thinking' && d.type === 'reasoning.text' && d.signature) open.seal = { ...open.seal, signature: d.signature };
    return out;
  };

  const toolCall = (c: ToolCallDelta): string => {
    let out = '';
    if (open?.kind !== 'tool' || open.toolIndex !== c.index) {
      // Providers stream one call after another; a fragment of a call already closed has nowhere to go.
      if (c.id === undefined && c.function.name === undefined) return '';
      sawToolUse = true;
      out += start({ kind: 'tool', toolIndex: c.index }, { type: 'tool_use', id: c.id ?? '', name: c.function.name ?? '', input: {} });
    }
    if (c.function.arguments) out += blockDelta({ type: 'input_json_delta', partial_json: c.function.arguments });
    return out;
  };

  return {
    keepAlive: PING,
    start: () =>
      event('message_start', {
        message: {
          id: ctx.generationId,
          type: 'message',
          role: 'assistant',
          model: ctx.model, // as render-messages-response.ts: the canonical id of the model that answers
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: promptTokensAtStart(ctx.req), cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
        },
      }),
    delta(d: StreamDelta): string {
      let out = '';
      // reasoning_details say more than `reasoning` (the same text, plus signatures); never both.
      if (d.reasoning_details?.length) for (const r of d.reasoning_details) out += detail(r);
      else if (d.reasoning) out += thinking('plain', d.reasoning);
      if (d.content) {
        if (open?.kind !== 'text') out += start({ kind: 'text' }, { type: 'text', text: '' });
        out += blockDelta({ type: 'text_delta', text: d.content });
      }
      for (const c of d.tool_calls ?? []) out += toolCall(c);
      return out;
    },
    finish(reason: FinishReason, final: FinalUsage, details?: FinishDetails): string {
      const stopSequence = details?.stopSequence;
      const stopReason = stopReasonOf(reason, sawToolUse, stopSequence);
      return (
        close() +
        event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: stopReason === 'stop_sequence' ? stopSequence : null }, usage: usageOf(final.usage) }) +
        event('message_stop', {})
      );
    },
    error(err: MidStreamError): string {
      return event('error', { error: { type: midStreamErrorType(err), message: err.message } });
    },
  };
}
