import { describe, expect, it } from 'vitest';
import type { ResolvedModel } from '@/server/providers/types';
import { anthropicAdapter } from './index';

const model: ResolvedModel = { id: 'anthropic/claude-haiku-4.5', provider: 'anthropic', upstreamModel: 'claude-haiku-4-5', contextLength: 200_000, maxOutputTokens: 64_000, supportsReasoning: true, supportsImages: true };
const ctx = { model, config: { baseUrl: 'https://api.anthropic.com', apiKey: 'k' } };

describe('anthropicAdapter', () => {
  it('wires the converters under the id "anthropic"', () => {
    expect(anthropicAdapter.id).toBe('anthropic');
    expect(anthropicAdapter.local).toBeUndefined();
    expect(anthropicAdapter.convertRequest({ model: model.id, stream: false, messages: [{ role: 'user', content: 'Hi' }] }, ctx).url).toBe('https://api.anthropic.com/v1/messages');
    expect(anthropicAdapter.convertResponse({ content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }, ctx).message.content).toBe('Hi');
    const stream = anthropicAdapter.createStreamConverter(ctx);
    stream.push({ event: 'message_stop', data: '{"type":"message_stop"}' });
    expect(stream.done).toBe(true);
    expect(anthropicAdapter.createStreamConverter(ctx).done).toBe(false); // fresh state per stream
    expect(anthropicAdapter.convertError(529, '', {}).kind).toBe('overloaded');
  });
});
