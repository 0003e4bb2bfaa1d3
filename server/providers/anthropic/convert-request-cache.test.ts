// Prompt-cache breakpoints on the way to Anthropic. Requests are parsed from the JSON a client sends (so the
// schema's keeping of cache_control is checked too); the expected blocks follow Anthropic's prompt-caching
// page (cache_control on text, image and tool_result blocks, on system text blocks and on tool definitions,
// `ttl` "5m" or "1h", at most 4 breakpoints) and the Messages API reference (top-level automatic caching).
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { parseChatRequest } from '@/server/gateway/chat-request-schema';
import type { ResolvedModel } from '@/server/providers/types';
import { convertRequest } from './convert-request';

const model: ResolvedModel = {
  id: 'anthropic/claude-sonnet-4.5',
  provider: 'anthropic',
  upstreamModel: 'claude-sonnet-4-5',
  contextLength: 200_000,
  maxOutputTokens: 64_000,
  supportsReasoning: false,
  supportsImages: true,
};
const config = { baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant-test' };

function send(json: Record<string, unknown>) {
  const upstream = convertRequest(parseChatRequest({ model: model.id, stream: false, ...json }), { model, config });
  return { headers: upstream.headers, body: JSON.parse(upstream.body) as Record<string, any> };
}

const ephemeral = { type: 'ephemeral' };
const hour = { type: 'ephemeral', ttl: '1h' };
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const tool = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } }, ...extra });

describe('convertRequest: cache_control where the client put it', () => {
  it('keeps it on system parts, which become system text blocks', () => {
    const { body } = send({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'A long style guide…', cache_control: hour }] },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(body.system).toEqual([{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'A long style guide…', cache_control: hour }]);
  });

  it('keeps it on user text and image parts and on assistant text, and nowhere else', () => {
    const { body } = send({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Look:', cache_control: ephemeral }, { type: 'image_url', image_url: { url: PNG }, cache_control: { type: 'ephemeral', ttl: '5m' } }] },
        { role: 'assistant', content: [{ type: 'text', text: 'A cat.', cache_control: ephemeral }] },
        { role: 'user', content: 'And now?' },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:', cache_control: ephemeral },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, cache_control: { type: 'ephemeral', ttl: '5m' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'A cat.', cache_control: ephemeral }] },
      { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
    ]);
  });

  it('keeps it on the parts of a tool result, inside the tool_result block', () => {
    const { body } = send({
      tools: [tool('read_file')],
      messages: [
        { role: 'user', content: 'Read a.txt' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: [{ type: 'text', text: 'file contents', cache_control: hour }] },
      ],
    });
    expect(body.messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'file contents', cache_control: hour }] }] });
  });

  it('keeps it on tool definitions', () => {
    const { body } = send({ tools: [tool('a'), tool('b', { cache_control: hour })], messages: [{ role: 'user', content: 'Hi' }] });
    expect(body.tools).toEqual([
      { name: 'a', input_schema: { type: 'object', properties: {} } },
      { name: 'b', input_schema: { type: 'object', properties: {} }, cache_control: hour },
    ]);
  });

  it('sends no beta header for a 1h ttl (generally available) and adds no breakpoint of its own', () => {
    const { headers, body } = send({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: hour }] }] });
    expect(headers['anthropic-beta']).toBeUndefined();
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(1);
  });

  it('answers 400 naming the count beyond 4 breakpoints, counting tools, system and tool results', () => {
    const marked = { type: 'text', text: 'x', cache_control: ephemeral };
    const json = {
      tools: [tool('read_file', { cache_control: ephemeral })],
      messages: [
        { role: 'system', content: [marked] },
        { role: 'user', content: [marked] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: [marked] },
      ],
    };
    expect(() => send(json)).not.toThrow(); // four: allowed
    const five = { ...json, messages: [...json.messages, { role: 'user', content: [marked] }] };
    try {
      send(five);
      expect.unreachable('five breakpoints were accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: 'bad_request', metadata: { cache_breakpoints: 5, max_cache_breakpoints: 4 } });
      expect((err as AppError).message).toMatch(/5 prompt-cache breakpoints.*at most 4/);
    }
  });
});

describe('convertRequest: automatic caching (top-level cache_control)', () => {
  const conversation = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Read a.txt' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'toolu_1', content: 'file contents' },
  ];

  it('marks the last tool, the last system block and the last block of the last user turn', () => {
    const { body } = send({ cache_control: hour, tools: [tool('list_dir'), tool('read_file')], messages: conversation });
    expect(body.tools.map((t: { cache_control?: unknown }) => t.cache_control)).toEqual([undefined, hour]);
    expect(body.system).toEqual([{ type: 'text', text: 'You are a coding agent.', cache_control: hour }]);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file contents', cache_control: hour }] });
    expect(body.messages[0].content[0].cache_control).toBeUndefined();
    expect(body.cache_control).toBeUndefined(); // ours, not Anthropic's single moving breakpoint
  });

  it('marks only what exists: a lone user message', () => {
    const { body } = send({ cache_control: ephemeral, messages: [{ role: 'user', content: 'Hi' }] });
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: ephemeral }] }]);
    expect(body.system).toBeUndefined();
  });

  it('leaves the client its own breakpoints when it marked any', () => {
    const { body } = send({ cache_control: hour, tools: [tool('read_file')], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: ephemeral }] }] });
    expect(body.tools[0].cache_control).toBeUndefined();
    expect(body.messages[0].content[0].cache_control).toEqual(ephemeral);
  });

  it('adds nothing without the option', () => {
    expect(JSON.stringify(send({ tools: [tool('read_file')], messages: conversation }).body)).not.toContain('cache_control');
  });
});
