// Gemini's batchEmbedContents, from ai.google.dev/api/embeddings: POST v1beta/{model=models/*}:batchEmbedContents
// with `requests: [{model, content: {parts: [{text}]}, outputDimensionality?}]`; answer `{embeddings: [{values}]}`.
import { describe, expect, it } from 'vitest';
import { parseEmbeddingsRequest } from '@/server/embeddings/embeddings-request-schema';
import type { ConvertContext } from '../types';
import { convertGeminiEmbeddingsRequest, convertGeminiEmbeddingsResponse, GEMINI_MAX_BATCH } from './convert-embeddings';

const ctx: ConvertContext = {
  model: { id: 'google/gemini-embedding-001', provider: 'gemini', upstreamModel: 'gemini-embedding-001', contextLength: 2048, maxOutputTokens: 1, supportsReasoning: false, supportsImages: false },
  config: { baseUrl: 'https://generativelanguage.googleapis.com/v1beta', apiKey: 'g-key' },
};

describe('Gemini embeddings', () => {
  it('one EmbedContentRequest per input naming the model, outputDimensionality for dimensions, the key in a header', () => {
    const r = convertGeminiEmbeddingsRequest(parseEmbeddingsRequest({ model: 'google/gemini-embedding-001', input: ['What is the meaning of life?', 'How does the brain work?'], dimensions: 768 }), ctx);
    expect(r.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(r.headers).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': 'g-key' });
    expect(JSON.parse(r.body)).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'What is the meaning of life?' }] }, outputDimensionality: 768 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'How does the brain work?' }] }, outputDimensionality: 768 },
      ],
    });
  });

  it('refuses token arrays and more inputs than one batch takes (400)', () => {
    expect(() => convertGeminiEmbeddingsRequest(parseEmbeddingsRequest({ model: 'm/x', input: [[1, 2]] }), ctx)).toThrow(expect.objectContaining({ code: 'bad_request' }));
    const many = Array.from({ length: GEMINI_MAX_BATCH + 1 }, (_, i) => `t${i}`);
    expect(() => convertGeminiEmbeddingsRequest(parseEmbeddingsRequest({ model: 'm/x', input: many }), ctx)).toThrow(/at most 100 inputs/);
  });

  it('reads the values in order; no token count; another shape is a 502', () => {
    expect(convertGeminiEmbeddingsResponse({ embeddings: [{ values: [0.1, -0.2] }, { values: [0.3, 0.4] }] })).toEqual({ embeddings: [[0.1, -0.2], [0.3, 0.4]], promptTokens: null });
    expect(() => convertGeminiEmbeddingsResponse({ embedding: { values: [1] } })).toThrow(expect.objectContaining({ code: 'upstream_error' }));
  });
});
