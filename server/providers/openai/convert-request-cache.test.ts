// Prompt caching on OpenAI's Chat Completions: `prompt_cache_key` as OpenAI documents it (a string on the
// request, "Prompt caching" guide), and Anthropic's cache_control kept out of OpenAI's strict part schema.
import { describe, expect, it } from 'vitest';
import { chatFormat } from '@/server/gateway/chat-format';
import type { ChatRequest, ResolvedModel } from '../types';
import { convertCompatibleRequest } from '../openai-compatible/convert-request';
import { convertOpenAIRequest } from './convert-request';
import { convertResponsesRequest } from './convert-responses-request';

const model: ResolvedModel = { id: 'openai/gpt-6-luna', provider: 'openai', upstreamModel: 'gpt-6-luna', contextLength: 400_000, maxOutputTokens: 128_000, supportsReasoning: true, supportsImages: true };
const ctx = { model, config: { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-test' } };
const headers = (values: Record<string, string>) => (name: string) => values[name];
const parse = (json: Record<string, unknown>, values: Record<string, string> = {}) =>
  chatFormat.parse({ model: model.id, stream: false, messages: [{ role: 'user', content: 'Hi' }], ...json }, headers(values)) as ChatRequest;

describe('prompt_cache_key', () => {
  it("passes the client's key to Chat Completions and to the Responses API", () => {
    const req = parse({ prompt_cache_key: 'repo-42' }, { 'x-task-id': 'task-7' });
    expect(JSON.parse(convertOpenAIRequest(req, ctx).body).prompt_cache_key).toBe('repo-42');
    expect(JSON.parse(convertResponsesRequest(req, ctx).body).prompt_cache_key).toBe('repo-42');
  });

  it('defaults to the X-Task-ID header when the client sent none', () => {
    const req = parse({}, { 'x-task-id': ' task-7 ' });
    expect(req.prompt_cache_key).toBe('task-7');
    expect(JSON.parse(convertOpenAIRequest(req, ctx).body).prompt_cache_key).toBe('task-7');
    expect(JSON.parse(convertResponsesRequest(req, ctx).body).prompt_cache_key).toBe('task-7');
  });

  it('is left out without either', () => {
    expect(JSON.parse(convertOpenAIRequest(parse({}), ctx).body)).not.toHaveProperty('prompt_cache_key');
    expect(parse({}, { 'x-task-id': 'x'.repeat(1025) }).prompt_cache_key).toBeUndefined();
  });
});

describe('cache_control on the way to OpenAI-shaped servers', () => {
  const json = {
    cache_control: { type: 'ephemeral' },
    tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } }, cache_control: { type: 'ephemeral', ttl: '1h' } }],
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'Rules', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] },
    ],
  };

  it('is removed from parts, tools and the request (OpenAI answers 400 to fields it does not know)', () => {
    const sent = JSON.parse(convertOpenAIRequest(parse(json), ctx).body);
    expect(JSON.stringify(sent)).not.toContain('cache_control');
    expect(sent.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Rules' }] },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
    expect(sent.tools).toEqual([{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }]);
  });

  it('is removed for compatible servers too', () => {
    const compatible = { ...ctx, model: { ...model, provider: 'groq', id: 'groq/llama' } };
    expect(convertCompatibleRequest(parse(json), compatible).body).not.toContain('cache_control');
  });
});
