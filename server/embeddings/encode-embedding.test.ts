import { describe, expect, it } from 'vitest';
import { base64ToFloats, floatsToBase64, renderEmbedding } from './encode-embedding';

describe('base64 embeddings (little-endian float32, as OpenAI returns and its SDKs decode)', () => {
  it('encodes the bytes a Float32Array holds, little-endian', () => {
    // 0.5 = 0x3F000000 → bytes 00 00 00 3F; -2 = 0xC0000000 → 00 00 00 C0.
    expect(Buffer.from(floatsToBase64([0.5, -2]), 'base64')).toEqual(Buffer.from([0, 0, 0, 0x3f, 0, 0, 0, 0xc0]));
    const values = [0.125, -0.75, 3.5];
    expect(floatsToBase64(values)).toBe(Buffer.from(new Float32Array(values).buffer).toString('base64'));
  });

  it('round trips float32 values, and renders whichever form the client asked for', () => {
    expect(base64ToFloats(floatsToBase64([1, -0.5, 0.25]))).toEqual([1, -0.5, 0.25]);
    expect(renderEmbedding([0.5], 'base64')).toBe('AAAAPw==');
    expect(renderEmbedding('AAAAPw==', 'float')).toEqual([0.5]);
    expect(renderEmbedding('AAAAPw==', 'base64')).toBe('AAAAPw==');
    expect(renderEmbedding([0.1], 'float')).toEqual([0.1]);
  });
});
