// The Responses API stream (platform.openai.com/docs/api-reference/responses-streaming): typed SSE events,
// `event: <type>` and `data: {"type":<type>,"sequence_number":n,…}`. Items open with output_item.added, grow
// by deltas (output_text.delta, function_call_arguments.delta, reasoning_summary_text.delta) and close with
// their .done events and output_item.done; the stream ends with response.completed (or .incomplete) carrying
// usage, or response.failed — never a silent cut. Deltas come from any provider in the internal shape. A call
// of a custom tool (arguments {"input": …}, custom-tools.ts) is a custom_tool_call item whose input grows by
// custom_tool_call_input.delta as its arguments stream in. One item is open at a time, as on OpenAI: an item's
// .done events come before the next item's output_item.added. The item open when the answer ends is
// `incomplete` unless the response is completed (max_output_tokens, a content filter, a failure).
import type { FinalUsage, RenderContext, StreamRenderer } from '@/server/gateway/wire-format';
import { customToolInput, partialCustomToolInput } from '@/server/providers/custom-tool-input';
import { RESPONSES_REASONING_FORMAT } from '@/server/providers/openai/convert-responses-input';
import type { FinishReason, MidStreamError, ReasoningDetail, StreamDelta } from '@/server/providers/types';
import { responsesStateOf } from './parse-responses-request';
import { wrapReasoning } from './reasoning-envelope';
import {
  customToolCallItem,
  customToolCallItemId,
  customToolNames,
  functionCallItemId,
  lastItemStatusOf,
  messageItem,
  messageItemId,
  type OutputItem,
  reasoningItemId,
  responseObject,
  responsesUsage,
  statusOf,
} from './render-response';

export const RESPONSES_KEEPALIVE = ': keep-alive\n\n';

type Open =
  | { kind: 'reasoning'; at: number; id: string; own: boolean; summary: string; summaryStarted: boolean; foreign: ReasoningDetail[]; encrypted: string }
  | { kind: 'message'; at: number; id: string; text: string };
type ItemStatus = 'completed' | 'incomplete';
interface ToolItem {
  at: number;
  id: string;
  callId: string;
  name: string;
  args: string;
  /** A custom tool's call: how much of its input the client was sent. */
  custom?: { sent: string };
}

/** One stream's state; `items` holds every output item (encrypted reasoning included), for `store`. */
export class ResponsesStreamWriter implements StreamRenderer {
  readonly keepAlive = RESPONSES_KEEPALIVE;
  readonly items: OutputItem[] = [];
  /** Terminal item events already produced (by closeAll before the answer is stored), written by finish/error. */
  private pending = '';
  private seq = 0;
  private open: Open | null = null;
  private readonly tools = new Map<number, ToolItem>();
  /** Tool calls (by index) whose item is done. */
  private readonly closedTools = new Set<number>();
  private reasoningCount = 0;
  private readonly withEncrypted: boolean;
  private readonly customTools: ReadonlySet<string>;

  constructor(private readonly ctx: RenderContext) {
    this.withEncrypted = responsesStateOf(ctx.req)?.includeEncrypted ?? false;
    this.customTools = customToolNames(ctx);
  }

  private event(type: string, fields: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.seq++, ...fields })}\n\n`;
  }

  /** What the client sees of an item: encrypted reasoning only when `include` asked for it. */
  private visible(item: OutputItem): OutputItem {
    if (this.withEncrypted || item.type !== 'reasoning' || !('encrypted_content' in item)) return item;
    const { encrypted_content: _, ...rest } = item;
    return rest;
  }

  visibleItems(): OutputItem[] {
    return this.items.filter(Boolean).map((i) => this.visible(i));
  }

  private added(item: OutputItem): { at: number; text: string } {
    const at = this.items.length;
    this.items.push(item);
    return { at, text: this.event('response.output_item.added', { output_index: at, item: this.visible(item) }) };
  }

  private done(at: number, item: OutputItem): string {
    this.items[at] = item;
    return this.event('response.output_item.done', { output_index: at, item: this.visible(item) });
  }

  start(): string {
    const response = responseObject(this.ctx, { status: 'in_progress', output: [], usage: null });
    return this.event('response.created', { response }) + this.event('response.in_progress', { response });
  }

  private openReasoning(id: string | undefined): { open: Extract<Open, { kind: 'reasoning' }>; text: string } {
    const own = id !== undefined;
    if (this.open?.kind === 'reasoning' && this.open.own === own && (!own || this.open.id === id)) return { open: this.open, text: '' };
    let text = this.closeCurrent();
    const itemId = id ?? reasoningItemId(this.ctx, this.reasoningCount);
    this.reasoningCount++;
    const a = this.added({ id: itemId, type: 'reasoning', summary: [] });
    text += a.text;
    const open: Open = { kind: 'reasoning', at: a.at, id: itemId, own, summary: '', summaryStarted: false, foreign: [], encrypted: '' };
    this.open = open;
    return { open, text };
  }

  private summaryDelta(open: Extract<Open, { kind: 'reasoning' }>, delta: string): string {
    let text = '';
    const ids = { item_id: open.id, output_index: open.at, summary_index: 0 };
    if (!open.summaryStarted) {
      open.summaryStarted = true;
      text += this.event('response.reasoning_summary_part.added', { ...ids, part: { type: 'summary_text', text: '' } });
    }
    open.summary += delta;
    return text + this.event('response.reasoning_summary_text.delta', { ...ids, delta });
  }

  /** Closes the open item, whichever it is (`status`: that of the item the answer ended in). */
  private closeCurrent(status: ItemStatus = 'completed'): string {
    return this.closeOpen(status) + this.closeTools(status);
  }

  private closeOpen(status: ItemStatus = 'completed'): string {
    const open = this.open;
    if (!open) return '';
    this.open = null;
    if (open.kind === 'message') {
      const ids = { item_id: open.id, output_index: open.at, content_index: 0 };
      return (
        this.event('response.output_text.done', { ...ids, text: open.text, logprobs: [] }) +
        this.event('response.content_part.done', { ...ids, part: { type: 'output_text', text: open.text, annotations: [] } }) +
        this.done(open.at, messageItem(open.id, open.text, status))
      );
    }
    let text = '';
    if (open.summaryStarted) {
      const ids = { item_id: open.id, output_index: open.at, summary_index: 0 };
      text += this.event('response.reasoning_summary_text.done', { ...ids, text: open.summary });
      text += this.event('response.reasoning_summary_part.done', { ...ids, part: { type: 'summary_text', text: open.summary } });
    }
    const encrypted = open.own ? open.encrypted : open.foreign.length > 0 ? wrapReasoning(open.foreign) : '';
    const item: OutputItem = { id: open.id, type: 'reasoning', summary: open.summary ? [{ type: 'summary_text', text: open.summary }] : [], ...(encrypted ? { encrypted_content: encrypted } : {}) };
    return text + this.done(open.at, item);
  }

  private closeTools(status: ItemStatus = 'completed'): string {
    let text = '';
    for (const [index, t] of this.tools) {
      this.closedTools.add(index);
      if (t.custom) {
        const input = customToolInput(t.args);
        const ids = { item_id: t.id, output_index: t.at };
        // The rest of the input (all of it, when the arguments did not stream as {"input": …}).
        const rest = input.startsWith(t.custom.sent) ? input.slice(t.custom.sent.length) : input;
        if (rest) text += this.event('response.custom_tool_call_input.delta', { ...ids, delta: rest });
        text += this.event('response.custom_tool_call_input.done', { ...ids, input });
        text += this.done(t.at, customToolCallItem(t.id, t.callId, t.name, input, status));
        continue;
      }
      text += this.event('response.function_call_arguments.done', { item_id: t.id, output_index: t.at, name: t.name, arguments: t.args });
      text += this.done(t.at, { id: t.id, type: 'function_call', status, call_id: t.callId, name: t.name, arguments: t.args });
    }
    this.tools.clear();
    return text;
  }

  /** A custom tool call's arguments grew: the input decoded so far, past what was sent. */
  private customInputDelta(t: ToolItem & { custom: { sent: string } }): string {
    const partial = partialCustomToolInput(t.args);
    if (!partial || partial.length <= t.custom.sent.length) return '';
    const delta = partial.slice(t.custom.sent.length);
    t.custom.sent = partial;
    return this.event('response.custom_tool_call_input.delta', { item_id: t.id, output_index: t.at, delta });
  }

  /**
   * Closes the open item (idempotent); the events are kept for the terminal write. `reason` and `error`: how the
   * answer ended, which decides the item's status (lastItemStatusOf).
   */
  closeAll(reason: FinishReason = 'stop', error?: MidStreamError): void {
    this.pending += this.closeCurrent(lastItemStatusOf(reason, error));
  }

  delta(d: StreamDelta): string {
    let text = '';
    let ownSummary = false;
    for (const detail of d.reasoning_details ?? []) {
      if (detail.format === RESPONSES_REASONING_FORMAT && detail.id) {
        const r = this.openReasoning(detail.id);
        text += r.text;
        if (detail.type === 'reasoning.summary') {
          ownSummary = true;
          text += this.summaryDelta(r.open, detail.summary);
        } else if (detail.type === 'reasoning.encrypted') {
          // OpenAI sends the encrypted content with the item's end: the item is complete.
          r.open.encrypted += detail.data;
          text += this.closeOpen();
        }
      } else {
        const r = this.openReasoning(undefined);
        text += r.text;
        r.open.foreign.push(detail);
      }
    }
    if (d.reasoning && !ownSummary) {
      const r = this.openReasoning(undefined);
      text += r.text + this.summaryDelta(r.open, d.reasoning);
    }
    if (d.content) {
      if (this.open?.kind !== 'message') {
        text += this.closeCurrent();
        const id = messageItemId(this.ctx);
        const a = this.added({ ...messageItem(id, ''), status: 'in_progress', content: [] });
        text += a.text + this.event('response.content_part.added', { item_id: id, output_index: a.at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
        this.open = { kind: 'message', at: a.at, id, text: '' };
      }
      this.open.text += d.content;
      text += this.event('response.output_text.delta', { item_id: this.open.id, output_index: this.open.at, content_index: 0, delta: d.content, logprobs: [] });
    }
    for (const c of d.tool_calls ?? []) {
      // A fragment for a call already closed (another item opened since) cannot be sent any more: no adapter
      // sends one (Anthropic's blocks, OpenAI's items and Chat Completions' calls arrive one after another).
      if (this.closedTools.has(c.index)) continue;
      let t = this.tools.get(c.index);
      if (!t) {
        text += this.closeCurrent();
        const name = c.function.name ?? '';
        const custom = this.customTools.has(name);
        const id = custom ? customToolCallItemId(this.ctx, c.index) : functionCallItemId(this.ctx, c.index);
        const callId = c.id ?? id;
        const a = this.added(custom ? customToolCallItem(id, callId, name, '', 'in_progress') : { id, type: 'function_call', status: 'in_progress', call_id: callId, name, arguments: '' });
        text += a.text;
        t = { at: a.at, id, callId, name, args: '', ...(custom ? { custom: { sent: '' } } : {}) };
        this.tools.set(c.index, t);
      }
      if (c.function.arguments) {
        t.args += c.function.arguments;
        if (t.custom) text += this.customInputDelta(t as ToolItem & { custom: { sent: string } });
        else text += this.event('response.function_call_arguments.delta', { item_id: t.id, output_index: t.at, delta: c.function.arguments });
      }
    }
    return text;
  }

  finish(reason: FinishReason, final: FinalUsage): string {
    this.closeAll(reason);
    const { status, incomplete_details } = statusOf(reason);
    const response = responseObject(this.ctx, { status, incomplete_details, output: this.visibleItems(), usage: responsesUsage(final.usage, final.costMicros) });
    const text = this.pending + this.event(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
    this.pending = '';
    return text;
  }

  error(err: MidStreamError, final: FinalUsage): string {
    this.closeAll('error', err);
    const response = responseObject(this.ctx, { status: 'failed', error: { code: err.code, message: err.message }, output: this.visibleItems(), usage: responsesUsage(final.usage, final.costMicros) });
    const text = this.pending + this.event('response.failed', { response });
    this.pending = '';
    return text;
  }
}
