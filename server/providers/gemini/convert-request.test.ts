import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest, ConvertContext, ResolvedModel } from '../types';
import type { GeminiContent } from './convert-messages';
import { convertGeminiRequest } from './convert-request';

/** The request body as Gemini reads it; only what the assertions index into is typed. */
interface GeminiBody {
  contents: GeminiContent[];
  [field: string]: unknown;
}

function context(model: Partial<ResolvedModel> = {}, baseUrl = 'https://generativelanguage.googleapis.com'): ConvertContext {
  return {
    model: {
      id: 'google/gemini-2.5-flash',
      provider: 'gemini',
      upstreamModel: 'gemini-2.5-flash',
      contextLength: 1_048_576,
      maxOutputTokens: 65_536,
      supportsReasoning: true,
      supportsImages: true,
      ...model,
    },
    config: { baseUrl, apiKey: 'AIza-test-key' },
  };
}

const hello: ChatMessage[] = [{ role: 'user', content: 'Hello' }];

function convert(req: Partial<ChatRequest>, model: Partial<ResolvedModel> = {}) {
  const upstream = convertGeminiRequest({ model: 'google/gemini-2.5-flash', stream: false, messages: hello, ...req }, context(model));
  return { ...upstream, json: JSON.parse(upstream.body) as GeminiBody };
}

describe('convertGeminiRequest: endpoint', () => {
  it('posts generateContent with the key in a header, never in the URL', () => {
    const req = convert({});
    expect(req.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
    expect(req.method).toBe('POST');
    expect(req.headers).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': 'AIza-test-key' });
    expect(req.url).not.toContain('key=');
  });

  it('streams with streamGenerateContent?alt=sse and tolerates a base URL ending in /v1beta/', () => {
    const req = convertGeminiRequest({ model: 'x', stream: true, messages: hello }, context({}, 'https://proxy.example/v1beta/'));
    expect(req.url).toBe('https://proxy.example/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });
});

describe('convertGeminiRequest: messages', () => {
  it('gathers system and developer messages into systemInstruction and merges consecutive turns', () => {
    const { json } = convert({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: [{ type: 'text', text: 'How are you?' }] },
        { role: 'assistant', content: 'Bien.' },
        { role: 'assistant', content: 'Et vous ?' },
      ],
    }, { supportsReasoning: false });
    expect(json).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }, { text: 'How are you?' }] },
        { role: 'model', parts: [{ text: 'Bien.' }, { text: 'Et vous ?' }] },
      ],
    });
  });

  it('answers tool calls by function name looked up from the earlier call, parallel results in one content', () => {
    const { json } = convert({
      messages: [
        { role: 'user', content: 'Weather in Paris, and the time there?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        // Answered out of order: matching is by id, not by position.
        { role: 'tool', tool_call_id: 'call_b', content: '14:05' },
        { role: 'tool', tool_call_id: 'call_a', content: [{ type: 'text', text: '{"temp_c":18,"sky":"clear"}' }] },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(json.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris, and the time there?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_time', response: { content: '14:05' } } },
          { functionResponse: { name: 'get_weather', response: { temp_c: 18, sky: 'clear' } } },
          { text: 'Thanks' },
        ],
      },
    ]);
  });

  it('wraps tool results that are JSON but not an object', () => {
    const { json } = convert({
      messages: [
        { role: 'user', content: 'List' },
        { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'list', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '[1,2]' },
      ],
    });
    expect(json.contents[2].parts).toEqual([{ functionResponse: { name: 'list', response: { content: '[1,2]' } } }]);
  });

  it.each([
    ['a tool message whose call is unknown', [{ role: 'tool', tool_call_id: 'call_x', content: 'r' }], /call_x/],
    ['arguments that are not JSON', [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{oops' } }] }], /not valid JSON/],
    ['arguments that are not an object', [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }] }], /not a JSON object/],
    ['an image in a system message', [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] }], /only text/],
    ['an ftp image URL', [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x.test/a.png' } }] }], /http\(s\)/],
    ['a data URL that is not base64', [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png,abc' } }] }], /base64/],
    ['no conversation besides the system prompt', [{ role: 'system', content: 'Be brief.' }], /at least one/],
  ] as [string, ChatMessage[], RegExp][])('rejects %s with bad_request', (_name, messages, message) => {
    const history: ChatMessage[] = messages[0].role === 'system' ? messages : [{ role: 'user', content: 'Hi' }, ...messages];
    expect(() => convert({ messages: history })).toThrow(expect.objectContaining({ code: 'bad_request', message: expect.stringMatching(message) }));
  });

  it('sends base64 images inline and http(s) images as fileData with a guessed MIME type', () => {
    const { json } = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare' },
            { type: 'image_url', image_url: { url: 'data:image/webp;base64,UklGRg==' } },
            { type: 'image_url', image_url: { url: 'https://cdn.example.com/cat.PNG?size=large', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://cdn.example.com/render' } },
          ],
        },
      ],
    });
    expect(json.contents[0].parts).toEqual([
      { text: 'Compare' },
      { inlineData: { mimeType: 'image/webp', data: 'UklGRg==' } },
      { fileData: { mimeType: 'image/png', fileUri: 'https://cdn.example.com/cat.PNG?size=large' } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://cdn.example.com/render' } },
    ]);
  });
});

describe('convertGeminiRequest: thought signatures sent back', () => {
  it('re-attaches each signature where Gemini put it and ignores other providers’ details', () => {
    const { json } = convert({
      messages: [
        { role: 'user', content: 'Plan a trip' },
        {
          role: 'assistant',
          content: 'Checking both cities.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
          reasoning_details: [
            // Two streamed fragments of one thought (same index) are sent back as one thought part.
            { type: 'reasoning.text', text: 'I should look up ', format: 'google-gemini-v1', index: 0 },
            { type: 'reasoning.text', text: 'both cities.', signature: 'sig-thought', format: 'google-gemini-v1', index: 0 },
            { type: 'reasoning.encrypted', data: 'sig-call-1', format: 'google-gemini-v1', id: 'call_1', index: 1 },
            { type: 'reasoning.encrypted', data: 'sig-text', format: 'google-gemini-v1', index: 2 },
            { type: 'reasoning.text', text: 'Claude thinking', signature: 'anthropic-sig', format: 'anthropic-claude-v1', index: 3 },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: 'rain' },
      ],
    });
    expect(json.contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'I should look up both cities.', thought: true, thoughtSignature: 'sig-thought' },
        { text: 'Checking both cities.', thoughtSignature: 'sig-text' },
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig-call-1' },
        { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
      ],
    });
  });
});

describe('convertGeminiRequest: generation config', () => {
  it('maps sampling, limits, stops, seed and json_schema (as responseJsonSchema)', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    const { json } = convert(
      {
        temperature: 1.7,
        top_p: 0.9,
        max_tokens: 100,
        max_completion_tokens: 200,
        stop: 'END',
        seed: 42,
        user: 'u-1',
        parallel_tool_calls: false,
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
      },
      { supportsReasoning: false },
    );
    expect(json.generationConfig).toEqual({
      temperature: 1.7,
      topP: 0.9,
      maxOutputTokens: 200,
      stopSequences: ['END'],
      seed: 42,
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    expect(json).not.toHaveProperty('user');
  });

  it('asks for JSON without a schema for json_object and leaves text alone', () => {
    expect(convert({ response_format: { type: 'json_object' }, stop: ['a', 'b'] }, { supportsReasoning: false }).json.generationConfig).toEqual({
      responseMimeType: 'application/json',
      stopSequences: ['a', 'b'],
    });
    expect(convert({ response_format: { type: 'text' } }, { supportsReasoning: false }).json).not.toHaveProperty('generationConfig');
  });

  it.each([
    ['nothing asked (dynamic)', {}, {}, { includeThoughts: true, thinkingBudget: -1 }],
    ['effort low', { reasoning: { effort: 'low' } }, {}, { includeThoughts: true, thinkingBudget: 1024 }],
    ['reasoning_effort high', { reasoning_effort: 'high' }, {}, { includeThoughts: true, thinkingBudget: 24576 }],
    ['effort medium, excluded', { reasoning: { effort: 'medium', exclude: true } }, {}, { includeThoughts: false, thinkingBudget: 8192 }],
    ['max_tokens above Flash’s ceiling', { reasoning: { max_tokens: 50_000 } }, {}, { includeThoughts: true, thinkingBudget: 24576 }],
    ['max_tokens on Pro', { reasoning: { max_tokens: 50_000 } }, { upstreamModel: 'gemini-2.5-pro' }, { includeThoughts: true, thinkingBudget: 32768 }],
    ['max_tokens below Flash-Lite’s floor', { reasoning: { max_tokens: 100 } }, { upstreamModel: 'gemini-2.5-flash-lite' }, { includeThoughts: true, thinkingBudget: 512 }],
    ['minimal effort on Pro', { reasoning: { effort: 'minimal' } }, { upstreamModel: 'gemini-2.5-pro' }, { includeThoughts: true, thinkingBudget: 512 }],
    ['disabled on Flash', { reasoning: { enabled: false } }, {}, { includeThoughts: false, thinkingBudget: 0 }],
    ['disabled on Pro, which cannot stop thinking', { reasoning: { enabled: false } }, { upstreamModel: 'gemini-2.5-pro' }, { includeThoughts: false, thinkingBudget: 128 }],
    ['max_tokens 0 on Flash-Lite', { reasoning: { max_tokens: 0 } }, { upstreamModel: 'gemini-2.5-flash-lite' }, { includeThoughts: false, thinkingBudget: 0 }],
  ] as [string, Partial<ChatRequest>, Partial<ResolvedModel>, unknown][])('thinkingConfig for %s', (_name, req, model, expected) => {
    expect(convert(req, model).json.generationConfig).toEqual({ thinkingConfig: expected });
  });

  it('sends no thinkingConfig to a model without thinking, whatever the client asks', () => {
    expect(convert({ reasoning: { effort: 'high' } }, { supportsReasoning: false }).json).not.toHaveProperty('generationConfig');
  });
});

describe('convertGeminiRequest: tools', () => {
  const tools: ChatRequest['tools'] = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather',
        strict: true,
        parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      },
    },
    { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
  ];

  it('declares functions with Gemini-safe parameters and omits empty ones', () => {
    expect(convert({ tools }, { supportsReasoning: false }).json.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
          { name: 'get_time' },
        ],
      },
    ]);
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [{ type: 'function', function: { name: 'get_time' } }, { mode: 'ANY', allowedFunctionNames: ['get_time'] }],
  ] as [ChatRequest['tool_choice'], unknown][])('maps tool_choice %j', (choice, expected) => {
    expect(convert({ tools, tool_choice: choice }).json.toolConfig).toEqual({ functionCallingConfig: expected });
  });

  it('rejects a named tool_choice that is not a declared tool, and ignores tool_choice without tools', () => {
    expect(() => convert({ tools, tool_choice: { type: 'function', function: { name: 'nope' } } })).toThrow(expect.objectContaining({ code: 'bad_request' }));
    expect(convert({ tool_choice: 'required' }).json).not.toHaveProperty('toolConfig');
  });
});
