// Gemini 3 and later (the default catalog's Gemini 4 Carbon/Argon/Hydrogen, 3.8 Flash and 3.5 Flash-Lite):
// thinkingConfig.thinkingLevel instead of thinkingBudget, and signed function calls, as in Google's
// "Thinking" and "Thought signatures" pages.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest, ResolvedModel } from '../types';
import { convertGeminiRequest } from './convert-request';

const gemini = (upstreamModel: string): ResolvedModel => ({
  id: `google/${upstreamModel}`,
  provider: 'gemini',
  upstreamModel,
  contextLength: 1_048_576,
  maxOutputTokens: 65_536,
  supportsReasoning: true,
  supportsImages: true,
});

function send(req: Partial<ChatRequest>, upstreamModel: string) {
  const request: ChatRequest = { model: 'x', stream: false, messages: [{ role: 'user', content: 'Hello' }], ...req };
  const upstream = convertGeminiRequest(request, { model: gemini(upstreamModel), config: { baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'k' } });
  return JSON.parse(upstream.body) as { contents: { role: string; parts: Record<string, unknown>[] }[]; generationConfig?: { thinkingConfig?: unknown } };
}
const thinkingConfig = (req: Partial<ChatRequest>, upstreamModel: string) => send(req, upstreamModel).generationConfig?.thinkingConfig;

describe('convertGeminiRequest: thinking levels (Gemini 3 and later)', () => {
  it.each([
    ['nothing asked: the model’s default level', {}, 'gemini-4-argon', { includeThoughts: true }],
    ['effort high', { reasoning: { effort: 'high' } }, 'gemini-4-carbon', { includeThoughts: true, thinkingLevel: 'high' }],
    ['reasoning_effort medium', { reasoning_effort: 'medium' }, 'gemini-4-hydrogen', { includeThoughts: true, thinkingLevel: 'medium' }],
    ['minimal on 3.8 Flash, which answers 400 to it', { reasoning: { effort: 'minimal' } }, 'gemini-3.8-flash', { includeThoughts: true, thinkingLevel: 'low' }],
    ['minimal on 3.5 Flash-Lite, which has it', { reasoning: { effort: 'minimal' } }, 'gemini-3.5-flash-lite', { includeThoughts: true, thinkingLevel: 'minimal' }],
    ['medium on Gemini 3 Pro (low/high only)', { reasoning: { effort: 'medium' } }, 'gemini-3-pro-preview', { includeThoughts: true, thinkingLevel: 'high' }],
    ['max_tokens → the level of that budget', { reasoning: { max_tokens: 4000 } }, 'gemini-4-argon', { includeThoughts: true, thinkingLevel: 'medium' }],
    ['a small max_tokens', { reasoning: { max_tokens: 600 } }, 'gemini-3.8-flash', { includeThoughts: true, thinkingLevel: 'low' }],
    ['effort wins over max_tokens', { reasoning: { max_tokens: 600, effort: 'high' } }, 'gemini-3.8-flash', { includeThoughts: true, thinkingLevel: 'high' }],
    ['excluded', { reasoning: { effort: 'low', exclude: true } }, 'gemini-4-carbon', { includeThoughts: false, thinkingLevel: 'low' }],
    ['disabled: the lowest level, no thoughts', { reasoning: { enabled: false } }, 'gemini-4-argon', { includeThoughts: false, thinkingLevel: 'low' }],
    ['disabled on Flash-Lite', { reasoning: { max_tokens: 0 } }, 'gemini-3.5-flash-lite', { includeThoughts: false, thinkingLevel: 'minimal' }],
  ] as [string, Partial<ChatRequest>, string, unknown][])('%s', (_name, req, upstreamModel, expected) => {
    const config = thinkingConfig(req, upstreamModel);
    expect(config).toEqual(expected);
    expect(config).not.toHaveProperty('thinkingBudget'); // never both: Gemini answers 400 to that
  });

  it('still sends thinkingBudget, not thinkingLevel, to Gemini 2.5', () => {
    expect(thinkingConfig({ reasoning: { effort: 'low' } }, 'gemini-2.5-pro')).toEqual({ includeThoughts: true, thinkingBudget: 1024 });
  });
});

describe('convertGeminiRequest: function calls without their thought signature', () => {
  const call = (id: string, city: string) => ({ id, type: 'function' as const, function: { name: 'get_weather', arguments: JSON.stringify({ city }) } });
  const messages: ChatMessage[] = [
    { role: 'user', content: 'Weather in Paris and Tokyo?' },
    { role: 'assistant', content: null, tool_calls: [call('c1', 'Paris'), call('c2', 'Tokyo')] },
    { role: 'tool', tool_call_id: 'c1', content: '18°C' },
    { role: 'tool', tool_call_id: 'c2', content: '22°C' },
  ];

  it('signs the first call of the turn with Google’s skip value on Gemini 3+, leaving the parallel one as Gemini sends it', () => {
    const model = send({ messages }, 'gemini-3.8-flash').contents[1];
    expect(model.parts).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'skip_thought_signature_validator' },
      { functionCall: { name: 'get_weather', args: { city: 'Tokyo' } } },
    ]);
  });

  it('keeps a real signature, and adds none for Gemini 2.5, which does not check', () => {
    const signed: ChatMessage[] = messages.map((m) =>
      m.role === 'assistant' ? { ...m, reasoning_details: [{ type: 'reasoning.encrypted', data: 'sig-real', id: 'c1', format: 'google-gemini-v1' }] } : m,
    );
    expect(send({ messages: signed }, 'gemini-4-argon').contents[1].parts[0]).toMatchObject({ thoughtSignature: 'sig-real' });
    expect(send({ messages }, 'gemini-2.5-flash').contents[1].parts[0]).not.toHaveProperty('thoughtSignature');
  });
});
