import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertError, convertStreamError } from './convert-error';

const fixture = (name: string): string => readFileSync(path.join(__dirname, '__fixtures__', name), 'utf8');

describe('convertError', () => {
  it('classifies prompt too long as context_length_exceeded, with the request id', () => {
    expect(convertError(400, fixture('prompt_too_long.error.json'), { 'request-id': 'req_header' })).toEqual({
      kind: 'context_length_exceeded',
      message: 'prompt is too long: 208310 tokens > 200000 maximum',
      upstreamRequestId: 'req_header',
    });
  });

  it('classifies other invalid requests as bad_request, falling back to the body request_id', () => {
    expect(convertError(400, fixture('invalid_request.error.json'), {})).toMatchObject({ kind: 'bad_request', upstreamRequestId: 'req_011CSHq8f1fZ4tLp2wVx9YbA' });
  });

  it('classifies 401 and 403 as auth', () => {
    expect(convertError(401, fixture('authentication.error.json'), {})).toMatchObject({ kind: 'auth', message: 'invalid x-api-key' });
    expect(convertError(403, '{"type":"error","error":{"type":"permission_error","message":"no access"}}', {}).kind).toBe('auth');
  });

  it('classifies 429 as rate_limited with Retry-After in seconds or as a date', () => {
    expect(convertError(429, fixture('rate_limit.error.json'), { 'Retry-After': '17' })).toMatchObject({ kind: 'rate_limited', retryAfter: 17, upstreamRequestId: 'req_011CSHpXk4Yw8aRbT2dNqE5v' });
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(convertError(429, fixture('rate_limit.error.json'), { 'retry-after': ['Wed, 01 Jan 2025 00:00:30 GMT'] }, now).retryAfter).toBe(30);
  });

  it('classifies 529 and overloaded_error as overloaded', () => {
    expect(convertError(529, fixture('overloaded.error.json'), {})).toEqual({ kind: 'overloaded', message: 'Overloaded', upstreamRequestId: 'req_011CSHpb3GmC9sVfK1hJ7uWx' });
  });

  it('classifies 404 and 5xx, including bodies that are not JSON', () => {
    expect(convertError(404, '{"type":"error","error":{"type":"not_found_error","message":"model: claude-x"}}', {}).kind).toBe('not_found');
    expect(convertError(500, '{"type":"error","error":{"type":"api_error","message":"Internal server error"}}', {}).kind).toBe('server_error');
    expect(convertError(502, '<html>Bad Gateway</html>', {})).toEqual({ kind: 'server_error', message: 'Anthropic returned HTTP 502' });
  });
});

describe('convertStreamError', () => {
  it.each([
    ['overloaded_error', 'Overloaded', 'server_error'],
    ['api_error', 'Internal server error', 'server_error'],
    ['rate_limit_error', 'Rate limited', 'rate_limit'],
    ['invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum', 'context_length_exceeded'],
  ])('%s → %s', (type, message, code) => {
    expect(convertStreamError({ type, message })).toEqual({ code, message });
  });
});
