// URLs and bodies of Vertex AI requests, against the documented forms (cloud.google.com/vertex-ai/docs
// "Use Claude models": POST https://{LOCATION}-aiplatform.googleapis.com/v1/projects/{PROJECT}/locations/
// {LOCATION}/publishers/anthropic/models/{MODEL}:streamRawPredict with {"anthropic_version":
// "vertex-2023-10-16", "messages": …, "max_tokens": …, "stream": true}; "Generate content with the Gemini
// API": …/publishers/google/models/{MODEL}:generateContent).
import { describe, expect, it } from 'vitest';
import { convertRequest as convertAnthropicRequest } from '../anthropic/convert-request';
import { convertGeminiRequest } from '../gemini/convert-request';
import type { ChatRequest, ConvertContext, ResolvedModel } from '../types';
import { convertVertexRequest } from './convert-request';
import { vertexApi, vertexBaseUrl, vertexModelUrl } from './vertex-url';

function context(upstreamModel: string, baseUrl = vertexBaseUrl('us-east5')): ConvertContext {
  const model: ResolvedModel = { id: 'acme/m', provider: 'vertex', upstreamModel, contextLength: 200_000, maxOutputTokens: 8_192, supportsReasoning: true, supportsImages: true };
  return { model, config: { baseUrl } };
}
const at = { project: 'acme-prod', location: 'us-east5' };
const req = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'acme/m', stream: false, messages: [{ role: 'user', content: 'Hello' }], ...extra });

describe('vertex URLs', () => {
  it('global has no location prefix in the host; a region has', () => {
    expect(vertexBaseUrl('global')).toBe('https://aiplatform.googleapis.com');
    expect(vertexBaseUrl('europe-west1')).toBe('https://europe-west1-aiplatform.googleapis.com');
  });
  it('builds the publisher model path, keeping the @ of a Claude version and tolerating /v1 in the base', () => {
    const url = vertexModelUrl({ baseUrl: 'https://us-east5-aiplatform.googleapis.com/v1/', ...at, publisher: 'anthropic', model: 'claude-sonnet-4-5@20250929', action: 'rawPredict' });
    expect(url).toBe('https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict');
  });
  it('picks the API from the model name: publisher/model is Chat Completions, a bare name of another family is refused', () => {
    expect(vertexApi('claude-opus-4-1@20250805')).toBe('claude');
    expect(vertexApi('gemini-2.5-pro')).toBe('gemini');
    expect(vertexApi('meta/llama-4-maverick-17b-128e-instruct-maas')).toBe('chat-completions');
    expect(() => vertexApi('llama-4-maverick-17b')).toThrow(/publisher\/model/);
  });
});

describe('convertVertexRequest: Gemini', () => {
  it('posts the Gemini body unchanged to generateContent, without an API key header', () => {
    const ctx = context('gemini-2.5-flash');
    const out = convertVertexRequest(req({ temperature: 0.5 }), ctx, at);
    expect(out.url).toBe('https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(out.headers).toEqual({ 'content-type': 'application/json' });
    expect(JSON.parse(out.body)).toEqual(JSON.parse(convertGeminiRequest(req({ temperature: 0.5 }), ctx).body));
  });
  it('streams with streamGenerateContent?alt=sse', () => {
    expect(convertVertexRequest(req({ stream: true }), context('gemini-2.5-flash'), at).url).toMatch(/models\/gemini-2\.5-flash:streamGenerateContent\?alt=sse$/);
  });
});

describe('convertVertexRequest: Claude', () => {
  const tools: ChatRequest['tools'] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
  it('sends the Messages body without model and with anthropic_version, to rawPredict, with no anthropic-version header', () => {
    const ctx = context('claude-sonnet-4-5@20250929');
    const out = convertVertexRequest(req({ tools, max_tokens: 300 }), ctx, at);
    expect(out.url).toBe('https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict');
    expect(out.headers).toEqual({ 'content-type': 'application/json' });
    const body = JSON.parse(out.body);
    const { model, ...direct } = JSON.parse(convertAnthropicRequest(req({ tools, max_tokens: 300 }), ctx).body);
    expect(model).toBe('claude-sonnet-4-5@20250929');
    expect(body).toEqual({ anthropic_version: 'vertex-2023-10-16', ...direct });
    expect(body).not.toHaveProperty('model');
  });
  it('streams with streamRawPredict and stream: true in the body', () => {
    const out = convertVertexRequest(req({ stream: true }), context('claude-haiku-4-5@20251001'), at);
    expect(out.url).toMatch(/models\/claude-haiku-4-5@20251001:streamRawPredict$/);
    expect(JSON.parse(out.body).stream).toBe(true);
  });
  it('carries images as Anthropic image blocks and tool results as tool_result blocks', () => {
    const body = JSON.parse(
      convertVertexRequest(
        req({
          tools,
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'Weather where this is?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
            { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
            { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
          ],
        }),
        context('claude-sonnet-4-5@20250929'),
        at,
      ).body,
    );
    expect(body.messages[0].content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } });
    expect(body.messages[1].content[0]).toMatchObject({ type: 'tool_use', id: 'toolu_1', input: { city: 'Paris' } });
    expect(body.messages[2].content[0]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' });
  });
});
