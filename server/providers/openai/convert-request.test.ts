import { describe, expect, it } from 'vitest';
import type { ChatRequest, ConvertContext, ResolvedModel } from '../types';
import { convertOpenAIRequest } from './convert-request';

const chatModel: ResolvedModel = {
  id: 'openai/gpt-4o-mini',
  provider: 'openai',
  upstreamModel: 'gpt-4o-mini',
  contextLength: 128_000,
  maxOutputTokens: 16_384,
  supportsReasoning: false,
  supportsImages: true,
};
const reasoningModel: ResolvedModel = { ...chatModel, id: 'openai/gpt-5-mini', upstreamModel: 'gpt-5-mini', contextLength: 400_000, maxOutputTokens: 128_000, supportsReasoning: true };
const ctx = (model: ResolvedModel): ConvertContext => ({ model, config: { baseUrl: 'https://api.openai.com/v1/', apiKey: 'sk-test-123' } });

function body(req: Partial<ChatRequest>, model = chatModel): Record<string, unknown> {
  const full: ChatRequest = { model: model.id, messages: [{ role: 'user', content: 'Hi' }], stream: false, ...req };
  return JSON.parse(convertOpenAIRequest(full, ctx(model)).body);
}

describe('convertOpenAIRequest', () => {
  it('posts to /chat/completions with a bearer token and the upstream model name', () => {
    const req = convertOpenAIRequest({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: false }, ctx(chatModel));
    expect(req.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(req.method).toBe('POST');
    expect(req.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-test-123' });
    expect(JSON.parse(req.body)).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('passes the portable parameters through unchanged for a chat model', () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }];
    expect(
      body({
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 256,
        stop: ['\n\n'],
        seed: 7,
        tools,
        tool_choice: 'auto',
        parallel_tool_calls: false,
        response_format: { type: 'json_object' },
        user: 'user-42',
      }),
    ).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 256,
      stop: ['\n\n'],
      seed: 7,
      tools,
      tool_choice: 'auto',
      parallel_tool_calls: false,
      response_format: { type: 'json_object' },
      user: 'user-42',
    });
  });

  it('always asks for the usage chunk when streaming, and never sends stream_options otherwise', () => {
    expect(body({ stream: true, stream_options: { include_usage: false } })).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(body({ stream: false, stream_options: { include_usage: true } })).not.toHaveProperty('stream_options');
  });

  it('strips our reasoning fields from assistant messages and keeps everything else', () => {
    const messages: ChatRequest['messages'] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } }] },
      {
        role: 'assistant',
        content: null,
        reasoning: 'The user wants weather.',
        reasoning_details: [{ type: 'reasoning.text', text: 'The user wants weather.', signature: 'sig' }],
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
    ];
    expect(body({ messages }).messages).toEqual([
      messages[0],
      messages[1],
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] },
      messages[3],
    ]);
  });

  it('never forwards our reasoning object or reasoning_effort to a chat model', () => {
    const sent = body({ reasoning: { effort: 'high' }, reasoning_effort: 'low' });
    expect(sent).not.toHaveProperty('reasoning');
    expect(sent).not.toHaveProperty('reasoning_effort');
  });

  describe('for a reasoning model', () => {
    it('sends max_completion_tokens instead of max_tokens', () => {
      const sent = body({ max_tokens: 1000 }, reasoningModel);
      expect(sent.max_completion_tokens).toBe(1000);
      expect(sent).not.toHaveProperty('max_tokens');
      expect(body({ max_tokens: 1000, max_completion_tokens: 2000 }, reasoningModel).max_completion_tokens).toBe(2000);
    });

    it('drops temperature and top_p, which these models reject', () => {
      const sent = body({ temperature: 0.7, top_p: 0.5, seed: 1 }, reasoningModel);
      expect(sent).not.toHaveProperty('temperature');
      expect(sent).not.toHaveProperty('top_p');
      expect(sent.seed).toBe(1);
    });

    it('maps reasoning.effort or reasoning_effort to reasoning_effort, minimal included', () => {
      expect(body({ reasoning: { effort: 'minimal' } }, reasoningModel).reasoning_effort).toBe('minimal');
      expect(body({ reasoning_effort: 'low' }, reasoningModel).reasoning_effort).toBe('low');
      expect(body({ reasoning: { effort: 'high' }, reasoning_effort: 'low' }, reasoningModel).reasoning_effort).toBe('high');
    });

    it("reasoning off is the model's lowest effort: minimal on GPT-5, none on GPT-5.1, low on o-series", () => {
      expect(body({ reasoning: { enabled: false, effort: 'high' } }, reasoningModel).reasoning_effort).toBe('minimal');
      expect(body({ reasoning: { max_tokens: 0 } }, reasoningModel).reasoning_effort).toBe('minimal');
      expect(body({ reasoning: { enabled: false } }, { ...reasoningModel, upstreamModel: 'gpt-5.1' }).reasoning_effort).toBe('none');
      expect(body({ reasoning: { enabled: false } }, { ...reasoningModel, upstreamModel: 'o4-mini' }).reasoning_effort).toBe('low');
      expect(body({ reasoning: { effort: 'minimal' } }, { ...reasoningModel, upstreamModel: 'o3' }).reasoning_effort).toBe('low');
      // A name it cannot read (a proxy's, an Azure deployment's): nothing it might refuse.
      expect(body({ reasoning: { enabled: false } }, { ...reasoningModel, upstreamModel: 'my-deployment' })).not.toHaveProperty('reasoning_effort');
    });

    it("a reasoning budget is the effort nearest its share of the output limit (OpenRouter's ratios)", () => {
      const effort = (budget: number, max_tokens?: number) => body({ reasoning: { max_tokens: budget }, ...(max_tokens ? { max_tokens } : {}) }, reasoningModel).reasoning_effort;
      expect(effort(1024, 16_000)).toBe('minimal');
      expect(effort(4000, 16_000)).toBe('low');
      expect(effort(8000, 16_000)).toBe('medium');
      expect(effort(14_000, 16_000)).toBe('high');
      expect(effort(64_000)).toBe('medium'); // of the model's 128K output
      expect(body({ reasoning: { max_tokens: 2048 } }, reasoningModel)).not.toHaveProperty('reasoning');
    });

    it('no effort given: the model default', () => {
      expect(body({}, reasoningModel)).not.toHaveProperty('reasoning_effort');
      expect(body({ reasoning: { enabled: true } }, reasoningModel)).not.toHaveProperty('reasoning_effort');
    });
  });

  it('refuses a file given by URL with a 400 naming the model: Chat Completions takes file content or a file_id only', () => {
    const file = (file_data: string) => ({ model: 'openai/gpt-5-mini', stream: false, messages: [{ role: 'user' as const, content: [{ type: 'file' as const, file: { file_data } }] }] });
    expect(() => convertOpenAIRequest(file('https://example.com/report.pdf'), ctx(reasoningModel))).toThrow(/by URL \(https:\/\/example\.com\/report\.pdf\) cannot be sent to openai\/gpt-5-mini/);
    expect(JSON.parse(convertOpenAIRequest(file('data:application/pdf;base64,JVBERi0='), ctx(reasoningModel)).body).messages[0].content[0]).toEqual({ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } });
  });

  it('leaves the authorization header out when no key is configured', () => {
    const req = convertOpenAIRequest({ model: 'x', messages: [], stream: false }, { model: chatModel, config: { baseUrl: 'http://127.0.0.1:9/v1' } });
    expect(req.headers).toEqual({ 'content-type': 'application/json' });
    expect(req.url).toBe('http://127.0.0.1:9/v1/chat/completions');
  });
});
