import { describe, expect, it } from 'vitest';
import { inputCount, MAX_EMBEDDING_INPUTS, parseEmbeddingsRequest } from './embeddings-request-schema';
import { likelyEmbeddingTokens, worstCaseEmbeddingTokens } from './estimate-embedding-tokens';

describe('the embeddings request', () => {
  it('normalizes the four input shapes of OpenAI’s API; encoding_format defaults to float', () => {
    expect(parseEmbeddingsRequest({ model: 'a/b', input: 'x' })).toEqual({ model: 'a/b', input: { kind: 'text', texts: ['x'] }, encoding_format: 'float' });
    expect(parseEmbeddingsRequest({ model: 'a/b', input: ['x', 'y'] }).input).toEqual({ kind: 'text', texts: ['x', 'y'] });
    expect(parseEmbeddingsRequest({ model: 'a/b', input: [1, 2] }).input).toEqual({ kind: 'tokens', tokens: [[1, 2]] });
    const tokens = parseEmbeddingsRequest({ model: 'a/b', input: [[1], [2, 3]] });
    expect(tokens.input).toEqual({ kind: 'tokens', tokens: [[1], [2, 3]] });
    expect(inputCount(tokens)).toBe(2);
  });

  it('400 for empty input, too many inputs, mixed shapes, a bad encoding_format or dimensions', () => {
    for (const input of ['', [], [''], [[]], ['a', '']]) {
      expect(() => parseEmbeddingsRequest({ model: 'a/b', input }), JSON.stringify(input)).toThrow(/may not be empty/);
    }
    expect(() => parseEmbeddingsRequest({ model: 'a/b', input: Array(MAX_EMBEDDING_INPUTS + 1).fill('x') })).toThrow(/at most 2048/);
    for (const body of [{ input: ['a', 1] }, { input: 'a', encoding_format: 'int8' }, { input: 'a', dimensions: 0 }, { input: 'a', dimensions: 1.5 }, {}]) {
      expect(() => parseEmbeddingsRequest({ model: 'a/b', ...body }), JSON.stringify(body)).toThrow(expect.objectContaining({ code: 'bad_request' }));
    }
  });

  it('tokens: token arrays counted exactly; text at 3 bytes a token for the reservation, 4 when estimating usage', () => {
    expect(worstCaseEmbeddingTokens(parseEmbeddingsRequest({ model: 'a/b', input: [[1, 2, 3], [4]] }))).toBe(4);
    const text = parseEmbeddingsRequest({ model: 'a/b', input: ['x'.repeat(12), 'y'.repeat(10)] });
    expect(worstCaseEmbeddingTokens(text)).toBe(4 + 4);
    expect(likelyEmbeddingTokens(text)).toBe(3 + 3);
  });
});
