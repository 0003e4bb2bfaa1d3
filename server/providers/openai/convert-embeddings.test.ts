// OpenAI's embeddings wire format, from platform.openai.com/docs/api-reference/embeddings/create (request:
// model, input, encoding_format, dimensions, user; response: list of {object, index, embedding}, usage).
import { describe, expect, it } from 'vitest';
import { parseEmbeddingsRequest } from '@/server/embeddings/embeddings-request-schema';
import { compatibleEmbeddings } from '../openai-compatible/convert-embeddings';
import type { ConvertContext } from '../types';
import { convertOpenAIEmbeddingsResponse, openaiEmbeddings } from './convert-embeddings';

const ctx = (baseUrl = 'https://api.openai.com/v1/'): ConvertContext => ({
  model: { id: 'openai/text-embedding-3-small', provider: 'openai', upstreamModel: 'text-embedding-3-small', contextLength: 8191, maxOutputTokens: 1, supportsReasoning: false, supportsImages: false },
  config: { baseUrl, apiKey: 'sk-test' },
});

describe('OpenAI embeddings request', () => {
  it('POSTs {base}/embeddings with the upstream model, every input as an array, dimensions, user and base64 passed through', () => {
    const r = openaiEmbeddings.convertRequest(parseEmbeddingsRequest({ model: 'openai/text-embedding-3-small', input: 'hello', dimensions: 256, encoding_format: 'base64', user: 'u1', provider: { only: ['openai'] } }), ctx());
    expect(r.url).toBe('https://api.openai.com/v1/embeddings');
    expect(r.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-test' });
    expect(JSON.parse(r.body)).toEqual({ model: 'text-embedding-3-small', input: ['hello'], encoding_format: 'base64', dimensions: 256, user: 'u1' });
  });

  it('token arrays pass as they are; an OpenAI-compatible server is always asked for floats', () => {
    const req = parseEmbeddingsRequest({ model: 'x/y', input: [1, 2, 3], encoding_format: 'base64' });
    expect(JSON.parse(openaiEmbeddings.convertRequest(req, ctx()).body)).toMatchObject({ input: [[1, 2, 3]], encoding_format: 'base64' });
    const compatible = compatibleEmbeddings.convertRequest(req, ctx('http://127.0.0.1:11434/v1'));
    expect(compatible.url).toBe('http://127.0.0.1:11434/v1/embeddings');
    expect(JSON.parse(compatible.body)).toEqual({ model: 'text-embedding-3-small', input: [[1, 2, 3]], encoding_format: 'float' });
  });
});

describe('OpenAI embeddings response', () => {
  it('reads vectors in index order (floats or base64 strings) and prompt_tokens', () => {
    const body = {
      object: 'list',
      data: [
        { object: 'embedding', index: 1, embedding: 'AAAAPw==' },
        { object: 'embedding', index: 0, embedding: [0.0023064255, -0.009327292] },
      ],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 8, total_tokens: 8 },
    };
    expect(convertOpenAIEmbeddingsResponse(body)).toEqual({ embeddings: [[0.0023064255, -0.009327292], 'AAAAPw=='], promptTokens: 8 });
  });

  it('no usage (some compatible servers): promptTokens null; another shape: a 502 upstream_error', () => {
    expect(convertOpenAIEmbeddingsResponse({ data: [{ embedding: [1] }] })).toEqual({ embeddings: [[1]], promptTokens: null });
    expect(() => convertOpenAIEmbeddingsResponse({ embeddings: [] })).toThrow(expect.objectContaining({ code: 'upstream_error' }));
  });
});
