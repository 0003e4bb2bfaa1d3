import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import type { ChatMessage, ChatRequest, ResolvedModel } from '@/server/providers/types';
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
const thinkingModel: ResolvedModel = { ...model, supportsReasoning: true };
const config = { baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant-test' };

function body(req: Partial<ChatRequest>, m: ResolvedModel = model): Record<string, unknown> {
  const request: ChatRequest = { model: m.id, stream: false, messages: [{ role: 'user', content: 'Hi' }], ...req };
  return JSON.parse(convertRequest(request, { model: m, config }).body) as Record<string, unknown>;
}

function badRequest(req: Partial<ChatRequest>, message: RegExp, m: ResolvedModel = model): void {
  try {
    body(req, m);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('bad_request');
    expect((err as AppError).message).toMatch(message);
    return;
  }
  throw new Error('expected an AppError');
}

const weatherTool = { type: 'function' as const, function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const toolTurn: ChatMessage[] = [
  { role: 'user', content: 'Weather in Paris?' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    reasoning_details: [{ type: 'reasoning.text', text: 'Call the tool.', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 }],
  },
  { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
];

describe('convertRequest: envelope', () => {
  it('posts to /v1/messages with Anthropic headers and the upstream model', () => {
    const req = convertRequest({ model: model.id, stream: true, messages: [{ role: 'user', content: 'Hi' }] }, { model, config: { ...config, baseUrl: 'https://api.anthropic.com/v1/' } });
    expect(req.url).toBe('https://api.anthropic.com/v1/messages');
    expect(req.method).toBe('POST');
    expect(req.headers).toEqual({ 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
    expect(JSON.parse(req.body)).toEqual({ model: 'claude-sonnet-4-5', max_tokens: 8192, stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
  });

  it('sends no x-api-key when none is configured (a key-injecting proxy)', () => {
    const req = convertRequest({ model: model.id, stream: false, messages: [{ role: 'user', content: 'Hi' }] }, { model, config: { baseUrl: 'http://proxy.local' } });
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(req.url).toBe('http://proxy.local/v1/messages');
  });

  it('maps sampling and metadata, clamps temperature into 0–1, drops seed', () => {
    expect(body({ temperature: 1.7, stop: 'END', user: 'user-42', seed: 7, max_tokens: 500 })).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 500,
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      temperature: 1,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-42' },
    });
    expect(body({ temperature: -0.5 }).temperature).toBe(0);
    expect(body({ temperature: 0.7 }).temperature).toBe(0.7);
    expect(body({ top_p: 0.9, stop: ['a', 'b'] })).toMatchObject({ top_p: 0.9, stop_sequences: ['a', 'b'] });
    // newer Claude models reject both; temperature wins
    expect(body({ temperature: 0.2, top_p: 0.9 })).toMatchObject({ temperature: 0.2 });
    expect(body({ temperature: 0.2, top_p: 0.9 }).top_p).toBeUndefined();
  });

  it('caps max_tokens at the model and prefers max_completion_tokens', () => {
    expect(body({ max_tokens: 100_000 }).max_tokens).toBe(64_000);
    expect(body({ max_tokens: 100, max_completion_tokens: 300 }).max_tokens).toBe(300);
    expect(body({}, { ...model, maxOutputTokens: 4096 }).max_tokens).toBe(4096);
  });
});

describe('convertRequest: messages', () => {
  it('hoists system and developer messages from anywhere, in order, and appends the JSON instruction', () => {
    const b = body({
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: [{ type: 'text', text: 'Use metric units.' }] },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object', properties: { t: { type: 'number' } } } } },
    });
    expect(b.system).toEqual([
      { type: 'text', text: 'Be terse.' },
      { type: 'text', text: 'Use metric units.' },
      { type: 'text', text: 'Respond only with a JSON object matching this JSON schema, with no text before or after it: {"type":"object","properties":{"t":{"type":"number"}}}' },
    ]);
    expect(b.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
    expect(body({ response_format: { type: 'json_object' } }).system).toEqual([{ type: 'text', text: 'Respond only with a single JSON object, with no text before or after it.' }]);
    expect(body({ response_format: { type: 'text' } }).system).toBeUndefined();
  });

  it('converts base64 and http(s) images to image blocks', () => {
    const b = body({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
          ],
        },
      ],
    });
    expect(b.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
  });

  it('rejects images it cannot map', () => {
    const image = (url: string): Partial<ChatRequest> => ({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] });
    badRequest(image('ftp://example.com/cat.png'), /http\(s\) URLs or base64 data URLs/);
    badRequest(image('data:image/svg+xml;base64,PHN2Zz4='), /Unsupported image type image\/svg\+xml/);
    badRequest(image('https://example.com/cat.png'), /does not accept images/, { ...model, supportsImages: false });
    badRequest({ messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }, { role: 'user', content: 'Hi' }] }, /not in system messages/);
  });

  it('turns a tool turn into tool_use/tool_result, thinking blocks first, merging tool results with the next user message', () => {
    const b = body({
      messages: [
        ...toolTurn.slice(0, 2),
        { role: 'user', content: 'Also, be brief.' },
        { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
      ],
    });
    expect(b.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Call the tool.', signature: 'sig-1' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      // tool_result is moved ahead of the text, as Anthropic requires
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' }, { type: 'text', text: 'Also, be brief.' }] },
    ]);
  });

  it('merges consecutive same-role messages and skips empty ones', () => {
    const b = body({
      messages: [
        { role: 'user', content: 'One' },
        { role: 'user', content: [{ type: 'text', text: 'Two' }] },
        { role: 'assistant', content: null },
        { role: 'assistant', content: 'Three' },
        { role: 'assistant', content: [{ type: 'text', text: 'Four' }] },
      ],
    });
    expect(b.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'One' }, { type: 'text', text: 'Two' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Three' }, { type: 'text', text: 'Four' }] },
    ]);
    badRequest({ messages: [{ role: 'system', content: 'Only a system prompt' }] }, /At least one non-empty/);
  });

  it('replays only Anthropic reasoning details, joining fragments streamed under one index', () => {
    const b = body({
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: 'Hello',
          reasoning: 'plain text cannot be replayed',
          reasoning_details: [
            { type: 'reasoning.text', text: 'Think', format: 'anthropic-claude-v1', index: 0 },
            { type: 'reasoning.text', text: 'ing.', format: 'anthropic-claude-v1', index: 0 },
            { type: 'reasoning.text', text: '', signature: 'sig-a', format: 'anthropic-claude-v1', index: 0 },
            { type: 'reasoning.encrypted', data: 'opaque', index: 1 },
            { type: 'reasoning.text', text: 'unsigned', index: 2 },
            { type: 'reasoning.encrypted', data: 'gAAAA', format: 'openai-responses-v1', index: 3 },
            { type: 'reasoning.summary', summary: 'a summary', format: 'anthropic-claude-v1', index: 4 },
          ],
        },
        { role: 'user', content: 'Go on' },
      ],
    });
    expect((b.messages as { content: unknown[] }[])[1].content).toEqual([
      { type: 'thinking', thinking: 'Thinking.', signature: 'sig-a' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Hello' },
    ]);
  });

  it('rejects tool calls it cannot map', () => {
    const call = (args: string): ChatMessage => ({ role: 'assistant', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'lookup', arguments: args } }] });
    badRequest({ messages: [{ role: 'user', content: 'Hi' }, call('{"q":')] }, /call_9 \(lookup\).*not valid JSON/);
    badRequest({ messages: [{ role: 'user', content: 'Hi' }, call('[1]')] }, /call_9 \(lookup\).*JSON object/);
    badRequest({ messages: [{ role: 'user', content: 'Hi' }, { role: 'tool', tool_call_id: 'toolu_x', content: 'r' }] }, /toolu_x/);
    const empty = body({ messages: [{ role: 'user', content: 'Hi' }, call('')] });
    expect((empty.messages as { content: unknown[] }[])[1].content).toEqual([{ type: 'tool_use', id: 'call_9', name: 'lookup', input: {} }]);
  });
});

describe('convertRequest: tools', () => {
  it('maps tools with a default input_schema', () => {
    const b = body({ tools: [weatherTool, { type: 'function', function: { name: 'now' } }] });
    expect(b.tools).toEqual([
      { name: 'get_weather', description: 'Weather now', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
      { name: 'now', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(b.tool_choice).toBeUndefined();
  });

  it('maps every tool_choice and parallel_tool_calls: false', () => {
    const choice = (req: Partial<ChatRequest>) => body({ tools: [weatherTool], ...req }).tool_choice;
    expect(choice({ tool_choice: 'auto' })).toEqual({ type: 'auto' });
    expect(choice({ tool_choice: 'required' })).toEqual({ type: 'any' });
    expect(choice({ tool_choice: 'none' })).toEqual({ type: 'none' });
    expect(choice({ tool_choice: { type: 'function', function: { name: 'get_weather' } } })).toEqual({ type: 'tool', name: 'get_weather' });
    expect(choice({ parallel_tool_calls: false })).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(choice({ tool_choice: 'required', parallel_tool_calls: false })).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(choice({ tool_choice: 'none', parallel_tool_calls: false })).toEqual({ type: 'none' });
    badRequest({ tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'nope' } } }, /nope/);
    expect(body({ tool_choice: 'auto' }).tool_choice).toBeUndefined(); // no tools, nothing to choose
  });
});

describe('convertRequest: extended thinking', () => {
  it('thinks by default on a reasoning model with a medium budget plus room for the answer, dropping temperature and top_p', () => {
    const b = body({ temperature: 0.3, top_p: 0.5 }, thinkingModel);
    expect(b.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(b.max_tokens).toBe(8192 + 8192);
    expect(b.temperature).toBeUndefined();
    expect(b.top_p).toBeUndefined();
  });

  it('takes the budget from reasoning.max_tokens, else effort', () => {
    const budget = (req: Partial<ChatRequest>) => (body(req, thinkingModel).thinking as { budget_tokens: number }).budget_tokens;
    expect(budget({ reasoning: { max_tokens: 3000 } })).toBe(3000);
    expect(budget({ reasoning: { max_tokens: 200 } })).toBe(1024);
    expect(budget({ reasoning: { effort: 'minimal' } })).toBe(1024);
    expect(budget({ reasoning: { effort: 'low' } })).toBe(4096);
    expect(budget({ reasoning_effort: 'high' })).toBe(16384);
    expect(budget({ reasoning: { effort: 'high', max_tokens: 0 } })).toBe(16384);
    expect(budget({ reasoning: { exclude: true } })).toBe(8192); // still thinks; the gateway hides it
  });

  it('fits the budget under a client cap, or turns thinking off when it cannot', () => {
    expect(body({ max_completion_tokens: 4096 }, thinkingModel)).toMatchObject({ max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 3072 } });
    const tight = body({ max_tokens: 1500, temperature: 0.4 }, thinkingModel);
    expect(tight).toMatchObject({ max_tokens: 1500, temperature: 0.4 });
    expect(tight.thinking).toBeUndefined();
    expect(body({ reasoning: { effort: 'high' } }, { ...thinkingModel, maxOutputTokens: 20_000 })).toMatchObject({ max_tokens: 20_000, thinking: { budget_tokens: 16384 } });
  });

  it('does not think when disabled, unsupported, forced to a tool, or mid tool loop without signed thinking', () => {
    expect(body({ reasoning: { enabled: false } }, thinkingModel).thinking).toBeUndefined();
    expect(body({ reasoning: { max_tokens: 0 } }, thinkingModel).thinking).toBeUndefined();
    expect(body({ reasoning: { effort: 'high' } }, model).thinking).toBeUndefined();
    const forced = body({ tools: [weatherTool], tool_choice: 'required', temperature: 0.5 }, thinkingModel);
    expect(forced).toMatchObject({ max_tokens: 8192, temperature: 0.5, tool_choice: { type: 'any' } });
    expect(forced.thinking).toBeUndefined();
    const stripped = toolTurn.map((m) => (m.role === 'assistant' ? { ...m, reasoning_details: undefined } : m));
    expect(body({ tools: [weatherTool], messages: stripped }, thinkingModel).thinking).toBeUndefined();
    expect(body({ tools: [weatherTool], messages: toolTurn }, thinkingModel).thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
  });
});
