import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { convertOpenAIError, parseRetryAfter } from './convert-error';

function recorded(scenario: string): { status: number; body: string; headers: Record<string, string> } {
  const dir = path.join(__dirname, '__fixtures__');
  const { status, headers } = JSON.parse(readFileSync(path.join(dir, `${scenario}.error.headers.json`), 'utf8'));
  return { status, headers, body: readFileSync(path.join(dir, `${scenario}.error.json`), 'utf8') };
}

const classify = (scenario: string) => {
  const { status, body, headers } = recorded(scenario);
  return convertOpenAIError(status, body, headers);
};

describe('convertOpenAIError on recorded answers', () => {
  it('400 context_length_exceeded passes the upstream explanation on', () => {
    expect(classify('context_length_exceeded')).toEqual({
      kind: 'context_length_exceeded',
      message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 131274 tokens. Please reduce the length of the messages.",
      upstreamRequestId: 'req_5c0d2f9b7e1a4c3d8f6b2a9e0d1c7f42',
    });
  });

  it('401 is auth, and the message does not echo the key hint', () => {
    const failure = classify('unauthorized');
    expect(failure).toEqual({ kind: 'auth', message: 'The upstream provider rejected the gateway credentials', upstreamRequestId: 'req_9a4e1b7c2d6f4a80b3e5c1d9f7a2b6e3' });
    expect(failure.message).not.toContain('J3kQ');
  });

  it('429 is rate_limited with Retry-After, and the message does not name our organization', () => {
    const failure = classify('rate_limited');
    expect(failure).toEqual({
      kind: 'rate_limited',
      message: 'The upstream provider is rate limiting requests; retry later',
      retryAfter: 3,
      upstreamRequestId: 'req_e71b3c9d5a2f4e6b8c0d1a7f3e9b5c24',
    });
    expect(failure.message).not.toContain('org-');
  });

  it('429 without headers falls back to the "try again in" hint of the message', () => {
    expect(convertOpenAIError(429, recorded('rate_limited').body, {}).retryAfter).toBe(3);
  });
});

describe('convertOpenAIError by status', () => {
  const body = (code: string | null, message = 'upstream says no') => JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } });

  it.each([
    [403, 'auth'],
    [404, 'not_found'],
    [400, 'bad_request'],
    [422, 'bad_request'],
    [500, 'server_error'],
    [502, 'server_error'],
    [503, 'overloaded'],
    [529, 'overloaded'],
  ] as const)('%i → %s', (status, kind) => {
    expect(convertOpenAIError(status, body(null), {}).kind).toBe(kind);
  });

  it('passes a bad_request or not_found message on, but not a server error one', () => {
    expect(convertOpenAIError(400, body('invalid_value', "Invalid value for 'tool_choice'."), {}).message).toBe("Invalid value for 'tool_choice'.");
    expect(convertOpenAIError(404, body('model_not_found', 'The model `gpt-9` does not exist.'), {}).message).toBe('The model `gpt-9` does not exist.');
    expect(convertOpenAIError(500, body(null, 'Traceback at worker-17'), {}).message).toBe('The upstream provider failed (HTTP 500)');
  });

  it('treats insufficient_quota as our server error, not the client rate limit', () => {
    expect(convertOpenAIError(429, body('insufficient_quota', 'You exceeded your current quota'), {})).toEqual({ kind: 'server_error', message: 'The upstream provider account has run out of quota' });
  });

  it('survives a body that is not JSON', () => {
    expect(convertOpenAIError(502, '<html><body>Bad gateway</body></html>', { 'X-Request-Id': ['req_1', 'req_2'] })).toEqual({
      kind: 'server_error',
      message: 'The upstream provider failed (HTTP 502)',
      upstreamRequestId: 'req_1',
    });
    expect(convertOpenAIError(400, 'nope', {}).message).toBe('The upstream provider rejected the request (HTTP 400)');
  });

  it('reads retry-after on overloaded answers too', () => {
    expect(convertOpenAIError(503, '', { 'retry-after': '20' })).toEqual({ kind: 'overloaded', message: 'The upstream provider is overloaded; retry later', retryAfter: 20 });
  });
});

describe('parseRetryAfter', () => {
  afterEach(() => vi.useRealTimers());

  it('prefers retry-after-ms, rounding up to whole seconds', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' })).toBe(2);
    expect(parseRetryAfter({ 'retry-after-ms': '20' })).toBe(1);
  });

  it('reads seconds and HTTP dates', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-09-24T10:00:00Z'));
    expect(parseRetryAfter({ 'retry-after': '7' })).toBe(7);
    expect(parseRetryAfter({ 'retry-after': 'Wed, 24 Sep 2025 10:00:42 GMT' })).toBe(42);
  });

  it('reads Go-style durations from the message', () => {
    expect(parseRetryAfter({}, 'Please try again in 6m0s.')).toBe(360);
    expect(parseRetryAfter({}, 'Please try again in 120ms.')).toBe(1);
    expect(parseRetryAfter({}, 'no hint here')).toBeUndefined();
  });
});
