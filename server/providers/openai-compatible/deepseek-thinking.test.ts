// DeepSeek's current models (deepseek-flash, served for deepseek/deepseek-v4.1-flash and its aliases
// deepseek-chat / deepseek-reasoner, and deepseek-v4-pro): request bodies as DeepSeek's "Thinking Mode" page shows them.
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ResolvedModel } from '../types';
import { deepseekThinkingControl } from './deepseek-thinking';
import { deepseekAdapter } from './index';

const flash: ResolvedModel = {
  id: 'deepseek/deepseek-v4.1-flash',
  provider: 'deepseek',
  upstreamModel: 'deepseek-flash',
  contextLength: 1_000_000,
  maxOutputTokens: 384_000,
  supportsReasoning: true,
  supportsImages: true,
};
const pro: ResolvedModel = { ...flash, id: 'deepseek/deepseek-v4-pro', upstreamModel: 'deepseek-v4-pro', supportsImages: false };

function body(req: Partial<ChatRequest>, model = flash): Record<string, unknown> {
  const request: ChatRequest = { model: model.id, messages: [{ role: 'user', content: 'Hi' }], stream: false, ...req };
  return JSON.parse(deepseekAdapter.convertRequest(request, { model, config: { baseUrl: '', apiKey: 'sk-ds' } }).body);
}

describe('deepseekThinkingControl', () => {
  it('applies to every current model and not to the retired fixed-mode names', () => {
    expect(deepseekThinkingControl('deepseek-flash')).toBe(true);
    expect(deepseekThinkingControl('deepseek-v4-pro')).toBe(true);
    expect(deepseekThinkingControl('deepseek-chat')).toBe(false);
    expect(deepseekThinkingControl('deepseek-reasoner')).toBe(false);
  });
});

describe('deepseekAdapter.convertRequest: thinking mode', () => {
  it('leaves thinking on, at DeepSeek’s default effort, when the client asks nothing (the alias deepseek-chat included)', () => {
    expect(body({ temperature: 0.4 })).toEqual({ model: 'deepseek-flash', messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('turns thinking off with thinking.type disabled for reasoning.enabled false or a zero budget, and then keeps sampling', () => {
    expect(body({ reasoning: { enabled: false, effort: 'high' }, temperature: 0.4, top_p: 0.9 })).toEqual({
      model: 'deepseek-flash',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.4,
      top_p: 0.9,
      thinking: { type: 'disabled' },
    });
    expect(body({ reasoning: { max_tokens: 0 } }, pro)).toMatchObject({ model: 'deepseek-v4-pro', thinking: { type: 'disabled' } });
  });

  it('sends an effort as the DeepSeek level it means (low or high)', () => {
    const effort = (req: Partial<ChatRequest>) => body(req).reasoning_effort;
    expect(effort({ reasoning_effort: 'minimal' })).toBe('low');
    expect(effort({ reasoning: { effort: 'low' } })).toBe('low');
    expect(effort({ reasoning: { effort: 'medium' } })).toBe('high');
    expect(effort({ reasoning: { effort: 'high', max_tokens: 0 } })).toBe('high');
    expect(effort({ reasoning: { max_tokens: 2000 } })).toBeUndefined(); // DeepSeek has no thinking budget
    expect(body({ reasoning_effort: 'high' })).not.toHaveProperty('thinking');
  });

  it('still passes reasoning back as reasoning_content on tool turns', () => {
    const call = { id: 'call_0', type: 'function' as const, function: { name: 'f', arguments: '{}' } };
    const sent = body({ messages: [{ role: 'user', content: 'Go' }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_0', content: 'ok' }] });
    expect((sent.messages as Record<string, unknown>[])[1]).toEqual({ role: 'assistant', content: null, reasoning_content: '', tool_calls: [call] });
  });
});
