// Requests for the Claude models with adaptive thinking (Claude 5.x in the default catalog), checked against
// the request bodies of Anthropic's "Adaptive thinking", "Effort", "Preserved thinking" and Claude 5.5 /
// Fable 5.1 migration pages.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest, ResolvedModel } from '@/server/providers/types';
import { convertRequest } from './convert-request';

const claude = (upstreamModel: string): ResolvedModel => ({
  id: `anthropic/${upstreamModel}`,
  provider: 'anthropic',
  upstreamModel,
  contextLength: 1_000_000,
  maxOutputTokens: 128_000,
  supportsReasoning: true,
  supportsImages: true,
});
const opus = claude('claude-opus-5-5');
const sonnet = claude('claude-sonnet-5-5');
const haiku = claude('claude-haiku-5-5');
const fable = claude('claude-fable-5-1');
const config = { baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant-test' };

function send(req: Partial<ChatRequest>, model: ResolvedModel) {
  const request: ChatRequest = { model: model.id, stream: false, messages: [{ role: 'user', content: 'Hi' }], ...req };
  const upstream = convertRequest(request, { model, config });
  return { headers: upstream.headers, body: JSON.parse(upstream.body) as Record<string, unknown> };
}
const body = (req: Partial<ChatRequest>, model: ResolvedModel) => send(req, model).body;

const weatherTool = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const toolCall = { id: 'toolu_1', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
const signedToolTurn: ChatMessage[] = [
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: null, tool_calls: [toolCall], reasoning_details: [{ type: 'reasoning.text', text: '', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 }] },
  { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
];

describe('convertRequest: adaptive thinking (Claude 5.x)', () => {
  it('sends adaptive thinking with summarized display and room for thinking, leaving the effort to the model', () => {
    expect(body({ temperature: 0.2, top_p: 0.9 }, opus)).toEqual({
      model: 'claude-opus-5-5',
      max_tokens: 32_000,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: false,
      thinking: { type: 'adaptive', display: 'summarized' },
    });
    // No budget_tokens anywhere: the 5.x models answer 400 to manual extended thinking.
    for (const model of [sonnet, haiku, fable]) expect(body({ reasoning: { max_tokens: 4000 } }, model).thinking).toEqual({ type: 'adaptive', display: 'summarized' });
  });

  it('maps effort to output_config.effort, minimal to low, and reasoning.max_tokens to the effort of that budget', () => {
    const effort = (req: Partial<ChatRequest>, model = sonnet) => (body(req, model).output_config as { effort: string } | undefined)?.effort;
    expect(effort({ reasoning_effort: 'medium' })).toBe('medium');
    expect(effort({ reasoning: { effort: 'high' }, reasoning_effort: 'low' })).toBe('high');
    expect(effort({ reasoning: { effort: 'minimal' } })).toBe('low');
    expect(effort({ reasoning: { max_tokens: 3000 } })).toBe('low');
    expect(effort({ reasoning: { max_tokens: 8192 } })).toBe('medium');
    expect(effort({ reasoning: { max_tokens: 50_000 } })).toBe('high');
    expect(effort({ reasoning: { effort: 'high', max_tokens: 0 } })).toBe('high');
    expect(effort({})).toBeUndefined();
  });

  it('passes a client cap through as max_tokens, capped by the model', () => {
    expect(body({ max_tokens: 4096 }, haiku).max_tokens).toBe(4096);
    expect(body({ max_completion_tokens: 500_000 }, haiku).max_tokens).toBe(128_000);
  });

  it('turns thinking off the way each model allows', () => {
    // Haiku 5.5 takes "disabled"; Sonnet 5.5 answers 400 to it and takes "between_tools" instead.
    expect(body({ reasoning: { enabled: false } }, haiku)).toMatchObject({ thinking: { type: 'disabled' } });
    expect(body({ reasoning: { max_tokens: 0 } }, sonnet)).toMatchObject({ thinking: { type: 'between_tools' } });
    expect(body({ reasoning: { enabled: false } }, sonnet).output_config).toBeUndefined();
    // Opus 5.5 and Fable 5.1 cannot stop thinking: the least they do is adaptive at low effort.
    for (const model of [opus, fable]) {
      expect(body({ reasoning: { enabled: false, effort: 'high' } }, model)).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
    }
  });

  it('never sends temperature or top_p, which these models answer 400 to', () => {
    for (const model of [opus, sonnet, haiku, fable]) {
      const sent = body({ temperature: 0.3, top_p: 0.5, reasoning: { enabled: false } }, model);
      expect(sent.temperature, model.id).toBeUndefined();
      expect(sent.top_p, model.id).toBeUndefined();
    }
  });

  it('asks for no thinking text when the client excludes reasoning', () => {
    expect(body({ reasoning: { exclude: true } }, opus).thinking).toEqual({ type: 'adaptive' });
  });

  it('replaces a forced tool choice by auto on Opus 5.5, Sonnet 5.5 and Fable 5.1, and keeps it on Haiku 5.5', () => {
    for (const model of [opus, sonnet, fable]) {
      expect(body({ tools: [weatherTool], tool_choice: 'required' }, model).tool_choice, model.id).toEqual({ type: 'auto' });
      expect(body({ tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } }, parallel_tool_calls: false }, model).tool_choice).toEqual({
        type: 'auto',
        disable_parallel_tool_use: true,
      });
    }
    // Adaptive thinking accepts a forced tool on Haiku 5.5 (it skips thinking for that turn).
    expect(body({ tools: [weatherTool], tool_choice: 'required' }, haiku)).toMatchObject({ tool_choice: { type: 'any' }, thinking: { type: 'adaptive' } });
    expect(body({ tools: [weatherTool], tool_choice: 'none' }, opus).tool_choice).toEqual({ type: 'none' });
  });

  it('replays signed thinking with block_binding drop_block and its beta header, so an edited history loses blocks, not the request', () => {
    const { headers, body: sent } = send({ tools: [weatherTool], messages: signedToolTurn }, fable);
    expect(headers['anthropic-beta']).toBe('thinking-binding-controls-2026-08-01');
    expect(sent.thinking).toEqual({ type: 'adaptive', display: 'summarized', block_binding: { prefix_mismatch_behavior: 'drop_block' } });
    expect((sent.messages as { content: { type: string }[] }[])[1].content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    // Nothing replayed, nothing to bind.
    expect(send({}, fable).headers['anthropic-beta']).toBeUndefined();
  });

  it('keeps thinking on a tool turn that lost its signed thinking (adaptive thinking may have skipped it)', () => {
    const unsigned = signedToolTurn.map((m) => (m.role === 'assistant' ? { ...m, reasoning_details: undefined } : m));
    expect(body({ tools: [weatherTool], messages: unsigned }, sonnet).thinking).toEqual({ type: 'adaptive', display: 'summarized' });
  });

  it('removes replayed thinking when it turns thinking off on Haiku 5.5', () => {
    const sent = body({ tools: [weatherTool], messages: signedToolTurn, reasoning: { enabled: false } }, haiku);
    expect(sent.thinking).toEqual({ type: 'disabled' });
    expect(sent.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' }] },
    ]);
  });
});

describe('convertRequest: replaying omitted thinking', () => {
  it('sends a signed thinking block with empty text back as it came (Anthropic wants every block, empty ones included)', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [toolCall], reasoning_details: [{ type: 'reasoning.text', text: '', signature: 'EqQB-omitted', format: 'anthropic-claude-v1', index: 0 }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
    ];
    const assistant = (body({ tools: [weatherTool], messages }, opus).messages as { content: unknown[] }[])[1];
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: '', signature: 'EqQB-omitted' });
  });
});

describe('convertRequest: Opus 4.6 and Sonnet 4.6 (adaptive; budget_tokens deprecated there)', () => {
  const opus46 = claude('claude-opus-4-6');
  const sonnet46 = claude('claude-sonnet-4-6');

  it('sends adaptive thinking with the effort, not a budget, and drops sampling while thinking', () => {
    expect(body({ reasoning_effort: 'high', temperature: 0.4 }, opus46)).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' }, max_tokens: 32_000 });
    expect(body({ reasoning_effort: 'high', temperature: 0.4 }, opus46).temperature).toBeUndefined();
    // Thinking text is shown by default on 4.6: no display field.
    expect(body({ reasoning: { max_tokens: 20_000 } }, sonnet46)).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
  });

  it('leaves thinking out when it is off or a tool is forced, and then keeps the client sampling and tool choice', () => {
    const off = body({ reasoning: { enabled: false }, temperature: 0.4 }, sonnet46);
    expect(off.thinking).toBeUndefined();
    expect(off.temperature).toBe(0.4);
    const forced = body({ tools: [weatherTool], tool_choice: 'required' }, opus46);
    expect(forced.thinking).toBeUndefined();
    expect(forced.tool_choice).toEqual({ type: 'any' });
  });
});
