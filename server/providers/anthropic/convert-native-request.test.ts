import { describe, expect, it } from 'vitest';
import type { ChatRequest, ConvertContext } from '@/server/providers/types';
import { anthropicAdapter } from './index';

const ctx: ConvertContext = {
  model: { id: 'anthropic/claude-sonnet-4.5', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5', contextLength: 200_000, maxOutputTokens: 64_000, supportsReasoning: true, supportsImages: true },
  config: { baseUrl: 'https://api.anthropic.com/v1', apiKey: 'sk-ant-x' },
};

describe('anthropic adapter: a Messages API client body passes through', () => {
  it('changes only model, stream and an over-large max_tokens; forwards anthropic-beta and anthropic-version', () => {
    const body = { model: 'claude-sonnet-4-5-20250929', max_tokens: 100_000, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }], future_field: { a: 1 } };
    const req = { model: body.model, messages: [{ role: 'user', content: 'hi' }], stream: true, native: { format: 'anthropic-messages', body, beta: 'b1,b2', version: '2023-06-01' } } as ChatRequest;
    const out = anthropicAdapter.convertRequest(req, ctx);
    expect(out.url).toBe('https://api.anthropic.com/v1/messages');
    expect(out.headers).toMatchObject({ 'anthropic-beta': 'b1,b2', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-x' });
    expect(out.body).toBe(JSON.stringify({ ...body, model: 'claude-sonnet-4-5', max_tokens: 64_000, stream: true }));
  });

  it('without native, the chat converter runs as before', () => {
    const out = anthropicAdapter.convertRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: false } as ChatRequest, ctx);
    expect(JSON.parse(out.body)).toMatchObject({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    expect(out.headers['anthropic-beta']).toBeUndefined();
  });
});
