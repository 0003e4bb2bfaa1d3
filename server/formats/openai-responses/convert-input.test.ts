import { describe, expect, it } from 'vitest';
import { RESPONSES_REASONING_FORMAT } from '@/server/providers/openai/convert-responses-input';
import { convertNativeResponsesRequest } from '@/server/providers/openai/convert-native-request';
import type { ChatRequest, ConvertContext } from '@/server/providers/types';
import { convertInput } from './convert-input';
import { unwrapReasoning, wrapReasoning } from './reasoning-envelope';

describe('convertInput', () => {
  it('instructions lead; reasoning, text and calls of one turn form one assistant message; outputs become tool messages', () => {
    const messages = convertInput('Be brief.', [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Think' }], encrypted_content: 'gAAA' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: '18' },
      { type: 'web_search_call', id: 'ws_1' } as any,
    ]);
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: 'Checking.',
        reasoning_details: [
          { type: 'reasoning.summary', summary: 'Think', format: RESPONSES_REASONING_FORMAT, id: 'rs_1' },
          { type: 'reasoning.encrypted', data: 'gAAA', format: RESPONSES_REASONING_FORMAT, id: 'rs_1' },
        ],
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18' },
    ]);
  });

  it("another provider's reasoning comes back from our envelope as it was, fragments joined", () => {
    const wrapped = wrapReasoning([
      { type: 'reasoning.text', text: 'I should ', format: 'anthropic-claude-v1', index: 0 },
      { type: 'reasoning.text', text: 'call it.', signature: 'sig', format: 'anthropic-claude-v1', index: 0 },
    ]);
    expect(unwrapReasoning(wrapped)).toEqual([{ type: 'reasoning.text', text: 'I should call it.', signature: 'sig', format: 'anthropic-claude-v1', index: 0 }]);
    const [, assistant] = convertInput(undefined, [{ type: 'message', role: 'user', content: 'x' }, { type: 'reasoning', summary: [], encrypted_content: wrapped }, { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }]);
    expect((assistant as any).reasoning_details[0].signature).toBe('sig');
    expect(unwrapReasoning('sbr1.not-json')).toBeUndefined();
  });
});

describe('convertNativeResponsesRequest', () => {
  const ctx = (supportsReasoning: boolean): ConvertContext => ({
    model: { id: 'openai/m', provider: 'openai', upstreamModel: 'gpt-m', contextLength: 1000, maxOutputTokens: 500, supportsReasoning, supportsImages: true },
    config: { baseUrl: 'https://api.openai.com/v1/', apiKey: 'sk' },
  });
  const req = { stream: true } as ChatRequest;
  it('keeps the body, forces store false, adds the encrypted reasoning, caps max_output_tokens, drops unknown fields and foreign reasoning', () => {
    const body = { model: 'openai/m', input: [{ type: 'reasoning', encrypted_content: 'sbr1.x', summary: [] }, { type: 'reasoning', encrypted_content: 'gAAA', summary: [] }], store: true, max_output_tokens: 9000, client_metadata: { a: 'b' }, include: ['file_search_call.results'], tools: [{ type: 'custom', name: 'apply_patch' }] };
    const up = convertNativeResponsesRequest(req, body, ctx(true));
    expect(up.url).toBe('https://api.openai.com/v1/responses');
    expect(JSON.parse(up.body)).toEqual({
      model: 'gpt-m',
      input: [{ type: 'reasoning', encrypted_content: 'gAAA', summary: [] }],
      store: false,
      stream: true,
      max_output_tokens: 500,
      include: ['file_search_call.results', 'reasoning.encrypted_content'],
      tools: [{ type: 'custom', name: 'apply_patch' }],
    });
    expect(JSON.parse(convertNativeResponsesRequest({ stream: false } as ChatRequest, { input: 'x' }, ctx(false)).body)).toEqual({ model: 'gpt-m', input: 'x', store: false });
  });
});
