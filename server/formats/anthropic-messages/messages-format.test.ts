// The converter and renderers alone. Shapes follow Anthropic's Messages API reference and streaming docs.
import { describe, expect, it } from 'vitest';
import type { RenderContext } from '@/server/gateway/wire-format';
import { EMPTY_USAGE } from '@/server/providers/types';
import { convertMessagesRequest } from './convert-messages-request';
import { messagesErrorReply } from './messages-errors';
import { parseMessagesRequest } from './messages-request-schema';
import { renderMessagesResponse } from './render-messages-response';
import { createMessagesStreamRenderer } from './render-messages-stream';
import { AppError } from '@/server/errors';

const convert = (body: Record<string, unknown>) => convertMessagesRequest(parseMessagesRequest(body), body);
const ctx = (model = 'claude-sonnet-4-5'): RenderContext => ({ generationId: 'gen-1', requestId: 'req_1', model: 'anthropic/claude-sonnet-4.5', provider: 'anthropic', req: convert({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }), created: 0 });

/** SSE text → [event, data] pairs. */
const events = (sse: string) =>
  sse.split('\n\n').filter(Boolean).map((block) => {
    const [eventLine, dataLine] = block.split('\n');
    return [eventLine.slice(7), JSON.parse(dataLine.slice(6))] as const;
  });

describe('convertMessagesRequest', () => {
  it('maps roles, tools, tool results, thinking, images, documents, stop sequences and metadata', () => {
    const req = convert({
      model: 'claude-sonnet-4-5',
      max_tokens: 2000,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
      thinking: { type: 'enabled', budget_tokens: 1500 },
      tools: [{ name: 'read', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', ttl: '1h' } }, { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' }, { type: 'text', text: 'Read it' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'redacted_thinking', data: 'enc' }, { type: 'tool_use', id: 'tu_1', name: 'read', input: { path: '/a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: 'file body', is_error: true }, { type: 'text', text: 'and?' }] },
      ],
    });
    expect(req.stream).toBe(false);
    expect(req.messages[0]).toEqual({ role: 'system', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] });
    expect(req.messages[1]).toMatchObject({ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } }, { type: 'text', text: 'Read it' }] });
    expect(req.messages[2]).toMatchObject({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'tu_1', function: { name: 'read', arguments: '{"path":"/a"}' } }],
      reasoning_details: [{ type: 'reasoning.text', text: 'hmm', signature: 'sig', format: 'anthropic-claude-v1' }, { type: 'reasoning.encrypted', data: 'enc', format: 'anthropic-claude-v1' }],
    });
    expect(req.messages[3]).toEqual({ role: 'tool', tool_call_id: 'tu_1', content: 'Error: file body' });
    expect(req.messages[4]).toEqual({ role: 'user', content: 'and?' });
    // The server tool is Anthropic's to run: only the passthrough body carries it.
    expect(req.tools).toEqual([{ type: 'function', function: { name: 'read', parameters: { type: 'object' } }, cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    expect(req).toMatchObject({ tool_choice: 'required', parallel_tool_calls: false, stop: ['END'], user: 'u-1', max_tokens: 2000, reasoning: { max_tokens: 1500 } });
    expect(req.native?.format).toBe('anthropic-messages');
  });

  it('a search_result block is text for other providers: title, source and its text (in a turn and in a tool result)', () => {
    const result = { type: 'search_result', source: 'https://docs.example.com/kb/42', title: 'Refund policy', content: [{ type: 'text', text: 'Refunds within 30 days.' }, { type: 'text', text: 'Keep the receipt.' }], citations: { enabled: true } };
    const req = convert({
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'user', content: [result, { type: 'text', text: 'Can I get a refund?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: 'search', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: [result] }] },
      ],
    });
    const text = 'Search result: Refund policy\nSource: https://docs.example.com/kb/42\n\nRefunds within 30 days.\n\nKeep the receipt.';
    expect(req.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text }, { type: 'text', text: 'Can I get a refund?' }] });
    expect(req.messages[2]).toEqual({ role: 'tool', tool_call_id: 'tu_1', content: text });
    expect(() => convert({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'search_result', title: 'no source', content: [] }] }] })).toThrow(AppError);
  });

  it('no thinking means none; stream defaults to false; malformed known blocks are 400s', () => {
    expect(convert({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).reasoning).toEqual({ enabled: false });
    expect(() => convert({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'text' }] }] })).toThrow(AppError);
    expect(() => convert({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).toThrow(/max_tokens/);
  });
});

describe('renderMessagesResponse', () => {
  it('orders thinking, text, tool_use; usage input_tokens excludes cache reads and writes', () => {
    const body = renderMessagesResponse(ctx(), {
      message: { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'tu_1', type: 'function', function: { name: 'read', arguments: '{"a":1}' } }], reasoning_details: [{ type: 'reasoning.text', text: 'think', signature: 'sig', format: 'anthropic-claude-v1', index: 0 }] },
      finishReason: 'tool_calls',
      usage: { promptTokens: 100, completionTokens: 7, cachedTokens: 60, cacheWriteTokens: 30, reasoningTokens: 0 },
      costMicros: 1n,
    });
    expect(body).toEqual({
      id: 'gen-1', type: 'message', role: 'assistant', model: 'anthropic/claude-sonnet-4.5', stop_reason: 'tool_use', stop_sequence: null,
      content: [{ type: 'thinking', thinking: 'think', signature: 'sig' }, { type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'tu_1', name: 'read', input: { a: 1 } }],
      usage: { input_tokens: 10, cache_read_input_tokens: 60, cache_creation_input_tokens: 30, output_tokens: 7 },
    });
  });

  it("seals another provider's reasoning so it comes back on the next turn", () => {
    const detail = { type: 'reasoning.encrypted' as const, data: 'openai-blob', format: 'openai-responses-v1', id: 'rs_1', index: 0 };
    const body = renderMessagesResponse(ctx(), { message: { role: 'assistant', content: 'ok', reasoning_details: [detail] }, finishReason: 'stop', usage: EMPTY_USAGE, costMicros: 0n });
    const block = body.content[0] as { type: string; data: string };
    expect(block.type).toBe('redacted_thinking');
    const back = convert({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [block, { type: 'text', text: 'ok' }] }, { role: 'user', content: 'again' }] });
    expect((back.messages[1] as { reasoning_details?: unknown[] }).reasoning_details).toEqual([detail]);
  });
});

describe('the stream renderer', () => {
  it("writes Anthropic's event order, opening a block per kind and per tool, closing the open one first", () => {
    const r = createMessagesStreamRenderer(ctx());
    let sse = r.start();
    sse += r.delta({ reasoning: 'a', reasoning_details: [{ type: 'reasoning.text', text: 'a', format: 'anthropic-claude-v1', index: 0 }] });
    sse += r.delta({ reasoning_details: [{ type: 'reasoning.text', text: '', signature: 'SIG', format: 'anthropic-claude-v1', index: 0 }] });
    sse += r.delta({ content: 'Hi' });
    sse += r.delta({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '' } }] });
    sse += r.delta({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] });
    sse += r.delta({ tool_calls: [{ index: 0, function: { arguments: '1}' } }, { index: 1, id: 'c2', type: 'function', function: { name: 'g', arguments: '{}' } }] });
    sse += r.finish('tool_calls', { usage: { ...EMPTY_USAGE, promptTokens: 9, completionTokens: 4 }, costMicros: 0n });
    const list = events(sse);
    expect(list.map(([e, d]) => (e === 'content_block_delta' ? d.delta.type : e))).toEqual([
      'message_start',
      'content_block_start', 'thinking_delta', 'signature_delta', 'content_block_stop',
      'content_block_start', 'text_delta', 'content_block_stop',
      'content_block_start', 'input_json_delta', 'input_json_delta', 'content_block_stop',
      'content_block_start', 'input_json_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    const starts = list.filter(([e]) => e === 'content_block_start').map(([, d]) => [d.index, d.content_block.type]);
    expect(starts).toEqual([[0, 'thinking'], [1, 'text'], [2, 'tool_use'], [3, 'tool_use']]);
    expect(list.find(([, d]) => d.delta?.type === 'signature_delta')![1].delta.signature).toBe('SIG');
    expect(list.at(-2)![1]).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 4 } });
  });

  it('a failure is an error event; ping is the keep-alive', () => {
    const r = createMessagesStreamRenderer(ctx());
    expect(r.keepAlive).toBe('event: ping\ndata: {"type":"ping"}\n\n');
    expect(events(r.error({ code: 'rate_limit', message: 'slow down' }, { usage: EMPTY_USAGE, costMicros: 0n }, {}))).toEqual([['error', { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }]]);
  });
});

it("errorReply: Anthropic's error body, our status", () => {
  expect(messagesErrorReply(new AppError('payment_required', 'No credit'), 'req_1', 'test')).toEqual({ status: 402, headers: { 'request-id': 'req_1', 'x-request-id': 'req_1' }, body: { type: 'error', error: { type: 'billing_error', message: 'No credit' }, request_id: 'req_1' } });
  const hidden = messagesErrorReply(new Error('secret'), 'req_2', 'test');
  expect(hidden.status).toBe(500);
  expect(hidden.body).toMatchObject({ error: { type: 'api_error', message: 'Internal server error' } });
});
