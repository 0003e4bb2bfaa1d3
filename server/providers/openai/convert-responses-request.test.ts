// GPT-6.x requests go to POST /responses (developers.openai.com "Migrate to the Responses API"): messages as
// input items, flat function tools, reasoning {effort, summary}, stateless with encrypted reasoning.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest, ResolvedModel } from '../types';
import { openaiAdapter } from './index';

const gpt = (upstreamModel: string): ResolvedModel => ({
  id: `openai/${upstreamModel}`,
  provider: 'openai',
  upstreamModel,
  contextLength: 1_050_000,
  maxOutputTokens: 128_000,
  supportsReasoning: true,
  supportsImages: true,
});
const astra = gpt('gpt-6.2-astra');
const luna = gpt('gpt-6-luna');

function send(req: Partial<ChatRequest>, model = astra) {
  const request: ChatRequest = { model: model.id, messages: [{ role: 'user', content: 'Hi' }], stream: false, ...req };
  const upstream = openaiAdapter.convertRequest(request, { model, config: { baseUrl: 'https://api.openai.com/v1/', apiKey: 'sk-test' } });
  return { ...upstream, json: JSON.parse(upstream.body) as Record<string, unknown> };
}
const body = (req: Partial<ChatRequest>, model = astra) => send(req, model).json;

const weatherTool = { type: 'function' as const, function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

describe('openaiAdapter.convertRequest for GPT-6.x (Responses API)', () => {
  it('posts to /responses, stateless, asking for encrypted reasoning and summaries, without sampling or stop', () => {
    const upstream = send({ temperature: 0.2, top_p: 0.9, stop: ['\n'], seed: 4, max_tokens: 900, stream: true, user: 'u-1', prompt_cache_key: 'conv-7' });
    expect(upstream.url).toBe('https://api.openai.com/v1/responses');
    expect(upstream.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-test' });
    expect(upstream.json).toEqual({
      model: 'gpt-6.2-astra',
      input: [{ role: 'user', content: 'Hi' }],
      store: false,
      max_output_tokens: 900,
      reasoning: { summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      user: 'u-1',
      prompt_cache_key: 'conv-7',
      stream: true,
    });
  });

  it('sends tools with reasoning — the combination Chat Completions refuses for these models', () => {
    expect(body({ tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } }, parallel_tool_calls: false, reasoning: { effort: 'high' } })).toMatchObject({
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather now', parameters: weatherTool.function.parameters, strict: false }],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      reasoning: { effort: 'high', summary: 'auto' },
    });
    expect(body({ tools: [{ ...weatherTool, function: { ...weatherTool.function, strict: true } }], tool_choice: 'required' })).toMatchObject({ tools: [{ strict: true }], tool_choice: 'required' });
  });

  it('keeps efforts within what each model takes: no none or minimal on 6.2 Astra, none on Luna', () => {
    const effort = (req: Partial<ChatRequest>, model = astra) => (body(req, model).reasoning as { effort?: string } | undefined)?.effort;
    expect(effort({ reasoning: { effort: 'minimal' } })).toBe('low');
    expect(effort({ reasoning: { enabled: false } })).toBe('low');
    expect(effort({ reasoning_effort: 'medium' })).toBe('medium');
    expect(effort({ reasoning: { effort: 'minimal' } }, luna)).toBe('low');
    expect(effort({ reasoning: { max_tokens: 0 } }, luna)).toBe('none');
    expect(body({ reasoning: { enabled: false } }, luna).reasoning).toEqual({ effort: 'none' }); // no summary of no reasoning
    expect(body({ reasoning: { effort: 'low', exclude: true } }).reasoning).toEqual({ effort: 'low' });
  });

  it('a reasoning budget (Anthropic thinking, reasoning.max_tokens) is an effort, never dropped', () => {
    const effort = (req: Partial<ChatRequest>, model = astra) => (body(req, model).reasoning as { effort?: string } | undefined)?.effort;
    const sol = gpt('gpt-6.2-sol');
    expect(effort({ reasoning: { max_tokens: 1024 }, max_tokens: 4096 }, sol)).toBe('low');
    expect(effort({ reasoning: { max_tokens: 1024 }, max_tokens: 16_000 }, sol)).toBe('low'); // minimal, which 6.2 lacks
    expect(effort({ reasoning: { max_tokens: 8000 }, max_tokens: 16_000 }, sol)).toBe('medium');
    expect(effort({ reasoning: { max_tokens: 30_000 }, max_tokens: 32_000 }, luna)).toBe('high');
  });

  it('a file by URL goes as input_file.file_url (file_data takes content only)', () => {
    const input = body({ messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'https://example.com/a.pdf', filename: 'a.pdf' } }, { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } }] }] }).input as { content: unknown[] }[];
    expect(input[0].content).toEqual([
      { type: 'input_file', filename: 'a.pdf', file_url: 'https://example.com/a.pdf' },
      { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=' },
    ]);
  });

  it('maps response_format to text.format', () => {
    expect(body({ response_format: { type: 'json_object' } }).text).toEqual({ format: { type: 'json_object' } });
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false };
    expect(body({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } } }).text).toEqual({ format: { type: 'json_schema', name: 'answer', schema, strict: true } });
    expect(body({ response_format: { type: 'text' } })).not.toHaveProperty('text');
  });

  it('turns a tool loop into input items, replaying our encrypted reasoning ahead of the call it led to', () => {
    const call = { id: 'call_1', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
    const messages: ChatMessage[] = [
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image_url', image_url: { url: 'https://x.test/p.png', detail: 'low' } }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [call],
        reasoning_details: [
          { type: 'reasoning.summary', summary: 'Check the weather.', format: 'openai-responses-v1', id: 'rs_1', index: 0 },
          { type: 'reasoning.encrypted', data: 'gAAA-enc', format: 'openai-responses-v1', id: 'rs_1', index: 1 },
          { type: 'reasoning.text', text: 'Claude thinking', signature: 'sig', format: 'anthropic-claude-v1', index: 2 },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: '18°C' }] },
      { role: 'assistant', content: 'It is 18°C.' },
      { role: 'user', content: 'Thanks' },
    ];
    expect(body({ messages }).input).toEqual([
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'input_text', text: 'Weather here?' }, { type: 'input_image', image_url: 'https://x.test/p.png', detail: 'low' }] },
      { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAA-enc', summary: [] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
      { role: 'assistant', content: 'It is 18°C.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('still sends gpt-5-mini and gpt-4o-mini to /chat/completions', () => {
    expect(send({}, gpt('gpt-5-mini')).url).toBe('https://api.openai.com/v1/chat/completions');
    expect(send({}, { ...gpt('gpt-4o-mini'), supportsReasoning: false }).json).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
  });
});
