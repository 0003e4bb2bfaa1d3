import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertCompatibleError } from './convert-error';

function classify(scenario: string) {
  const dir = path.join(__dirname, '__fixtures__');
  const { status, headers } = JSON.parse(readFileSync(path.join(dir, `${scenario}.error.headers.json`), 'utf8'));
  return convertCompatibleError(status, readFileSync(path.join(dir, `${scenario}.error.json`), 'utf8'), headers);
}

describe('convertCompatibleError on recorded DeepSeek answers', () => {
  it('recognizes a too-long prompt from the message of a plain 400', () => {
    expect(classify('context_length_exceeded')).toEqual({
      kind: 'context_length_exceeded',
      message:
        "This model's maximum context length is 131072 tokens. However, you requested 140551 tokens (132359 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.",
      upstreamRequestId: '0f3c5e7a9b1d4f6a8c2e4b6d8f0a2c4e',
    });
  });

  it('401 is auth without the key hint', () => {
    expect(classify('unauthorized')).toEqual({ kind: 'auth', message: 'The upstream provider rejected the gateway credentials', upstreamRequestId: '6b8d0f2a4c6e4a8b9d1f3a5c7e9b1d3f' });
  });

  it('429 is rate_limited (DeepSeek gives no Retry-After)', () => {
    expect(classify('rate_limited')).toEqual({
      kind: 'rate_limited',
      message: 'The upstream provider is rate limiting requests; retry later',
      upstreamRequestId: 'a1c3e5b7d9f14b3d8e0a2c4e6b8d0f2a',
    });
  });

  it('402 Insufficient Balance is our server error', () => {
    expect(classify('insufficient_balance')).toEqual({
      kind: 'server_error',
      message: 'The upstream provider account has run out of credit',
      upstreamRequestId: 'c5e7a9b1d3f54a7c9e1b3d5f7a9c1e3b',
    });
  });
});

describe('convertCompatibleError for other servers', () => {
  it("recognizes llama.cpp's exceed_context_size_error and vLLM's message", () => {
    const llama = JSON.stringify({ error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } });
    expect(convertCompatibleError(400, llama, {}).kind).toBe('context_length_exceeded');
    // Older vLLM does not wrap its error object in {"error": …}.
    const vllm = JSON.stringify({
      object: 'error',
      message: "This model's maximum context length is 32768 tokens. However, you requested 33012 tokens in the messages, Please reduce the length of the messages.",
      type: 'BadRequestError',
      param: null,
      code: 400,
    });
    expect(convertCompatibleError(400, vllm, {}).kind).toBe('context_length_exceeded');
    expect(convertCompatibleError(400, JSON.stringify({ object: 'error', message: 'Invalid tool_choice', type: 'BadRequestError', code: 400 }), {})).toEqual({ kind: 'bad_request', message: 'Invalid tool_choice' });
  });

  it("reads Ollama's string error", () => {
    expect(convertCompatibleError(404, JSON.stringify({ error: "model 'llama3.3' not found" }), {})).toEqual({ kind: 'not_found', message: "model 'llama3.3' not found" });
  });

  it('keeps the plain OpenAI classes: 503 overloaded, 422 bad_request', () => {
    expect(convertCompatibleError(503, '{"error":{"message":"Server overloaded"}}', {}).kind).toBe('overloaded');
    expect(convertCompatibleError(422, '{"error":{"message":"Invalid temperature"}}', {})).toEqual({ kind: 'bad_request', message: 'Invalid temperature' });
  });
});
