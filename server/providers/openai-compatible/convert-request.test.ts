import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest, ResolvedModel } from '../types';
import { convertCompatibleRequest, type OpenAICompatibleOptions } from './convert-request';
import { createOpenAICompatibleAdapter, deepseekAdapter } from './index';

const deepseekChat: ResolvedModel = {
  id: 'deepseek/deepseek-chat',
  provider: 'deepseek',
  upstreamModel: 'deepseek-chat',
  contextLength: 128_000,
  maxOutputTokens: 8_192,
  supportsReasoning: false,
  supportsImages: false,
};
const deepseekReasoner: ResolvedModel = { ...deepseekChat, id: 'deepseek/deepseek-reasoner', upstreamModel: 'deepseek-reasoner', maxOutputTokens: 65_536, supportsReasoning: true };
const qwen: ResolvedModel = { ...deepseekReasoner, id: 'lab/qwen3-8b', provider: 'lab', upstreamModel: 'Qwen/Qwen3-8B' };

const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'x', messages: [{ role: 'user', content: 'Hi' }], stream: false, ...extra });

describe('deepseekAdapter.convertRequest', () => {
  const send = (req: ChatRequest, model = deepseekChat, baseUrl = '') => deepseekAdapter.convertRequest(req, { model, config: { baseUrl, apiKey: 'sk-ds' } });

  it('posts to https://api.deepseek.com/chat/completions by default, or to the configured base', () => {
    const upstream = send(request());
    expect(upstream.url).toBe('https://api.deepseek.com/chat/completions');
    expect(upstream.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-ds' });
    expect(JSON.parse(upstream.body)).toEqual({ model: 'deepseek-chat', messages: [{ role: 'user', content: 'Hi' }] });
    expect(send(request(), deepseekChat, 'http://127.0.0.1:4010').url).toBe('http://127.0.0.1:4010/chat/completions');
  });

  it('sends max_tokens, asks for usage when streaming, keeps sampling for deepseek-chat', () => {
    expect(JSON.parse(send(request({ stream: true, max_completion_tokens: 500, temperature: 0.3, top_p: 0.8 })).body)).toEqual({
      model: 'deepseek-chat',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.3,
      top_p: 0.8,
      max_tokens: 500,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('drops temperature/top_p and reasoning_effort for deepseek-reasoner', () => {
    const body = JSON.parse(send(request({ temperature: 0.3, top_p: 0.8, reasoning: { effort: 'high' }, seed: 3 }), deepseekReasoner).body);
    expect(body).toEqual({ model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'Hi' }], seed: 3 });
  });

  it('passes reasoning back as reasoning_content to deepseek-reasoner, and an empty one for a tool turn without it', () => {
    const toolCall = { id: 'call_00_a', type: 'function' as const, function: { name: 'get_weather', arguments: '{"location":"Paris"}' } };
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Weather in Paris, then Tokyo?' },
      { role: 'assistant', content: '', reasoning: 'Need Paris first.', tool_calls: [toolCall] },
      { role: 'tool', tool_call_id: 'call_00_a', content: '18°C' },
      { role: 'assistant', content: null, reasoning_details: [{ type: 'reasoning.text', text: 'Now Tokyo.' }], tool_calls: [{ ...toolCall, id: 'call_00_b' }] },
      { role: 'tool', tool_call_id: 'call_00_b', content: '22°C' },
      { role: 'assistant', content: null, tool_calls: [{ ...toolCall, id: 'call_00_c' }] },
      { role: 'tool', tool_call_id: 'call_00_c', content: '22°C' },
      { role: 'assistant', content: 'Paris 18°C, Tokyo 22°C.' },
    ];
    const sent = JSON.parse(send(request({ messages }), deepseekReasoner).body).messages;
    expect(sent[1]).toEqual({ role: 'assistant', content: '', reasoning_content: 'Need Paris first.', tool_calls: [toolCall] });
    expect(sent[3]).toEqual({ role: 'assistant', content: null, reasoning_content: 'Now Tokyo.', tool_calls: [{ ...toolCall, id: 'call_00_b' }] });
    expect(sent[5]).toEqual({ role: 'assistant', content: null, reasoning_content: '', tool_calls: [{ ...toolCall, id: 'call_00_c' }] });
    expect(sent[7]).toEqual({ role: 'assistant', content: 'Paris 18°C, Tokyo 22°C.' });
  });

  it('never sends reasoning fields to deepseek-chat', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello', reasoning: 'greet', reasoning_details: [{ type: 'reasoning.text', text: 'greet' }] },
      { role: 'user', content: 'Bye' },
    ];
    expect(JSON.parse(send(request({ messages })).body).messages[1]).toEqual({ role: 'assistant', content: 'Hello' });
  });
});

describe('createOpenAICompatibleAdapter', () => {
  const send = (options: OpenAICompatibleOptions, req: ChatRequest, config: { baseUrl: string; apiKey?: string } = { baseUrl: '' }) =>
    convertCompatibleRequest(req, { model: qwen, config }, options);

  it('uses the full configured base and adds extra headers after ours', () => {
    const upstream = send({ baseUrl: 'http://localhost:11434/v1/', headers: { 'x-tenant': 'lab', authorization: 'Token abc' } }, request());
    expect(upstream.url).toBe('http://localhost:11434/v1/chat/completions');
    expect(upstream.headers).toEqual({ 'content-type': 'application/json', 'x-tenant': 'lab', authorization: 'Token abc' });
  });

  it('prefers the ProviderConfig over the options for base URL and key', () => {
    const upstream = send({ baseUrl: 'http://localhost:11434/v1', apiKey: 'from-options' }, request(), { baseUrl: 'http://127.0.0.1:5000/v1', apiKey: 'from-config' });
    expect(upstream.url).toBe('http://127.0.0.1:5000/v1/chat/completions');
    expect(upstream.headers.authorization).toBe('Bearer from-config');
    expect(send({ apiKey: 'from-options' }, request(), { baseUrl: 'http://h/v1' }).headers.authorization).toBe('Bearer from-options');
  });

  it('leaves stream_options out for a server that does not support it', () => {
    const body = JSON.parse(send({ baseUrl: 'http://h/v1', supportsStreamOptions: false }, request({ stream: true })).body);
    expect(body.stream).toBe(true);
    expect(body).not.toHaveProperty('stream_options');
  });

  it('forwards reasoning_effort only when the server supports it, and never our reasoning object', () => {
    const req = request({ reasoning: { effort: 'low' } });
    expect(JSON.parse(send({ baseUrl: 'http://h/v1', supportsReasoningEffort: true }, req).body).reasoning_effort).toBe('low');
    const plain = JSON.parse(send({ baseUrl: 'http://h/v1' }, req).body);
    expect(plain).not.toHaveProperty('reasoning_effort');
    expect(plain).not.toHaveProperty('reasoning');
  });

  it('does not send reasoning_content unless told to', () => {
    const messages: ChatMessage[] = [{ role: 'assistant', content: 'x', reasoning: 'y' }];
    expect(JSON.parse(send({ baseUrl: 'http://h/v1' }, request({ messages })).body).messages).toEqual([{ role: 'assistant', content: 'x' }]);
  });

  it('refuses to build a request without any base URL', () => {
    expect(() => send({}, request())).toThrow(expect.objectContaining({ code: 'internal' }));
  });

  it('is an openai-compatible adapter', () => {
    expect(createOpenAICompatibleAdapter().id).toBe('openai-compatible');
    expect(deepseekAdapter.id).toBe('openai-compatible');
  });
});
