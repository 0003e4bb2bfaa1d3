import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertGeminiError } from './convert-error';

const body = (name: string) => readFileSync(path.join(__dirname, '__fixtures__', `${name}.error.json`), 'utf8');

describe('convertGeminiError', () => {
  it('recognises the token limit among 400s', () => {
    expect(convertGeminiError(400, body('token_limit'), {})).toEqual({
      kind: 'context_length_exceeded',
      message: 'The input token count (1203456) exceeds the maximum number of tokens allowed (1048576).',
    });
    expect(convertGeminiError(400, JSON.stringify({ error: { code: 400, message: '* GenerateContentRequest.contents: contents is not specified', status: 'INVALID_ARGUMENT' } }), {})).toEqual({
      kind: 'bad_request',
      message: '* GenerateContentRequest.contents: contents is not specified',
    });
  });

  it('treats a 400 API_KEY_INVALID as auth', () => {
    expect(convertGeminiError(400, body('api_key_invalid'), {})).toMatchObject({ kind: 'auth' });
  });

  it('classifies 403 as auth and never repeats the API key Google echoes', () => {
    const failure = convertGeminiError(403, body('permission_denied'), {});
    expect(failure).toEqual({ kind: 'auth', message: "Permission denied: Consumer 'api_key:[redacted]' has been suspended." });
    expect(convertGeminiError(400, '{"error":{"message":"bad key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"}}', {}).message).toBe('bad key [redacted]');
  });

  it('takes the retry delay from RetryInfo, else from Retry-After', () => {
    expect(convertGeminiError(429, body('rate_limit'), { 'retry-after': '99' })).toEqual({
      kind: 'rate_limited',
      message: expect.stringMatching(/^You exceeded your current quota/),
      retryAfter: 17,
    });
    const fractional = JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'quota', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' }] } });
    expect(convertGeminiError(429, fractional, {}).retryAfter).toBe(35);
    const bare = JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'quota' } });
    expect(convertGeminiError(429, bare, { 'Retry-After': ['30'] }).retryAfter).toBe(30);
    expect(convertGeminiError(429, bare, {})).not.toHaveProperty('retryAfter');
  });

  it.each([
    [503, body('overloaded'), 'overloaded'],
    [404, '{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1beta","status":"NOT_FOUND"}}', 'not_found'],
    [500, '{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}', 'server_error'],
    [504, '{"error":{"code":504,"message":"Deadline expired before operation could complete.","status":"DEADLINE_EXCEEDED"}}', 'server_error'],
    [401, '{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}', 'auth'],
    [413, 'Request Entity Too Large', 'bad_request'],
  ])('maps HTTP %i to its kind', (status, text, kind) => {
    expect(convertGeminiError(status, text, {}).kind).toBe(kind);
  });

  it('falls back to the raw body when it is not a Google error', () => {
    expect(convertGeminiError(502, '<html>Bad Gateway</html>', {})).toEqual({ kind: 'server_error', message: '<html>Bad Gateway</html>' });
    expect(convertGeminiError(500, '', {})).toEqual({ kind: 'server_error', message: 'Gemini answered HTTP 500' });
  });
});
