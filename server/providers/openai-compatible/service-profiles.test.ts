import { describe, expect, it } from 'vitest';
import type { ChatRequest, ResolvedModel } from '../types';
import { toMistralToolCallId, remapMistralToolCallIds } from './mistral-tool-ids';
import { readReasoningDetails } from './openrouter-dialect';
import { adjustGroqBody, adjustMistralBody, adjustXaiBody, mistralAdapter } from './service-profiles';

const model = (upstreamModel: string, supportsReasoning = true): ResolvedModel => ({ id: 'x/y', provider: 'p', upstreamModel, contextLength: 1000, maxOutputTokens: 100, supportsReasoning, supportsImages: false });
const req = (extra: Partial<ChatRequest> = {}) => ({ model: 'x/y', messages: [{ role: 'user', content: 'hi' }], ...extra }) as ChatRequest;

describe('Mistral tool-call ids', () => {
  it('keeps conforming ids and maps others to 9 alphanumerics, deterministically and distinctly', () => {
    expect(toMistralToolCallId('D681PevKs')).toBe('D681PevKs');
    const a = toMistralToolCallId('call_PTLP8xhu3uwZk4l3nlnrrJha');
    expect(a).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(toMistralToolCallId('call_PTLP8xhu3uwZk4l3nlnrrJha')).toBe(a);
    expect(toMistralToolCallId('toolu_01A09q90qw90lq917835lq9')).not.toBe(a);
    expect(toMistralToolCallId('abc')).toMatch(/^[A-Za-z0-9]{9}$/);
  });

  it('rewrites assistant tool_calls and tool messages alike', () => {
    const out = remapMistralToolCallIds([
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_01', type: 'function', function: { name: 'f', arguments: '{}' } }, { id: 'D681PevKs', type: 'function', function: { name: 'g', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'toolu_01', content: 'x' },
      { role: 'tool', tool_call_id: 'D681PevKs', content: 'y' },
    ]) as { tool_calls?: { id: string }[]; tool_call_id?: string }[];
    expect(out[0]!.tool_calls!.map((c) => c.id)).toEqual([toMistralToolCallId('toolu_01'), 'D681PevKs']);
    expect(out[1]!.tool_call_id).toBe(toMistralToolCallId('toolu_01'));
    expect(out[2]!.tool_call_id).toBe('D681PevKs');
  });

  it('the Mistral adapter sends no stream_options and renames seed', () => {
    const up = mistralAdapter.convertRequest(req({ stream: true, seed: 3 }), { model: model('mistral-large-2512', false), config: { baseUrl: 'https://api.mistral.ai/v1', apiKey: 'k' } });
    const body = JSON.parse(up.body);
    expect(up.url).toBe('https://api.mistral.ai/v1/chat/completions');
    expect(body.stream_options).toBeUndefined();
    expect(body).toMatchObject({ stream: true, random_seed: 3 });
    const direct: Record<string, unknown> = { messages: [], user: 'u' };
    adjustMistralBody(direct);
    expect(direct.user).toBeUndefined();
  });
});

describe('xAI and Groq reasoning', () => {
  it('xAI: reasoning_effort only for grok-3-mini (low | high); Grok 4 refuses the parameter', () => {
    const mini: Record<string, unknown> = {};
    adjustXaiBody(mini, req({ reasoning_effort: 'medium' }), model('grok-3-mini'));
    expect(mini.reasoning_effort).toBe('high');
    const grok4: Record<string, unknown> = {};
    adjustXaiBody(grok4, req({ reasoning_effort: 'medium' }), model('grok-4-1-fast-reasoning'));
    expect(grok4.reasoning_effort).toBeUndefined();
  });

  it('Groq: gpt-oss efforts (minimal → low), include_reasoning off on exclude; qwen3 none/default', () => {
    const oss: Record<string, unknown> = {};
    adjustGroqBody(oss, req({ reasoning: { effort: 'minimal', exclude: true } }), model('openai/gpt-oss-120b'));
    expect(oss).toEqual({ reasoning_effort: 'low', include_reasoning: false });
    const qwenOff: Record<string, unknown> = {};
    adjustGroqBody(qwenOff, req({ reasoning: { enabled: false } }), model('qwen/qwen3-32b'));
    expect(qwenOff.reasoning_effort).toBe('none');
    const chat: Record<string, unknown> = {};
    adjustGroqBody(chat, req({ reasoning_effort: 'high' }), model('llama-3.3-70b-versatile', false));
    expect(chat).toEqual({});
  });
});

describe('OpenRouter reasoning_details', () => {
  it('reads the known kinds and leaves out an unknown one', () => {
    expect(
      readReasoningDetails({
        reasoning_details: [
          { type: 'reasoning.text', text: 'a', signature: null, index: 0 },
          { type: 'reasoning.encrypted', data: 'xyz', format: 'anthropic-claude-v1' },
          { type: 'reasoning.future', blob: 1 },
        ],
      }),
    ).toEqual([{ type: 'reasoning.text', text: 'a', signature: null, index: 0 }, { type: 'reasoning.encrypted', data: 'xyz', format: 'anthropic-claude-v1' }]);
    expect(readReasoningDetails({ content: 'x' })).toBeUndefined();
  });
});
